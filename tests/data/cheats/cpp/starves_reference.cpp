// expect: ok-but-slow
// Starts a thread that spins on the harness's CPU, so that whatever is timed
// while the candidate is not running (the reference) gets slower: a harness
// that lets it run would see this slow kernel (it works three times over)
// beat the reference.
#include <sched.h>
#include <thread>
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    static bool started = false;
    if (!started) {
        started = true;
        std::thread([] {
            cpu_set_t set;
            CPU_ZERO(&set);
            CPU_SET(0, &set);
            sched_setaffinity(0, sizeof set, &set);
            for (volatile unsigned long i = 0;; ++i) {
            }
        }).detach();
    }
    for (int rep = 0; rep < 3; ++rep)
        for (int64_t i = 0; i < N; ++i) y[i] = a * x[i] + z[i] + static_cast<float>(rep) * 0.0f;
}
