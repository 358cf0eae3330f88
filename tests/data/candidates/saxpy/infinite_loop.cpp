// Never returns.
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    volatile int64_t spin = 0;
    for (;;) ++spin;
    for (int64_t i = 0; i < N; ++i) y[i] = a * x[i] + z[i];
}
