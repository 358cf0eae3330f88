// Under valgrind (cachegrind profiling), where no seccomp filter can be
// installed, a correct saxpy that leaves a child behind: it calls setsid (out
// of its runner's process group, which is all the judge used to kill), turns
// build/times into a FIFO so that run.sh blocks after the judge exits, waits
// for result.json and rewrites it with a forged verdict. The judge kills
// every process its runners started before it writes result.json, and
// run.sh's writes after the judge are bounded.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {
bool forked = false;

void forgeLater() {
    if (setsid() < 0) _exit(0);
    unlink("build/times");
    mkfifo("build/times", 0600);
    for (int i = 0; i < 60000; ++i) { // a minute at most
        if (access("result.json", F_OK) == 0) {
            if (FILE* f = std::fopen("result.json", "w")) {
                std::fputs("{\"schema\":1,\"status\":\"ok\",\"message\":\"FORGED by a leftover process\",\"speedup\":99,"
                           "\"checks\":[],\"timing\":[]}\n",
                           f);
                std::fclose(f);
            }
            const int fifo = open("build/times", O_RDONLY | O_NONBLOCK);
            if (fifo >= 0) close(fifo);
            _exit(0);
        }
        usleep(1000);
    }
    _exit(0);
}
} // namespace

extern "C" void saxpy(const float* x, const float* z, float* y, int64_t n, float a) {
    const char* preload = std::getenv("LD_PRELOAD");
    if (!forked && preload && std::strstr(preload, "vgpreload")) {
        forked = true;
        if (fork() == 0) forgeLater();
    }
    for (int64_t i = 0; i < n; ++i) y[i] = a * x[i] + z[i];
}
