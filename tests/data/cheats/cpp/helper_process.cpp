// expect: sandbox_violation
// Forks a helper that keeps running after the call returns (to finish the
// work off the clock, or to slow the baselines down).
#include <unistd.h>
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    static bool forked = false;
    if (!forked) {
        forked = true;
        if (fork() == 0) {
            for (volatile unsigned long i = 0;; ++i) {
            }
        }
    }
    for (int64_t i = 0; i < N; ++i) y[i] = a * x[i] + z[i];
}
