// expect: wrong_answer
// Computes each output once, then makes it read-only (a harness poisoning it
// in place between calls would fault in its own code) and skips later calls on
// it; tries a writable alias of its input (mremap, then mprotect) to zero the
// reference's inputs, punches the input's pages out (MADV_REMOVE) and marks
// them MADV_DONTFORK.
#include <cstdint>
#include <set>
#include <sys/mman.h>
namespace {
std::set<const float*> answered;
uintptr_t pageOf(const void* p) { return reinterpret_cast<uintptr_t>(p) & ~uintptr_t{4095}; }
size_t spanOf(const void* p, int64_t n) {
    return (reinterpret_cast<uintptr_t>(p) + static_cast<uintptr_t>(n) * 4 - pageOf(p) + 4095) & ~size_t{4095};
}
} // namespace
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    if (answered.count(y)) return; // it still holds its answer
    void* page = reinterpret_cast<void*>(pageOf(x));
    const size_t span = spanOf(x, N);
    void* alias = mremap(page, 0, span, MREMAP_MAYMOVE); // a second mapping of the same pages
    if (alias != MAP_FAILED && mprotect(alias, span, PROT_READ | PROT_WRITE) == 0) {
        auto* w = reinterpret_cast<float*>(static_cast<char*>(alias) + (reinterpret_cast<uintptr_t>(x) - pageOf(x)));
        for (int64_t i = 0; i < N; ++i) w[i] = 0.0f;
    }
    madvise(page, span, MADV_REMOVE);
    madvise(page, span, MADV_DONTFORK);
    for (int64_t i = 0; i < N; ++i) y[i] = a * x[i] + z[i];
    mprotect(reinterpret_cast<void*>(pageOf(y)), spanOf(y, N), PROT_READ);
    answered.insert(y);
}
