// expect: timeout
// Blocks SIGALRM (the in-process watchdog's signal) and never returns.
#include <signal.h>
void saxpy(const float*, const float*, float*, int64_t, float) {
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, nullptr);
    for (volatile unsigned long i = 0;; ++i) {
    }
}
