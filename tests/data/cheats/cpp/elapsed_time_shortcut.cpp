// expect: wrong_answer
// Counts calls to tell the check phase from the timing phase: after the
// first few calls on large inputs it stops computing.
static int largeCalls = 0;
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    if (N > 100000 && ++largeCalls > 3) {
        for (int64_t i = 0; i < N; i += 64) y[i] = a * x[i] + z[i];
        return;
    }
    for (int64_t i = 0; i < N; ++i) y[i] = a * x[i] + z[i];
}
