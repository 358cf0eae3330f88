// Correct, but each call first spins for a different while (0 to ~300 us,
// from its own generator): a kernel whose time scatters call to call, so the
// speedup's interval stays wide however many rounds it gets.
#include <cstdint>
static uint64_t state = 88172645463325252ull;
void tiny(const float* x, float* y, int64_t N) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    for (volatile uint64_t k = 0; k < (state % 100) * 100; k = k + 1) {
    }
    for (int64_t i = 0; i < N; ++i) y[i] = 1e-9f * x[i];
}
