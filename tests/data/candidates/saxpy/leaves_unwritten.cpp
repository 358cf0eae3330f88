// Forgets the last element.
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    for (int64_t i = 0; i + 1 < N; ++i) y[i] = a * x[i] + z[i];
}
