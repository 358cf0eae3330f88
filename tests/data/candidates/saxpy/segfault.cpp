// Writes through a null pointer on every call.
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    volatile float* volatile nowhere = nullptr;
    for (int64_t i = 0; i < N; ++i) y[i] = a * x[i] + z[i];
    *nowhere = 1.0f;
}
