// expect: wrong_answer
// Recognises the published timing shape and computes only part of it: the
// check shapes are small, so only the timed calls cut corners.
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    const int64_t n = N == 1048576 ? N / 8 : N;
    for (int64_t i = 0; i < n; ++i) y[i] = a * x[i] + z[i];
}
