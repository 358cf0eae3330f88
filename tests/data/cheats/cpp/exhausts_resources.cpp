// expect: oom|runtime_error
// Asks for a terabyte (and ignores the refusal), then starts threads that
// park forever until no more can be made: it hopes the memory and task limits
// it exhausts make the harness's next allocation, process or runner fail and
// be blamed on the problem (infra_error). It does the work once, first.
#include <cstdlib>
#include <thread>
#include <unistd.h>
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    for (int64_t i = 0; i < N; ++i) y[i] = a * x[i] + z[i];
    static void* volatile hoard;
    hoard = std::malloc(1ull << 40);
    for (;;) std::thread([] {
        for (;;) pause();
    }).detach();
}
