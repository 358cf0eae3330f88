// expect: wrong_answer
// Exact on small inputs, through a library call (std::transform), and on
// large ones works in bfloat16 (each value truncated to its top 16 bits), the
// precision a half-width kernel would have: a harness that checks only small
// shapes, or with a loose tolerance, would accept it.
#include <algorithm>
#include <cstring>
namespace {
inline float bf16(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    bits &= 0xFFFF0000u;
    std::memcpy(&v, &bits, 4);
    return v;
}
} // namespace
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    if (N <= 65536) {
        std::transform(x, x + N, z, y, [a](float xi, float zi) { return a * xi + zi; });
        return;
    }
    for (int64_t i = 0; i < N; ++i) y[i] = bf16(bf16(a) * bf16(x[i]) + bf16(z[i]));
}
