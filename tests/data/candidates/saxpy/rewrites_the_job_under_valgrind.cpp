// Under valgrind (cachegrind profiling), where no seccomp filter can be
// installed, a correct saxpy that tries to rewrite the job: it appends to
// the reference's library (whose code pages the reference's runner maps,
// so a later shape's reference would run changed code) and turns the
// judge's phase file into a FIFO (opening one to write blocks the judge
// until the job is killed). The profiling runner may write only in
// profile/ and its temporary folder (Landlock), and the judge makes its
// own files afresh whatever it finds at their paths.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {
bool tried = false;

void rewriteTheJob() {
    const int so = open("build/reference.so", O_WRONLY | O_APPEND);
    if (so >= 0) {
        (void)!write(so, "REWRITTEN", 9);
        close(so);
    }
    unlink("build/phase");
    mkfifo("build/phase", 0600);
}
} // namespace

extern "C" void saxpy(const float* x, const float* z, float* y, int64_t n, float a) {
    const char* preload = std::getenv("LD_PRELOAD");
    if (!tried && preload && std::strstr(preload, "vgpreload")) {
        tried = true;
        rewriteTheJob();
    }
    for (int64_t i = 0; i < n; ++i) y[i] = a * x[i] + z[i];
}
