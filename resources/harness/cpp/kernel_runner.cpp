// Kernelwright's kernel runner: hosts one kernel (the candidate, the reference
// or a baseline) in a process of its own, for the judge (judge_main.cpp).
//
//   runner SO [--threads] [--no-seccomp] [--cupti] [--own-code]
//
// Fd 3 is the judge's socket (judge_protocol.h). Before the kernel's library
// is loaded, the runner installs its seccomp filter (runner_seccomp.h), so
// the library's constructors are confined too. It then maps the cases the
// judge sends (inputs read-only: sealed memfds opened read-only; outputs
// shared), calls the kernel when told and answers Done. Everything in this
// process is the candidate's to change; the judge trusts none of it: it keeps
// the clock, freezes this process between calls, and reads the outputs itself.
// --no-seccomp is for the profiling run under valgrind only, which cannot
// host a filter; that run never decides a verdict.
//
// Built with -DKW_CUDA, the kernel is a launcher taking device pointers: the
// runner makes its CUDA context before the filter (the driver opens its
// device files then), maps the judge's device allocations from the file
// descriptors it sends (CUDA's virtual memory management), and
// ends every call with a device-wide synchronize, so work on any stream of
// the kernel's is inside the judge's clock and its errors are reported.
// Built also with -DKW_CUPTI and started with --cupti (the candidate's runner),
// it registers CUPTI's activity buffers before the filter and serves Profile:
// one call traced, each kernel, copy and memset reported with its duration.
// --own-code (a problem that takes the candidate's own code only): once the
// library is loaded, a second filter forbids executable memory
// (ksseccomp::forbidNewCode); the judge checks what the loading mapped.
#include "judge_protocol.h"
#include "runner_alloc_guard.h"
#include "runner_seccomp.h"

#include <dlfcn.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <new>
#include <string>

#ifdef KW_CUDA
#include <cuda_runtime_api.h>

#include <type_traits>

#include "driver_api.h"
#endif
#if defined(KW_CUDA) && defined(KW_CUPTI)
#include <cupti.h>

#include <cstdlib>
#include <vector>
#endif

#include "runner_call.inc" // KW_FUNCTION, KW_PROTOTYPE, kw_runner_invoke(fn, data, sizes)

namespace {

using namespace ksproto;

struct MappedCase {
    bool used = false;
    uint32_t id = 0;
    uint32_t buffers = 0;
    int64_t sizes[kMaxSizes] = {};
    unsigned char* data[kMaxBuffers] = {};
    void* map[kMaxBuffers] = {};
    size_t mapBytes[kMaxBuffers] = {};
    BufferDesc desc[kMaxBuffers];
#ifdef KW_CUDA
    CUmemGenericAllocationHandle devHandle[kMaxBuffers] = {};
#endif
};

constexpr int kMaxCases = 256;
#ifdef KW_CUDA
KwDriverApi gDriver;
#endif
MappedCase gCases[kMaxCases];

void sendShort(uint32_t type, uint32_t seq, uint32_t status, const char* text) {
    ShortMsg m{};
    m.type = type;
    m.seq = seq;
    m.status = status;
    if (text) std::snprintf(m.text, sizeof m.text, "%s", text);
    (void)!send(kSocketFd, &m, sizeof m, MSG_NOSIGNAL);
}

// A write into a read-only input faults here: say which input, then die.
void onSegv(int sig, siginfo_t* info, void*) {
    const auto* addr = static_cast<const unsigned char*>(info ? info->si_addr : nullptr);
    for (const auto& c : gCases) {
        if (!c.used) continue;
        for (uint32_t b = 0; b < c.buffers; ++b) {
            const auto* begin = static_cast<const unsigned char*>(c.map[b]);
            if (!c.desc[b].output && addr >= begin && addr < begin + c.mapBytes[b]) {
                ShortMsg m{};
                m.type = Fault;
                m.status = 1;
                std::memcpy(m.text, "input-write ", 12);
                std::memcpy(m.text + 12, c.desc[b].name, sizeof c.desc[b].name);
                (void)!send(kSocketFd, &m, sizeof m, MSG_NOSIGNAL);
                _exit(86);
            }
        }
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

MappedCase* findCase(uint32_t id) {
    for (auto& c : gCases)
        if (c.used && c.id == id) return &c;
    return nullptr;
}

void unmapCase(MappedCase& c) {
    for (uint32_t b = 0; b < c.buffers; ++b) {
#ifdef KW_CUDA
        const auto ptr = reinterpret_cast<CUdeviceptr>(c.data[b]);
        if (ptr) {
            gDriver.unmap(ptr, c.mapBytes[b]);
            gDriver.addressFree(ptr, c.mapBytes[b]);
        }
        if (c.devHandle[b]) gDriver.release(c.devHandle[b]);
#else
        if (c.map[b]) munmap(c.map[b], c.mapBytes[b] + static_cast<size_t>(sysconf(_SC_PAGESIZE)));
#endif
    }
    c = MappedCase{};
}

#ifdef KW_CUDA
void* gNopBuffer = nullptr; // what an empty call touches

// Device buffers: the judge's allocations, mapped from the descriptors it sent.
const char* mapDeviceCase(const MapMsg& m, const int* fds, int fdCount, MappedCase& slot) {
    static char why[200];
    int device = 0;
    cudaGetDevice(&device);
    CUmemAccessDesc access{};
    access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    access.location.id = device;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    const char* failed = nullptr;
    CUresult r = CUDA_SUCCESS;
    for (uint32_t b = 0; b < m.buffers && !failed; ++b) {
        const BufferDesc& d = m.buffer[b];
        slot.desc[b] = d;
        CUdeviceptr ptr = 0;
        if ((r = gDriver.importHandle(&slot.devHandle[b], reinterpret_cast<void*>(static_cast<uintptr_t>(fds[b])),
                                      CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)) != CUDA_SUCCESS)
            failed = "cuMemImportFromShareableHandle";
        else if ((r = gDriver.reserve(&ptr, d.mapBytes, 0, 0, 0)) != CUDA_SUCCESS)
            failed = "cuMemAddressReserve";
        else if ((r = gDriver.map(ptr, d.mapBytes, 0, slot.devHandle[b], 0)) != CUDA_SUCCESS)
            failed = "cuMemMap";
        else if ((r = gDriver.setAccess(ptr, d.mapBytes, &access, 1)) != CUDA_SUCCESS)
            failed = "cuMemSetAccess";
        if (ptr) {
            slot.data[b] = reinterpret_cast<unsigned char*>(ptr);
            slot.mapBytes[b] = d.mapBytes;
        }
    }
    for (int i = 0; i < fdCount; ++i) close(fds[i]);
    if (!failed) return "";
    std::snprintf(why, sizeof why, "cannot map the judge's device buffers (%s: %s)", failed, gDriver.errorName(r));
    return why;
}

// After the calls: launch errors, and the device's own (an illegal address).
uint32_t finishDeviceWork(char* text, size_t size) {
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e == cudaSuccess) return CallOk;
    std::snprintf(text, size, "%s (%s)", cudaGetErrorName(e), cudaGetErrorString(e));
    return CallDeviceError;
}
#endif

// One call of the kernel on `c`: its status (on the device, after its work
// is done, with the error's text in `text`).
uint32_t invokeOnce(void* fn, MappedCase& c, char* text, size_t size) {
    uint32_t status = CallOk;
    try {
        kw_runner_invoke(fn, c.data, c.sizes);
    } catch (const std::bad_alloc&) {
        status = CallOutOfMemory;
    } catch (...) {
        status = CallException;
    }
#ifdef KW_CUDA
    if (status == CallOk) status = finishDeviceWork(text, size);
#else
    (void)text;
    (void)size;
#endif
    return status;
}

#if defined(KW_CUDA) && defined(KW_CUPTI)
// CUPTI's activity records of one traced call. The record structs are the
// newest this toolkit's header defines (run.sh names them: KW_CUPTI_KERNEL,
// KW_CUPTI_MEMCPY, KW_CUPTI_MEMSET), which is what its library writes.
struct Activity {
    uint32_t kind; // 0 kernel, 1 copy, 2 memset
    uint64_t ns;
    std::string name;
};
std::vector<Activity> gActivity;
char gCuptiWhy[160] = "this runner was not started with --cupti";

void CUPTIAPI cuptiBufferRequested(uint8_t** buffer, size_t* size, size_t* maxRecords) {
    *size = size_t(1) << 20;
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, *size));
    *maxRecords = 0;
}

const char* copyKindName(uint32_t kind) {
    switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
        return "memcpy HtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
        return "memcpy DtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
        return "memcpy DtoD";
    default:
        return "memcpy";
    }
}

void CUPTIAPI cuptiBufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
    CUpti_Activity* record = nullptr;
    while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
        if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || record->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
            const auto* k = reinterpret_cast<const KW_CUPTI_KERNEL*>(record);
            gActivity.push_back({0, k->end - k->start, k->name ? k->name : "(unnamed kernel)"});
        } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
            const auto* m = reinterpret_cast<const KW_CUPTI_MEMCPY*>(record);
            gActivity.push_back({1, m->end - m->start, copyKindName(m->copyKind)});
        } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
            const auto* m = reinterpret_cast<const KW_CUPTI_MEMSET*>(record);
            gActivity.push_back({2, m->end - m->start, "memset"});
        }
    }
    std::free(buffer);
}

bool cuptiFailed(CUptiResult r, const char* what) {
    if (r == CUPTI_SUCCESS) return false;
    const char* text = nullptr;
    cuptiGetResultString(r, &text);
    std::snprintf(gCuptiWhy, sizeof gCuptiWhy, "CUPTI refused (%s: %s)", what, text ? text : "unknown error");
    return true;
}

// Before the filter: CUPTI may open files and start a thread of its own.
bool cuptiPrepare() {
    return !cuptiFailed(cuptiActivityRegisterCallbacks(cuptiBufferRequested, cuptiBufferCompleted),
                        "cuptiActivityRegisterCallbacks");
}

const CUpti_ActivityKind kTraced[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                      CUPTI_ACTIVITY_KIND_MEMSET};
#endif

// One call of the kernel on `c` under CUPTI's tracing: a Profiled per
// activity, then Done (CallUnavailable when there is no tracing here).
void profileCall(void* fn, const CallMsg& m, bool cupti) {
    if (m.count != 1) {
        sendShort(Done, m.seq, CallBadCase, "");
        return;
    }
    MappedCase* c = findCase(m.caseId[0]);
    if (!c) {
        sendShort(Done, m.seq, CallBadCase, "");
        return;
    }
#if defined(KW_CUDA) && defined(KW_CUPTI)
    if (!cupti) {
        sendShort(Done, m.seq, CallUnavailable, gCuptiWhy);
        return;
    }
    gActivity.clear();
    for (CUpti_ActivityKind kind : kTraced)
        if (cuptiFailed(cuptiActivityEnable(kind), "cuptiActivityEnable")) {
            sendShort(Done, m.seq, CallUnavailable, gCuptiWhy);
            return;
        }
    char text[sizeof(ShortMsg::text)] = "";
    const uint32_t status = invokeOnce(fn, *c, text, sizeof text);
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    for (CUpti_ActivityKind kind : kTraced) cuptiActivityDisable(kind);
    for (const Activity& a : gActivity) {
        char line[sizeof(ShortMsg::text)];
        std::snprintf(line, sizeof line, "%llu %s", static_cast<unsigned long long>(a.ns), a.name.c_str());
        sendShort(Profiled, m.seq, a.kind, line);
    }
    sendShort(Done, m.seq, status, text);
#else
    (void)fn;
    (void)cupti;
    sendShort(Done, m.seq, CallUnavailable,
              "the kernel runner was built without CUPTI (no cupti.h and libcupti.so under the CUDA toolkit that built it)");
#endif
}

// Maps each buffer with a PROT_NONE page after it, so that running off the
// end of an argument faults at once.
const char* mapCase(const MapMsg& m, const int* fds, int fdCount) {
    if (m.buffers > kMaxBuffers || m.sizeCount > kMaxSizes || static_cast<int>(m.buffers) != fdCount)
        return "malformed map message";
    MappedCase* slot = nullptr;
    for (auto& c : gCases)
        if (!c.used) {
            slot = &c;
            break;
        }
    if (!slot) return "too many cases mapped";
    slot->used = true;
    slot->id = m.caseId;
    slot->buffers = m.buffers;
    std::memcpy(slot->sizes, m.sizes, sizeof m.sizes);
#ifdef KW_CUDA
    return mapDeviceCase(m, fds, fdCount, *slot);
#else
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    for (uint32_t b = 0; b < m.buffers; ++b) {
        const BufferDesc& d = m.buffer[b];
        slot->desc[b] = d;
        void* reserve = mmap(nullptr, d.mapBytes + page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (reserve == MAP_FAILED) return "cannot reserve address space for a buffer";
        slot->map[b] = reserve;
        slot->mapBytes[b] = d.mapBytes;
        if (d.mapBytes > 0) {
            const int prot = d.output ? PROT_READ | PROT_WRITE : PROT_READ;
            if (mmap(reserve, d.mapBytes, prot, MAP_SHARED | MAP_FIXED | MAP_POPULATE, fds[b], 0) == MAP_FAILED)
                return "cannot map a buffer the judge sent";
        }
        slot->data[b] = static_cast<unsigned char*>(reserve) + d.offset;
        close(fds[b]);
    }
    return "";
#endif
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: runner SO [--threads] [--no-seccomp]\n");
        return 2;
    }
    bool threads = false, seccomp = true, cupti = false, ownCode = false;
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], "--threads") == 0) threads = true;
        if (std::strcmp(argv[i], "--no-seccomp") == 0) seccomp = false;
        if (std::strcmp(argv[i], "--cupti") == 0) cupti = true;
        if (std::strcmp(argv[i], "--own-code") == 0) ownCode = true;
    }
    static char altStack[1 << 16];
    stack_t ss{};
    ss.ss_sp = altStack;
    ss.ss_size = sizeof altStack;
    sigaltstack(&ss, nullptr);
    struct sigaction sa {};
    sa.sa_sigaction = onSegv;
    sa.sa_flags = SA_ONSTACK | SA_SIGINFO;
    sigaction(SIGSEGV, &sa, nullptr);

#ifdef KW_CUDA
    // The context first: the driver opens its device files for writing, which
    // the filter forbids from then on.
    if (cudaSetDevice(0) != cudaSuccess || cudaFree(nullptr) != cudaSuccess ||
        cudaMalloc(&gNopBuffer, sizeof(int)) != cudaSuccess) {
        const std::string why =
            std::string("no usable CUDA device for the kernel runner: ") + cudaGetErrorName(cudaGetLastError());
        sendShort(Confined, 0, 1, why.c_str());
        return 3;
    }
    if (const char* why = gDriver.load(); *why) {
        sendShort(Confined, 0, 1, why);
        return 3;
    }
    threads = true; // the CUDA runtime starts threads of its own
#ifdef KW_CUPTI
    if (cupti) cupti = cuptiPrepare(); // refused: Profile answers why, the runner still serves calls
#endif
#endif
    if (seccomp) {
        if (const char* why = ksseccomp::install(threads, static_cast<uint32_t>(getpid())); *why) {
            sendShort(Confined, 0, 1, why);
            return 3;
        }
    }
    sendShort(Confined, 0, 0, "");
    void* handle = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        sendShort(Hello, 0, 2, dlerror());
        return 3;
    }
    void* fn = dlsym(handle, KW_FUNCTION);
    if (!fn) {
        const std::string why =
            std::string("does not define the kernel `") + KW_FUNCTION + "` with C linkage; define exactly: " + KW_PROTOTYPE;
        sendShort(Hello, 0, 3, why.c_str());
        return 3;
    }
    if (seccomp && ownCode) {
        if (const char* why = ksseccomp::forbidNewCode(); *why) {
            sendShort(Hello, 0, 4, why);
            return 3;
        }
    }
    sendShort(Hello, 0, 0, "");

    static MapMsg msg; // the largest message
    for (;;) {
        int fds[kMaxBuffers];
        int fdCount = 0;
        alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxBuffers)];
        iovec iov{&msg, sizeof msg};
        msghdr h{};
        h.msg_iov = &iov;
        h.msg_iovlen = 1;
        h.msg_control = control;
        h.msg_controllen = sizeof control;
        const ssize_t n = recvmsg(kSocketFd, &h, MSG_CMSG_CLOEXEC);
        if (n <= 0) _exit(0); // the judge is gone
        for (cmsghdr* c = CMSG_FIRSTHDR(&h); c; c = CMSG_NXTHDR(&h, c))
            if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
                const int got = static_cast<int>((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
                for (int i = 0; i < got && fdCount < static_cast<int>(kMaxBuffers); ++i)
                    std::memcpy(&fds[fdCount++], CMSG_DATA(c) + i * sizeof(int), sizeof(int));
            }
        const uint32_t type = msg.type;
        if (type == Map) {
            const char* why = mapCase(msg, fds, fdCount);
            sendShort(Mapped, msg.caseId, *why ? 1 : 0, why);
        } else if (type == Unmap) {
            const auto& m = reinterpret_cast<const ShortMsg&>(msg);
            if (MappedCase* c = findCase(m.seq)) unmapCase(*c);
        } else if (type == Nop) {
#ifdef KW_CUDA
            // An empty call: device work of this runner's own, so that the GPU
            // switches contexts as for a real call.
            cudaMemsetAsync(gNopBuffer, 0, sizeof(int));
            cudaDeviceSynchronize();
#endif
            sendShort(Done, reinterpret_cast<const ShortMsg&>(msg).seq, CallOk, "");
        } else if (type == Profile) {
            profileCall(fn, reinterpret_cast<const CallMsg&>(msg), cupti);
        } else if (type == Call) {
            const auto& m = reinterpret_cast<const CallMsg&>(msg);
            uint32_t status = CallOk;
            char text[sizeof(ShortMsg::text)] = "";
            for (uint32_t i = 0; i < m.count && i < kMaxBatch && status == CallOk; ++i) {
                MappedCase* c = findCase(m.caseId[i]);
                if (!c) {
                    status = CallBadCase;
                    break;
                }
                status = invokeOnce(fn, *c, text, sizeof text);
            }
            sendShort(Done, m.seq, status, text);
        }
    }
}
