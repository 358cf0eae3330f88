// expect: wrong_answer
// Works on odd calls only; even calls return at once and leave the output as
// the odd call left it (the harness that re-poisons nothing cannot tell).
static long calls = 0;
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    if (N > 100000 && (++calls % 2) == 0) return;
    for (int64_t i = 0; i < N; ++i) y[i] = a * x[i] + z[i];
}
