// expect: runtime_error
// Loads OpenBLAS only once the judge is past loading, on its first call (so
// that nothing is mapped when the judge looks), through an alias of dlopen.
// On a problem that takes the candidate's own code, the runner's second
// filter forbids executable memory after loading: dlopen fails, and this
// kernel, which counted on it, calls a null function.
#include <cstdint>
#include <cstring>

static void* kwOpen(const char*, int) __attribute__((weakref("dlopen")));
static void* kwFind(void*, const char*) __attribute__((weakref("dlsym")));

namespace {
using Axpy = void (*)(int, float, const float*, int, float*, int);
Axpy axpy = nullptr;
} // namespace

extern "C" void saxpy(const float* x, const float* z, float* y, int64_t n, float a) {
    if (!axpy) {
        void* h = kwOpen("libopenblas.so.0", 2 /* RTLD_NOW */);
        axpy = reinterpret_cast<Axpy>(h ? kwFind(h, "cblas_saxpy") : nullptr);
    }
    std::memcpy(y, z, static_cast<size_t>(n) * sizeof(float));
    axpy(static_cast<int>(n), a, x, 1, y, 1);
}
