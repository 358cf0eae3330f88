// expect: ok-but-slow
// A case's memfds are shared by every runner. A descriptor caught before the
// runner closes it (by a thread of the candidate's, watching /proc/self/fd)
// and sealed against future writes (F_SEAL_FUTURE_WRITE) would make the next
// runner that maps the case fail: the reference's fault, as the judge would
// read it, not the candidate's. The filter refuses F_ADD_SEALS with EPERM.
// This probe seals a memfd of its own (the same call, deterministic) and
// answers wrong if that succeeds, so that a judge without the rule cannot
// pass it; refused, it does the work three times over.
#include <cstdint>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

extern "C" void saxpy(const float* x, const float* z, float* y, int64_t n, float a) {
    static bool tried = false, sealed = false;
    if (!tried) {
        tried = true;
        const int fd = static_cast<int>(syscall(SYS_memfd_create, "probe", MFD_ALLOW_SEALING));
        if (fd >= 0) {
            sealed = fcntl(fd, 1033 /* F_ADD_SEALS */, 0x0010 /* F_SEAL_FUTURE_WRITE */) == 0;
            close(fd);
        }
    }
    for (int rep = 0; rep < 3; ++rep)
        for (int64_t i = 0; i < n; ++i) y[i] = a * x[i] + z[i] + static_cast<float>(rep) * 0.0f;
    if (sealed)
        for (int64_t i = 0; i < n; ++i) y[i] += 1.0f; // the filter let it through: the suite must fail
}
