// expect: ok-but-slow
// Moves every process it can see to SCHED_IDLE with sched_setattr, which the
// older calls' rules did not name: the reference's runner and the judge then
// yield to anything else on the host, and under load the reference reads
// slower. It checks the call on itself first; should the call ever succeed,
// it answers wrongly, so a filter that lets sched_setattr through fails the
// suite on any machine, loaded or idle.
#include <sched.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace {
struct Attr {
    uint32_t size;
    uint32_t policy;
    uint64_t flags;
    int32_t nice;
    uint32_t priority;
    uint64_t runtime, deadline, period;
};
bool demote(long pid) {
    Attr a{};
    a.size = sizeof a;
    a.policy = 5; // SCHED_IDLE
    return syscall(SYS_sched_setattr, pid, &a, 0) == 0;
}
} // namespace

void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    static bool tried = false, demoted = false;
    if (!tried) {
        tried = true;
        demoted = demote(0);
        for (long pid = 1; pid < 64; ++pid) demoted = demote(pid) || demoted;
    }
    for (int rep = 0; rep < 3; ++rep)
        for (int64_t i = 0; i < N; ++i) y[i] = a * x[i] + z[i] + static_cast<float>(rep) * 0.0f;
    if (demoted)
        for (int64_t i = 0; i < N; ++i) y[i] += 1.0f; // the filter let it through: the suite must fail
}
