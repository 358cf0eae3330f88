// expect: runtime_error
// At load time, before its host says hello, sends on the runner's socket
// (descriptor 3) the message a runner sends when it cannot install its
// sandbox (Hello, status 1), then crashes: a judge that believes it files the
// candidate's crash as the host's fault (infra_error), charging no candidate.
#include <cstddef>
#include <cstdint>
#include <sys/types.h>
extern "C" ssize_t send(int, const void*, size_t, int);
namespace {
struct Message {
    uint32_t type, seq, status;
    char text[200];
};
struct Forger {
    Forger() {
        const Message hello{1, 0, 1, "prctl(PR_SET_SECCOMP) failed"};
        send(3, &hello, sizeof hello, 0);
        volatile uintptr_t nowhere = 0;
        *reinterpret_cast<volatile int*>(nowhere) = 1;
    }
} forger;
} // namespace
void saxpy(const float*, const float*, float*, int64_t, float) {}
