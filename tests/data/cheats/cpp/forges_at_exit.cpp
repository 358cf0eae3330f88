// expect: sandbox_violation
// Does no work. It leaves the process with exit(0) from a signal handler, and
// the atexit handler that runs then forks a child that outlives it and, once
// the harness should be done, writes "done" to build/phase and a glowing
// result.json: a harness trusting a clean exit, or its files, would accept it.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
namespace {
void forgeLater() {
    if (fork() != 0) return;
    sleep(2);
    if (FILE* f = std::fopen("build/phase", "w")) {
        std::fputs("done", f);
        std::fclose(f);
    }
    if (FILE* f = std::fopen("result.json", "w")) {
        std::fputs("{\"schema\":1,\"status\":\"ok\",\"message\":\"correct; 40x the reference\",\"speedup\":40,\"checks\":[],\"timing\":[]}\n", f);
        std::fclose(f);
    }
    _exit(0);
}
void leave(int) { std::exit(0); }
} // namespace
void saxpy(const float*, const float*, float*, int64_t, float) {
    std::atexit(forgeLater);
    std::signal(SIGUSR1, leave);
    std::raise(SIGUSR1);
}
