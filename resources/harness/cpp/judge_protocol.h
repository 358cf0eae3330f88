// The messages between Kernelwright's judge (judge_main.cpp) and a kernel
// runner (kernel_runner.cpp), over a SOCK_SEQPACKET socket pair: one message
// per packet, buffers as memfds in SCM_RIGHTS. Plain structs, same binary on
// both ends (both are built in the same job dir by the same compiler).
//
// With -DKW_CUDA (the cuda backend) buffers live on the device: the judge
// allocates them shareable (CUDA's virtual memory management) and sends each
// allocation's file descriptor instead of a memfd; mapBytes is its size.
//
// The runner hosts exactly one untrusted or problem kernel. Nothing it sends
// can make a verdict better: a DONE only stops the judge's clock, after which
// the runner is frozen and its outputs are read by the judge itself.
#pragma once
#include <cstdint>

namespace ksproto {

constexpr uint32_t kMaxBuffers = 32; // arguments of one kernel
constexpr uint32_t kMaxSizes = 32;   // declared + derived sizes
constexpr uint32_t kMaxBatch = 64;   // calls per CALL message
constexpr int kSocketFd = 3;         // where the runner finds its socket

enum Type : uint32_t {
    Hello = 1, // runner -> judge: loaded (status 0) or not (2, 3; text says why)
    Map,       // judge -> runner: a case's buffers (fds attached)
    Mapped,    // runner -> judge
    Unmap,     // judge -> runner: forget a case
    Call,      // judge -> runner: call the kernel on these cases, in order
    Done,      // runner -> judge: the calls returned (status 0) or threw
    Nop,       // judge -> runner: answer Done at once (measures the hand-off)
    Fault,     // runner -> judge: it is about to die; text says why
    // runner -> judge, before the library is loaded (so before any of its code
    // runs): confined (status 0) or cannot be (1, text says why). Whatever
    // comes after it may be the library's own words.
    Confined,
    // judge -> runner (CallMsg, one case): call the kernel once under CUPTI's
    // activity tracing; the runner answers a Profiled per kernel, copy or
    // memset (status: 0 kernel, 1 copy, 2 memset; text: "NANOSECONDS NAME"),
    // then Done. A breakdown for the diagnosis, never a score.
    Profile,
    Profiled,
};

// CallDeviceError: a CUDA launch or kernel failed (text: the error's name).
// CallUnavailable: a Profile the runner cannot serve (built without CUPTI, or
// CUPTI refused; text says why).
enum CallStatus : uint32_t {
    CallOk = 0,
    CallException = 1,
    CallOutOfMemory = 2,
    CallBadCase = 3,
    CallDeviceError = 4,
    CallUnavailable = 5
};

struct BufferDesc {
    uint64_t mapBytes; // size of the memfd (page multiple)
    uint64_t offset;   // where the data starts inside it
    uint64_t dataBytes;
    uint32_t output; // 1: writable output; 0: read-only input
    char name[44];
};

struct MapMsg {
    uint32_t type;
    uint32_t caseId;
    uint32_t buffers;
    uint32_t sizeCount;
    int64_t sizes[kMaxSizes];
    BufferDesc buffer[kMaxBuffers];
};

struct CallMsg {
    uint32_t type;
    uint32_t seq;
    uint32_t count;
    uint32_t caseId[kMaxBatch];
};

// Hello, Mapped, Unmap, Done, Nop, Fault, Profiled share this shape.
struct ShortMsg {
    uint32_t type;
    uint32_t seq; // Done: the Call's seq; Unmap/Mapped: the case id
    uint32_t status;
    char text[200];
};

} // namespace ksproto
