// expect: sandbox_violation
// Reaches a vendor library by a route no name in the source gives away: a
// weakref alias of dlopen and of dlsym, called from a constructor, loads
// OpenBLAS and takes its cblas_saxpy. The problem takes the candidate's own
// code only, so the judge reads the runner's memory map after loading and
// finds OpenBLAS's code there.
#include <cstdint>
#include <cstring>
#include <initializer_list>

static void* kwOpen(const char*, int) __attribute__((weakref("dlopen")));
static void* kwFind(void*, const char*) __attribute__((weakref("dlsym")));

namespace {
using Axpy = void (*)(int, float, const float*, int, float*, int);
Axpy axpy = nullptr;

__attribute__((constructor)) void reach() {
    for (const char* name : {"libopenblas.so.0", "libblas.so.3"})
        if (void* h = kwOpen(name, 2 /* RTLD_NOW */)) {
            axpy = reinterpret_cast<Axpy>(kwFind(h, "cblas_saxpy"));
            if (axpy) return;
        }
}
} // namespace

extern "C" void saxpy(const float* x, const float* z, float* y, int64_t n, float a) {
    std::memcpy(y, z, static_cast<size_t>(n) * sizeof(float));
    if (axpy) {
        axpy(static_cast<int>(n), a, x, 1, y, 1);
        return;
    }
    for (int64_t i = 0; i < n; ++i) y[i] += a * x[i];
}
