void f(const float* x, float* y, int64_t N) { for (int64_t i = 0; i < N; ++i) y[i] = x[i]; }
