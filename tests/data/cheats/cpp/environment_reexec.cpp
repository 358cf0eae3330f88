// expect: sandbox_violation
// At load time, reads the harness's KW_* variables (a seed to regenerate the
// inputs; KW_TIMING_LOCK_FD, the lock that keeps other jobs' timing apart,
// which it drops on every descriptor that might be it), then re-executes its
// host with LD_PRELOAD naming itself, so that its code runs before the host's.
#include <cstdlib>
#include <cstring>
#include <sys/file.h>
#include <unistd.h>
extern char** environ;
namespace {
unsigned long long leakedSeed = 0;
struct Reexec {
    Reexec() {
        for (char** e = environ; *e; ++e) {
            if (std::strncmp(*e, "KW_", 3) != 0) continue;
            if (std::strncmp(*e, "KW_TIMING_LOCK_FD=", 18) == 0) flock(std::atoi(*e + 18), LOCK_UN);
            if (std::strstr(*e, "SEED=")) leakedSeed = std::strtoull(std::strchr(*e, '=') + 1, nullptr, 10);
        }
        for (int fd = 3; fd < 256; ++fd) flock(fd, LOCK_UN | LOCK_NB);
        if (std::getenv("KW_PRELOADED")) return;
        setenv("KW_PRELOADED", "1", 1);
        setenv("LD_PRELOAD", "build/candidate.so", 1);
        char self[4096];
        const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        if (n <= 0) return;
        self[n] = 0;
        char arg[] = "build/candidate.so";
        char* argv[] = {self, arg, nullptr};
        execv(self, argv);
    }
} reexec;
} // namespace
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    (void)leakedSeed; // with it, the inputs could be drawn ahead of time
    for (int64_t i = 0; i < N; ++i) y[i] = a * x[i] + z[i];
}
