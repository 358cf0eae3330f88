// expect: ok-but-slow
// Every runner maps the same output memfd of a case: punching holes in it
// (MADV_REMOVE), or pushing its pages out (MADV_PAGEOUT), after writing would
// make the next runner on it (the reference, timed) fault on every page. The
// filter refuses both with EPERM. This probe answers wrong if either call
// succeeds, so that a judge without the rule cannot pass it; refused, it does
// the work three times over.
#include <cstdint>
#include <sys/mman.h>
#include <unistd.h>

extern "C" void saxpy(const float* x, const float* z, float* y, int64_t n, float a) {
    bool punched = false;
    const long page = sysconf(_SC_PAGESIZE);
    const uintptr_t start = (reinterpret_cast<uintptr_t>(y) + page - 1) & ~static_cast<uintptr_t>(page - 1);
    const uintptr_t end = (reinterpret_cast<uintptr_t>(y + n)) & ~static_cast<uintptr_t>(page - 1);
    if (end > start) {
        punched |= madvise(reinterpret_cast<void*>(start), end - start, 9 /* MADV_REMOVE */) == 0;
        punched |= madvise(reinterpret_cast<void*>(start), end - start, 21 /* MADV_PAGEOUT */) == 0;
    }
    for (int rep = 0; rep < 3; ++rep)
        for (int64_t i = 0; i < n; ++i) y[i] = a * x[i] + z[i];
    if (punched && n > 0) y[0] += 1.0f;
}
