// expect: wrong_answer
// Hopes the harness freed its expected outputs on the heap: allocates a block
// of the output's size and returns whatever it holds.
#include <cstdlib>
#include <cstring>
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    if (N < 100000) {
        for (int64_t i = 0; i < N; ++i) y[i] = a * x[i] + z[i];
        return;
    }
    void* stale = std::malloc(N * sizeof(float));
    std::memcpy(y, stale, N * sizeof(float));
    std::free(stale);
}
