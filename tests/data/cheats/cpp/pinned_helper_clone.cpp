// expect: sandbox_violation
// Starts a helper process with clone() (shared memory, no CLONE_THREAD: a
// process of its own, which a harness freezing the candidate's threads would
// miss) that pins itself to CPU 0 and spins there, starving whatever is timed
// next (the reference). Its own work is done once, at honest speed.
#include <sched.h>
#include <csignal>
namespace {
alignas(16) char helperStack[1 << 16];
int spin(void*) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(0, &set);
    sched_setaffinity(0, sizeof set, &set);
    for (volatile unsigned long i = 0;; ++i) {
    }
    return 0;
}
} // namespace
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    static bool started = false;
    if (!started) {
        started = true;
        clone(spin, helperStack + sizeof helperStack, CLONE_VM | CLONE_FS | CLONE_FILES | SIGCHLD, nullptr);
    }
    for (int64_t i = 0; i < N; ++i) y[i] = a * x[i] + z[i];
}
