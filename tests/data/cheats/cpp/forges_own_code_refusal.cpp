// expect: sandbox_violation
// At load time sends on the runner's socket the message a runner sends when
// it cannot install the own-code filter after loading (Hello, status 4), and
// then stops answering: a judge that believed it would file the candidate as
// the host's fault (infra_error). That message comes after the library's
// constructors ran, so the judge charges it to the candidate.
#include <cstddef>
#include <cstdint>
#include <sys/types.h>
#include <unistd.h>
extern "C" ssize_t send(int, const void*, size_t, int);
namespace {
struct Message {
    uint32_t type, seq, status;
    char text[200];
};
struct Forger {
    Forger() {
        const Message hello{1, 0, 4, "prctl(PR_SET_SECCOMP) failed for the own-code filter"};
        send(3, &hello, sizeof hello, 0);
        for (;;) pause();
    }
} forger;
} // namespace
void saxpy(const float*, const float*, float*, int64_t, float) {}
