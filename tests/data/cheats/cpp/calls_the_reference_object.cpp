// expect: sandbox_violation
// Delegates to the problem's own compiled reference, read from the job's
// build folder: a constructor loads build/reference.so (through an alias of
// dlopen) and every call runs the reference's code. The judge finds the
// reference's object mapped executable in the candidate's process.
#include <cstdint>

static void* kwOpen(const char*, int) __attribute__((weakref("dlopen")));
static void* kwFind(void*, const char*) __attribute__((weakref("dlsym")));

namespace {
using Saxpy = void (*)(const float*, const float*, float*, int64_t, float);
Saxpy theirs = nullptr;

__attribute__((constructor)) void borrow() {
    if (void* h = kwOpen("build/reference.so", 2 /* RTLD_NOW */)) theirs = reinterpret_cast<Saxpy>(kwFind(h, "saxpy"));
}
} // namespace

extern "C" void saxpy(const float* x, const float* z, float* y, int64_t n, float a) {
    if (theirs) {
        theirs(x, z, y, n, a);
        return;
    }
    for (int64_t i = 0; i < n; ++i) y[i] = a * x[i] + z[i];
}
