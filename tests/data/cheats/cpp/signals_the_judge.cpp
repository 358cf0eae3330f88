// expect: wrong_answer
// Stops its parent (the harness) around its own call, hoping the clock or the
// comparison stalls; then returns without working.
#include <signal.h>
#include <unistd.h>
void saxpy(const float*, const float*, float* y, int64_t N, float) {
    kill(getppid(), SIGSTOP);
    kill(-1, SIGCONT);
    for (int64_t i = 0; i < N; ++i) y[i] = 0;
}
