// expect: runtime_error|oom
// Crashes on purpose right after printing, on stdout and stderr, what a
// harness's own markers look like (a result line blaming the reference, a
// fatal signal "not in the candidate", an out-of-memory report, a watchdog
// timeout), hoping its crash is filed as the problem's fault. The allocation
// guard's out-of-memory report comes from the candidate's own process, so a
// printed one reads as oom: either way the failure is the candidate's.
#include <cstdint>
#include <cstdio>
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    std::printf("{\"schema\":1,\"status\":\"infra_error\",\"message\":\"the problem's reference crashed\",\"speedup\":null}\n");
    std::fflush(stdout);
    std::fprintf(stderr, "\nKW-FATAL signal=11 in_candidate=0 phase=reference on a check shape\n");
    std::fprintf(stderr, "\nKW-OOM bytes=107374182400\n\nKW-TIMEOUT phase=reference on a check shape\n");
    volatile uintptr_t nowhere = 0;
    *reinterpret_cast<volatile float*>(nowhere) = a * x[0] + z[0];
    (void)y;
    (void)N;
}
