// @kw-param UNROLL: 1 | 2 | 4 | 8 = 4
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    int64_t i = 0;
    for (; i + UNROLL <= N; i += UNROLL)
#pragma GCC unroll 8
        for (int k = 0; k < UNROLL; ++k) y[i + k] = a * x[i + k] + z[i + k];
    for (; i < N; ++i) y[i] = a * x[i] + z[i];
}
