// Casts away const and overwrites its input (a classic way to fake results).
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    float* writable = const_cast<float*>(x);
    for (int64_t i = 0; i < N; ++i) {
        y[i] = a * x[i] + z[i];
        writable[i] = 0.0f;
    }
}
