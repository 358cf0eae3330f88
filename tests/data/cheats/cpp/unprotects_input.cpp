// expect: wrong_answer
// Makes its input writable again and overwrites it with values that make the
// output trivially right for the reference's next run.
#include <cstdint>
#include <sys/mman.h>
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    const uintptr_t begin = reinterpret_cast<uintptr_t>(x) & ~static_cast<uintptr_t>(4095);
    mprotect(reinterpret_cast<void*>(begin), (reinterpret_cast<uintptr_t>(x + N) - begin + 4095) & ~static_cast<uintptr_t>(4095),
             PROT_READ | PROT_WRITE);
    float* w = const_cast<float*>(x);
    for (int64_t i = 0; i < N; ++i) w[i] = 0.0f;
    for (int64_t i = 0; i < N; ++i) y[i] = z[i];
}
