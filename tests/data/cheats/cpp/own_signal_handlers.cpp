// expect: wrong_answer
// Takes SIGSEGV, SIGALRM and SIGTERM over: a fault in its read-ahead (past
// the end of x) or its own time budget running out (an interval timer)
// siglongjmps out of the loop and the call returns as if done, and a soft kill
// is ignored. A harness that only notices crashes and times would accept it.
#include <csetjmp>
#include <csignal>
#include <sys/time.h>
namespace {
sigjmp_buf escape;
volatile sig_atomic_t inKernel = 0;
void bail(int sig) {
    if (inKernel) siglongjmp(escape, 1);
    signal(sig, SIG_DFL); // not ours: let it happen again, for real
}
} // namespace
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    static bool installed = false;
    if (!installed) {
        installed = true;
        struct sigaction sa = {};
        sa.sa_handler = bail;
        sa.sa_flags = SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGSEGV, &sa, nullptr);
        sigaction(SIGALRM, &sa, nullptr);
        signal(SIGTERM, SIG_IGN);
    }
    if (sigsetjmp(escape, 1) == 0) {
        inKernel = 1;
        itimerval budget = {{0, 0}, {0, 20000}}; // 20 ms, then whatever is done is the answer
        setitimer(ITIMER_REAL, &budget, nullptr);
        for (int64_t i = 0; i < N; i += 16) {
            volatile float ahead = x[i + 16]; // read ahead one block, without a bound check
            (void)ahead;
            const int64_t end = i + 16 < N ? i + 16 : N;
            for (int64_t k = i; k < end; ++k) y[k] = a * x[k] + z[k];
        }
    }
    inKernel = 0;
    itimerval off = {};
    setitimer(ITIMER_REAL, &off, nullptr);
}
