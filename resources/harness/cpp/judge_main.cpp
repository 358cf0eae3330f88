// Kernelsmith's judge for C++ candidates.
//
// The judge draws every input from a secret seed it takes from the kernel at
// start (never written anywhere a candidate can read before the verdict),
// computes the expected outputs with the reference, compares, keeps the clock
// and writes result.json. Kernels never run in its process: the reference,
// each baseline and the candidate each live in a kernel runner of their own
// (kernel_runner.cpp), confined by a seccomp filter, fed through shared memory
// (inputs as sealed memfds the runner can only map read-only, outputs as
// shared mappings the judge reads), and frozen (SIGSTOP) whenever they are
// not being called. The judge is not dumpable, so a runner cannot read or
// write its memory through /proc.
//
// Timing: the judge's clock runs from sending "call" to receiving "done";
// then the runner is frozen before its outputs are read, so nothing of it
// runs after a call returns or while another kernel is timed. Each timing
// shape gets a pool of input sets at distinct addresses; every warm-up and
// timed call takes the next set in a shuffled rotation (never the set of the
// call before), and every timed output is checked against that set's answer.
// The hand-off (a call that does nothing) is measured and reported; kernels
// shorter than a few hand-offs are called in batches over distinct sets.
//
// Built with -DKS_CUDA (the cuda backend), kernels are launchers taking device
// pointers: every buffer also has a device mirror the judge allocates and
// hands to runners through CUDA IPC (device_mirror.h). The judge uploads
// inputs when their contents change and poisoned outputs before each call,
// flushes the L2 before timed calls, and after each call (the runner ends it
// with a device-wide synchronize) brings the outputs back, compares every
// input with a device copy no runner holds, and checks each mirror's red zone.
//
//   harness run [--counters] [--cachegrind SO WRAPPER...]
//   harness compile-failed LOG
//   harness problem-failed WHAT LOG
//
// Anything the judge cannot finish (it is killed, it crashes) leaves no
// result.json: run.sh removes it unless the judge exited 0, and Kernelsmith
// classifies the crash from build/phase and build/run.err.
#include "harness_common.h"
#include "judge_protocol.h"
#ifdef KS_CUDA
#include "device_mirror.h"
#endif

#include <dirent.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <map>
#include <memory>
#include <random>

namespace {

// ---------------------------------------------------------------- buffers ---
// A buffer is a memfd: the judge maps it read-write; runners get inputs
// sealed against writing and reopened read-only, outputs shared.
struct Buffer {
    std::string name;
    DT dt = DT::F32;
    size_t count = 0;
    bool output = false;
    int fd = -1;
    void* map = nullptr;
    size_t mapBytes = 0, offset = 0, dataBytes = 0;
    unsigned char* data = nullptr;
    void* dev = nullptr;      // KS_CUDA: the device mirror runners get
    void* pristine = nullptr; // KS_CUDA: an input's device copy no runner holds
    int devFd = -1;           // KS_CUDA: the shareable handle of `dev`, for runners
    size_t devMapBytes = 0;   // KS_CUDA: the size of that allocation
    template <typename T> T* as() { return reinterpret_cast<T*>(data); }
};

std::string bytesText(double b) {
    char buf[64];
    const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int u = 0;
    while (b >= 1024 && u < 6) {
        b /= 1024;
        ++u;
    }
    std::snprintf(buf, sizeof buf, u ? "%.1f %s" : "%.0f %s", b, units[u]);
    return buf;
}

struct Case {
    std::vector<int64_t> sizes;
    std::vector<Buffer> buffers;
    std::string allocError; // set when a buffer could not be made; the case is unusable
    Case() { buffers.reserve(ksproto::kMaxBuffers); }
    Case(const Case&) = delete;
    Case& operator=(const Case&) = delete;
    ~Case() {
        for (auto& b : buffers) {
            if (b.map) munmap(b.map, b.mapBytes);
            if (b.fd >= 0) close(b.fd);
#ifdef KS_CUDA
            ksDevFree(b.dev);
            ksDevFree(b.pristine);
            if (b.devFd >= 0) close(b.devFd);
#endif
        }
    }
    Buffer& add(const char* name, DT dt, int64_t count, bool output) {
        Buffer b;
        b.name = name;
        b.dt = dt;
        b.output = output;
        const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
        const uint64_t n = count > 0 ? static_cast<uint64_t>(count) : 0;
        if (!allocError.empty() || buffers.size() >= ksproto::kMaxBuffers) {
            if (allocError.empty()) allocError = "more arguments than the judge supports";
            buffers.push_back(b);
            return buffers.back();
        }
        if (n > (UINT64_MAX - 2 * page) / dtSize(dt)) {
            allocError = std::string("argument ") + name + " would have more bytes than an address space holds";
            buffers.push_back(b);
            return buffers.back();
        }
        b.count = static_cast<size_t>(n);
        b.dataBytes = b.count * dtSize(dt);
        const size_t rounded = (b.dataBytes + 63) / 64 * 64;
        b.mapBytes = (rounded + page - 1) / page * page;
        b.offset = b.mapBytes - rounded; // the data ends at the end of the mapping: a guard page follows in runners
        std::string why;
        b.fd = static_cast<int>(syscall(SYS_memfd_create, name, MFD_CLOEXEC | MFD_ALLOW_SEALING));
        if (b.fd < 0)
            why = std::string("memfd_create: ") + std::strerror(errno);
        else if (b.mapBytes > 0 && ftruncate(b.fd, static_cast<off_t>(b.mapBytes)) != 0)
            why = std::string("ftruncate: ") + std::strerror(errno);
        else if (b.mapBytes > 0 && fallocate(b.fd, 0, 0, static_cast<off_t>(b.mapBytes)) != 0)
            why = std::strerror(errno);
        else if (b.mapBytes > 0 &&
                 (b.map = mmap(nullptr, b.mapBytes, PROT_READ | PROT_WRITE, MAP_SHARED, b.fd, 0)) == MAP_FAILED) {
            b.map = nullptr;
            why = std::string("mmap: ") + std::strerror(errno);
        }
        if (!why.empty()) {
            allocError =
                "cannot allocate " + bytesText(static_cast<double>(b.mapBytes)) + " for argument " + name + " (" + why + ")";
            if (b.fd >= 0) close(b.fd);
            b = Buffer{};
            b.name = name;
            buffers.push_back(b);
            return buffers.back();
        }
        b.data = b.map ? static_cast<unsigned char*>(b.map) + b.offset : reinterpret_cast<unsigned char*>(&b.offset);
        buffers.push_back(b);
        return buffers.back();
    }
    Buffer* find(const char* name) {
        for (auto& b : buffers)
            if (b.name == name) return &b;
        return nullptr;
    }
    size_t totalBytes() const {
        size_t t = 0;
        for (const auto& b : buffers) t += b.mapBytes;
        return t;
    }
};

} // namespace

// The generated, problem-specific part: KS_* constants, ks_build_case,
// ks_bytes, ks_flops, ks_size_json, ks_case_bytes (a shape's bytes before
// anything is allocated). The kernels' call is in runner_call.inc.
#define KS_DATA(b) ((b).data)
#ifdef KS_CUDA
#define KS_CACHE_EVICTION "l2flush"
#else
#define KS_CACHE_EVICTION "clflush"
#endif
#define KS_JUDGE 1
#include "harness_problem.inc"

namespace {

// ------------------------------------------------------------ the result ---
struct Json {
    std::string status = "ok";
    std::string message;
    std::vector<std::string> checks;
    std::vector<std::string> timings;
    double speedup = 0;
    bool implausible = false;
    double checkSeconds = 0, timeSeconds = 0, kernelSeconds = 0, setupSeconds = 0;
    double flushSeconds = 0, poisonSeconds = 0, verifySeconds = 0, freezeSeconds = 0;
    double lockWaitSeconds = 0, refreshSeconds = 0;
    double handoffSeconds = 0;
    std::string seccomp = "on";
    uint64_t secret = 0;
    bool secretGiven = false;
    bool fail(const std::string& status, const std::string& message) {
        if (this->status == "ok") {
            this->status = status;
            this->message = message;
        }
        return false;
    }
    bool ok() const { return status == "ok"; }
};

std::string envJson(const Json& r) {
    return std::string("{\"host\":") + q(hostName()) + ",\"cpu\":" + q(cpuModel()) +
           ",\"cores\":" + std::to_string(sysconf(_SC_NPROCESSORS_ONLN)) + ",\"compiler\":" + q(__VERSION__) +
           ",\"flags\":" + q(KS_COMPILE_FLAGS) +
#ifdef KS_CUDA
           ",\"gpu\":" + q(ksDevName()) +
#endif
           ",\"isolation\":{\"processes\":true,\"seccomp\":" + q(r.seccomp) +
           ",\"input_seed\":" + q(r.secretGiven ? "given" : "secret") + "}}";
}

void writeResult(const Json& r, const std::string& buildLog) {
    std::string out = "{\n\"schema\":1,\n\"status\":" + q(r.status) + ",\n\"message\":" + q(r.message) + ",\n";
    out += "\"problem\":" + q(KS_PROBLEM) + ",\n\"speedup\":" + (r.speedup > 0 ? num(r.speedup) : std::string("null")) + ",\n";
    out += "\"implausible_speedup\":" + std::string(r.implausible ? "true" : "false") + ",\n";
    out += "\"build_log\":" + q(buildLog) + ",\n\"checks\":[";
    for (size_t i = 0; i < r.checks.size(); ++i) out += (i ? ",\n" : "\n") + r.checks[i];
    out += "],\n\"timing\":[";
    for (size_t i = 0; i < r.timings.size(); ++i) out += (i ? ",\n" : "\n") + r.timings[i];
    out += "],\n\"phase_seconds\":{\"setup\":" + num(r.setupSeconds) + ",\"check\":" + num(r.checkSeconds) +
           ",\"time\":" + num(r.timeSeconds) + ",\"kernel\":" + num(r.kernelSeconds) + ",\"flush\":" + num(r.flushSeconds) +
           ",\"poison\":" + num(r.poisonSeconds) + ",\"verify\":" + num(r.verifySeconds) + ",\"freeze\":" + num(r.freezeSeconds) +
           ",\"refresh\":" + num(r.refreshSeconds) + ",\"timing_lock_wait\":" + num(r.lockWaitSeconds) + "},\n";
    out += "\"handoff_seconds\":" + num(r.handoffSeconds) + ",\n";
    // Told only now that every candidate process is gone: it reproduces the inputs.
    out += "\"input_secret\":\"" + std::to_string(r.secret) + "\",\n";
    out += "\"env\":" + envJson(r) + "\n}\n";
    FILE* f = std::fopen("result.json.tmp", "w");
    if (!f) {
        std::perror("result.json");
        std::exit(3);
    }
    std::fwrite(out.data(), 1, out.size(), f);
    std::fclose(f);
    std::rename("result.json.tmp", "result.json");
}

void setPhase(const char* phase) {
    if (FILE* f = std::fopen("build/phase", "w")) {
        std::fputs(phase, f);
        std::fclose(f);
    }
}

// ---------------------------------------------------------------- runners ---
using namespace ksproto;

struct Runner {
    std::string name; // "reference", a baseline's name, "candidate"
    bool candidate = false;
    pid_t pid = -1;
    int sock = -1, err = -1;
    bool frozen = false, dead = false;
    int waitStatus = 0;
    bool killedByJudge = false;
    std::string stderrHead, stderrTail; // capped while being drained
    size_t stderrBytes = 0;
    std::string fault; // the runner's own last words (Fault)
    uint32_t seq = 0;
    std::map<uint32_t, bool> mapped; // case ids it holds
};

constexpr size_t kStderrHead = 4096, kStderrTail = 12288;

void drainStderr(Runner& r) {
    if (r.err < 0) return;
    char buf[4096];
    for (;;) {
        const ssize_t n = read(r.err, buf, sizeof buf);
        if (n <= 0) {
            if (n == 0) {
                close(r.err);
                r.err = -1;
            }
            return;
        }
        r.stderrBytes += static_cast<size_t>(n);
        size_t used = 0;
        if (r.stderrHead.size() < kStderrHead) {
            used = std::min(static_cast<size_t>(n), kStderrHead - r.stderrHead.size());
            r.stderrHead.append(buf, used);
        }
        r.stderrTail.append(buf + used, static_cast<size_t>(n) - used);
        if (r.stderrTail.size() > 2 * kStderrTail) r.stderrTail.erase(0, r.stderrTail.size() - kStderrTail);
    }
}

std::string stderrText(const Runner& r) {
    std::string tail = r.stderrTail.size() > kStderrTail ? r.stderrTail.substr(r.stderrTail.size() - kStderrTail) : r.stderrTail;
    const size_t shown = r.stderrHead.size() + tail.size();
    return r.stderrHead + (r.stderrBytes > shown ? "\n[... " + std::to_string(r.stderrBytes - shown) + " bytes cut ...]\n" : "") +
           tail;
}

bool threadsAllowedFor(const Runner& r) {
    if (!r.candidate) return true; // the problem's own code (OpenBLAS starts threads)
    const std::string flags = KS_COMPILE_FLAGS;
    return flags.find("-fopenmp") != std::string::npos || flags.find("-pthread") != std::string::npos;
}

// Only what kernels' runtimes read reaches a runner; the judge's own settings
// (the timing lock's descriptor, the executor's variables) do not.
std::vector<std::string> runnerEnvironment() {
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) {
        const std::string v = *e;
        for (const char* prefix :
             {"OMP_", "GOMP_", "KMP_", "OPENBLAS_", "MKL_", "CUDA_", "NVIDIA_", "LD_LIBRARY_PATH=", "PATH=", "LANG=", "LC_ALL="})
            if (v.rfind(prefix, 0) == 0) {
                env.push_back(v);
                break;
            }
    }
    return env;
}

void reap(Runner& r, bool wait) {
    if (r.dead || r.pid <= 0) return;
    int st = 0;
    const pid_t got = waitpid(r.pid, &st, wait ? 0 : WNOHANG);
    if (got == r.pid && (WIFEXITED(st) || WIFSIGNALED(st))) {
        r.dead = true;
        r.waitStatus = st;
    }
}

void killRunner(Runner& r) {
    if (r.pid > 0 && !r.dead) {
        r.killedByJudge = true;
        kill(r.pid, SIGKILL);
        kill(r.pid, SIGCONT);
        reap(r, true);
    }
    drainStderr(r);
    if (r.sock >= 0) close(r.sock);
    if (r.err >= 0) close(r.err);
    r.sock = r.err = -1;
}

// Waits for the runner's next message of `type` (with `seq` for Done);
// false on timeout (0 left in *timedOut = 1) or when the runner died.
bool receive(Runner& r, uint32_t type, uint32_t seq, double timeoutS, ShortMsg& out, bool* timedOut) {
    *timedOut = false;
    const double deadline = now() + timeoutS;
    for (;;) {
        pollfd p[2] = {{r.sock, POLLIN, 0}, {r.err, POLLIN, 0}};
        const double left = deadline - now();
        if (left <= 0) {
            *timedOut = true;
            return false;
        }
        const int ms = static_cast<int>(std::min(left * 1000.0 + 1, 1000.0));
        const int n = poll(p, r.err >= 0 ? 2 : 1, ms);
        if (n < 0 && errno != EINTR) return false;
        if (r.err >= 0 && (p[1].revents & (POLLIN | POLLHUP))) drainStderr(r);
        if (p[0].revents & POLLIN) {
            ShortMsg m{};
            const ssize_t got = recv(r.sock, &m, sizeof m, MSG_DONTWAIT);
            if (got == static_cast<ssize_t>(sizeof m)) {
                if (m.type == Fault) {
                    m.text[sizeof m.text - 1] = 0;
                    r.fault = m.text;
                    continue;
                }
                if (m.type == type && (type != Done || m.seq == seq)) {
                    out = m;
                    return true;
                }
                continue; // stale or forged: ignored
            }
            if (got == 0) break; // the runner closed its end
            if (got < 0 && errno != EAGAIN && errno != EINTR) break;
            continue;
        }
        if (p[0].revents & (POLLHUP | POLLERR)) break;
    }
    // Gone, or it closed the socket and lingers: give it a moment, then end it.
    for (int i = 0; i < 20 && !r.dead; ++i) {
        reap(r, false);
        if (!r.dead) usleep(5000);
    }
    if (!r.dead) killRunner(r);
    drainStderr(r);
    return false;
}

bool freeze(Runner& r, Json& res) {
    if (r.dead || r.frozen) return !r.dead;
    const double t0 = now();
    kill(r.pid, SIGSTOP);
    int st = 0;
    for (;;) {
        const pid_t got = waitpid(r.pid, &st, WUNTRACED);
        if (got < 0 && errno == EINTR) continue;
        if (got == r.pid && WIFSTOPPED(st)) break;
        if (got == r.pid && (WIFEXITED(st) || WIFSIGNALED(st))) {
            r.dead = true;
            r.waitStatus = st;
            return false;
        }
        if (got < 0) return false;
    }
    r.frozen = true;
    res.freezeSeconds += now() - t0;
    return true;
}

void thaw(Runner& r) {
    if (r.frozen && !r.dead) kill(r.pid, SIGCONT);
    r.frozen = false;
}

const char* runnerPath() {
    return "build/runner";
}

// Starts a runner for `so`; "" or why it could not even start.
std::string spawn(Runner& r, const std::string& so, const std::vector<std::string>& wrapper = {}, bool seccomp = true) {
    int sv[2], ep[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) return std::string("socketpair: ") + std::strerror(errno);
    if (pipe2(ep, O_CLOEXEC) != 0) return std::string("pipe: ") + std::strerror(errno);
    std::vector<std::string> args = wrapper;
    args.push_back(runnerPath());
    args.push_back(so);
    if (threadsAllowedFor(r)) args.push_back("--threads");
    if (!seccomp) args.push_back("--no-seccomp");
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<std::string> envs = runnerEnvironment();
    std::vector<char*> envp;
    for (auto& e : envs) envp.push_back(e.data());
    envp.push_back(nullptr);
    const pid_t pid = fork();
    if (pid < 0) return std::string("fork: ") + std::strerror(errno);
    if (pid == 0) {
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        const int devnull = open("/dev/null", O_RDONLY);
        dup2(devnull, 0);
        dup2(ep[1], 1);
        dup2(ep[1], 2);
        dup2(sv[1], kSocketFd);
        // Nothing else of the judge's reaches the runner: the timing lock, the
        // other runners' sockets, the case memfds.
        syscall(SYS_close_range, kSocketFd + 1, ~0u, 0);
        execvpe(argv[0], argv.data(), envp.data());
        _exit(127);
    }
    close(sv[1]);
    close(ep[1]);
    fcntl(ep[0], F_SETFL, O_NONBLOCK);
    r.pid = pid;
    r.sock = sv[0];
    r.err = ep[0];
    r.frozen = r.dead = false;
    return "";
}

// How a runner's death reads, for a message: "crashed (segmentation fault)".
std::string deathText(const Runner& r) {
    if (!r.dead) return "stopped answering the judge";
    if (WIFEXITED(r.waitStatus))
        return "exited with status " + std::to_string(WEXITSTATUS(r.waitStatus)) + " (it may not leave the process)";
    const int sig = WTERMSIG(r.waitStatus);
    switch (sig) {
    case SIGSEGV:
        return "crashed (segmentation fault)";
    case SIGBUS:
        return "crashed (bus error)";
    case SIGFPE:
        return "crashed (arithmetic exception)";
    case SIGILL:
        return "crashed (illegal instruction)";
    case SIGABRT:
        return "aborted";
    case SIGSYS:
        return "made a system call a kernel may not make (process creation, networking, writing files, tracing or signalling "
               "another process) and was stopped by the sandbox";
    case SIGXCPU:
        return "ran out of CPU time";
    case SIGKILL:
        return r.killedByJudge ? "was stopped by the judge" : "was killed (out of memory or a resource limit)";
    default:
        return "died of signal " + std::to_string(sig);
    }
}

// The verdict for a kernel that failed: the candidate's failures are its own,
// the problem's code failing is never the candidate's fault.
// The candidate's runner, once started: when one of the problem's kernels
// runs out of memory, the candidate may be the one holding it (frozen).
const Runner* gCandidate = nullptr;

// Resident and swapped bytes of a live process (0 when unknown).
size_t residentBytes(pid_t pid) {
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/status", static_cast<int>(pid));
    FILE* f = std::fopen(path, "r");
    if (!f) return 0;
    char line[256];
    size_t kb = 0;
    while (std::fgets(line, sizeof line, f)) {
        unsigned long v = 0;
        if (std::sscanf(line, "VmRSS: %lu kB", &v) == 1 || std::sscanf(line, "VmSwap: %lu kB", &v) == 1) kb += v;
    }
    std::fclose(f);
    return kb * 1024;
}

bool failRunner(Json& res, const Runner& r, const std::string& what, const std::string& where, bool timedOut, double limitS) {
    const std::string err = stderrText(r);
    if (!r.candidate) {
        // Out of memory while the candidate's runner holds a great deal of it:
        // the candidate starved the problem's kernel, and is charged for it.
        const bool outOfMemory = what == "oom" || err.find("KS-OOM") != std::string::npos ||
                                 (r.dead && WIFSIGNALED(r.waitStatus) && WTERMSIG(r.waitStatus) == SIGKILL && !r.killedByJudge);
        if (outOfMemory && gCandidate && !gCandidate->dead) {
            const size_t held = residentBytes(gCandidate->pid), own = r.dead ? 0 : residentBytes(r.pid);
            if (held >= std::max<size_t>(size_t(256) << 20, 4 * own))
                return res.fail("oom", "the candidate held " + bytesText(static_cast<double>(held)) +
                                           " of memory while the problem's " + r.name + " ran " + where +
                                           ", which then ran out of memory");
        }
        if (timedOut)
            return res.fail("infra_error", "the problem's " + r.name + " did not finish within " + num(limitS) + " s " + where +
                                               " (the problem's fault; no candidate was charged)");
        return res.fail("infra_error", "the problem's " + r.name + " " + (what.empty() ? deathText(r) : what) + " " + where +
                                           " (the problem's fault; no candidate was charged)" +
                                           (err.empty() ? "" : ": " + err.substr(0, 400)));
    }
    if (r.fault.rfind("input-write ", 0) == 0)
        return res.fail("wrong_answer",
                        "the candidate wrote into its input " + r.fault.substr(12) + " (inputs are read-only) " + where);
    if (timedOut) return res.fail("timeout", "the candidate's call exceeded its time limit of " + num(limitS) + " s " + where);
    if (err.find("KS-OOM") != std::string::npos || what == "oom")
        return res.fail("oom", "the candidate ran out of memory (could not allocate) " + where);
    if (r.dead && WIFSIGNALED(r.waitStatus) && WTERMSIG(r.waitStatus) == SIGSYS)
        return res.fail("sandbox_violation", "the candidate " + deathText(r) + " " + where);
    return res.fail("runtime_error", "the candidate " + (what.empty() ? deathText(r) : what) + " " + where);
}

bool startRunner(Json& res, Runner& r, const std::string& so, double limitS) {
    if (std::string why = spawn(r, so); !why.empty()) return res.fail("infra_error", "cannot start a kernel runner: " + why);
    ShortMsg hello{};
    bool timedOut = false;
    // The runner's own word, before any of the library's code has run: only
    // this one can say that the host cannot confine kernels.
    if (!receive(r, Confined, 0, limitS, hello, &timedOut)) {
        if (timedOut) killRunner(r);
        return failRunner(res, r, "", "before loading its library", timedOut, limitS);
    }
    hello.text[sizeof hello.text - 1] = 0;
    if (hello.status != 0)
        return res.fail("infra_error", std::string("the kernel runner cannot confine kernels on this host: ") + hello.text);
    if (!receive(r, Hello, 0, limitS, hello, &timedOut)) {
        if (timedOut) killRunner(r);
        return failRunner(res, r, "", "while loading (library constructors run then)", timedOut, limitS);
    }
    hello.text[sizeof hello.text - 1] = 0;
    if (hello.status != 0 && hello.status != 2 && hello.status != 3) {
        // Not a status the runner sends once it is confined: the library's own words.
        if (r.candidate) killRunner(r);
        return failRunner(res, r, "spoke for its kernel runner while loading (sent a message only the runner may send)",
                          "while loading", false, limitS);
    }
    if (hello.status != 0) {
        if (r.candidate) return res.fail("compile_error", "cannot load the candidate: " + std::string(hello.text));
        return res.fail("infra_error", "the problem's " + r.name + " failed to load: " + std::string(hello.text));
    }
    return freeze(r, res) || failRunner(res, r, "", "right after loading", false, limitS);
}

// ------------------------------------------------------------------ cases ---
// A case as runners see it: inputs sealed against writing and reopened
// read-only, outputs shared; `id` names it in messages.
struct SharedCase;
#ifdef KS_CUDA
std::map<uint32_t, SharedCase*> gLiveCases; // by id: a call moves its cases' buffers to and from the device
bool gL2FlushPending = false;               // flushCaches asks; the next call's preparation does it
#endif

struct SharedCase {
    uint32_t id = 0;
    Case c;
    std::vector<int> sendFds; // one per buffer, in argument order
    SharedCase() = default;
    SharedCase(const SharedCase&) = delete;
    SharedCase& operator=(const SharedCase&) = delete;
    ~SharedCase() {
        for (int fd : sendFds)
            if (fd >= 0) close(fd);
#ifdef KS_CUDA
        gLiveCases.erase(id);
#endif
    }
};

#ifdef KS_CUDA
// An input's new contents go up, and into the copy no runner holds.
std::string uploadInputs(Case& c) {
    for (auto& b : c.buffers) {
        if (b.output) continue;
        if (auto err = ksDevUpload(b.dev, b.data, b.dataBytes); !err.empty()) return err;
        if (auto err = ksDevCopy(b.pristine, b.dev, b.dataBytes); !err.empty()) return err;
    }
    return {};
}

// Device mirrors for a built case; "" or why the device cannot hold it.
std::string mirrorCase(SharedCase& sc) {
    for (auto& b : sc.c.buffers) {
        if (auto err = ksDevAllocShared(b.dataBytes, &b.dev, &b.devFd, &b.devMapBytes); !err.empty())
            return "the device cannot hold argument " + b.name + " (" + bytesText(static_cast<double>(b.dataBytes)) + "): " + err;
        if (!b.output)
            if (auto err = ksDevAlloc(b.dataBytes, &b.pristine); !err.empty())
                return "the device cannot hold a second copy of argument " + b.name + ": " + err;
    }
    // Runners get the device allocations, not the host memfds.
    for (size_t i = 0; i < sc.c.buffers.size() && i < sc.sendFds.size(); ++i) {
        if (sc.sendFds[i] >= 0) close(sc.sendFds[i]);
        sc.sendFds[i] = fcntl(sc.c.buffers[i].devFd, F_DUPFD_CLOEXEC, 0);
    }
    gLiveCases[sc.id] = &sc;
    return uploadInputs(sc.c);
}

// Before a call: the cases' poisoned outputs go up, the L2 is flushed when
// asked, and the judge's device work is done before the clock starts.
std::string deviceBefore(const std::vector<uint32_t>& cases) {
    for (uint32_t id : cases) {
        const auto it = gLiveCases.find(id);
        if (it == gLiveCases.end()) return "internal: a call on a case the judge does not hold";
        for (auto& b : it->second->c.buffers)
            if (b.output)
                if (auto err = ksDevUpload(b.dev, b.data, b.dataBytes); !err.empty()) return err;
    }
    if (gL2FlushPending)
        if (auto err = ksDevFlushL2(); !err.empty()) return err;
    gL2FlushPending = false;
    if (auto err = ksDevSync(); !err.empty()) return err;
    return ksDevProbe();
}

// After a call, the runner frozen: outputs come back to the host, every input
// is compared with its copy (and restored), every red zone is checked. "" or
// the judge's own device failure; *violation says what the kernel did wrong.
std::string deviceAfter(const std::vector<uint32_t>& cases, std::string* violation) {
    for (uint32_t id : cases) {
        const auto it = gLiveCases.find(id);
        if (it == gLiveCases.end()) return "internal: a call on a case the judge does not hold";
        for (auto& b : it->second->c.buffers) {
            if (b.output) {
                if (auto err = ksDevDownload(b.data, b.dev, b.dataBytes); !err.empty()) return err;
            } else {
                bool same = false;
                if (auto err = ksDevEqual(b.dev, b.pristine, b.dataBytes, &same); !err.empty()) return err;
                if (!same) {
                    if (violation->empty()) *violation = "wrote into its input " + b.name + " (inputs are read-only)";
                    if (auto err = ksDevCopy(b.dev, b.pristine, b.dataBytes); !err.empty()) return err;
                }
            }
            bool intact = true;
            const std::string where = ksDevRedZone(b.dev, b.dataBytes, &intact);
            if (!intact && violation->empty())
                *violation = "wrote past the end of " + b.name + " (" + where + ")";
            else if (intact && !where.empty())
                return where;
        }
    }
    return {};
}
#endif

#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE 0x0010
#endif

uint32_t gNextCaseId = 1;

// Seals a built case's inputs and prepares the descriptors runners get.
std::string sealCase(SharedCase& sc) {
    for (auto& b : sc.c.buffers) {
        if (b.output) {
            fcntl(b.fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW);
            sc.sendFds.push_back(fcntl(b.fd, F_DUPFD_CLOEXEC, 0));
            continue;
        }
        // Sealed: no new writable mapping of it can ever be made, by anyone;
        // the judge's own mapping stays. Reopened read-only as well, for
        // kernels that predate the seal.
        const bool sealed = fcntl(b.fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_FUTURE_WRITE) == 0;
        char path[64];
        std::snprintf(path, sizeof path, "/proc/self/fd/%d", b.fd);
        const int ro = open(path, O_RDONLY | O_CLOEXEC);
        if (ro < 0 && !sealed) return "cannot share input " + b.name + " read-only (no memfd seals and no /proc)";
        fcntl(b.fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW);
        sc.sendFds.push_back(ro >= 0 ? ro : fcntl(b.fd, F_DUPFD_CLOEXEC, 0));
    }
    return "";
}

// Seals a built case and, for CUDA kernels, mirrors it on the device.
std::string finishCase(SharedCase& sc) {
    if (std::string err = sealCase(sc); !err.empty()) return err;
#ifdef KS_CUDA
    return mirrorCase(sc);
#else
    return "";
#endif
}

// Builds, fills and seals a case; "" or why the host cannot hold it.
std::string makeCase(const int64_t* sizes, uint64_t seed, SharedCase& sc) {
    sc.id = gNextCaseId++;
    ks_build_case(sizes, seed, sc.c);
    if (!sc.c.allocError.empty()) return sc.c.allocError;
    return finishCase(sc);
}

// Another input set like `from`: its inputs copied, then refreshed (a fresh
// draw's distribution at the price of a copy and one pass, where the
// generator itself costs tens of nanoseconds an element).
std::string cloneCase(const SharedCase& from, uint64_t seed, SharedCase& sc) {
    sc.id = gNextCaseId++;
    sc.c.sizes = from.c.sizes;
    for (const auto& b : from.c.buffers) {
        Buffer& nb = sc.c.add(b.name.c_str(), b.dt, static_cast<int64_t>(b.count), b.output);
        if (!sc.c.allocError.empty()) return sc.c.allocError;
        if (!b.output && b.dataBytes) std::memcpy(nb.data, b.data, b.dataBytes);
    }
    ks_refresh_case(sc.c, seed);
    return finishCase(sc);
}

// New contents for a case's inputs (on the device too); "" or why not.
std::string refreshCase(SharedCase& sc, uint64_t seed) {
    ks_refresh_case(sc.c, seed);
#ifdef KS_CUDA
    return uploadInputs(sc.c);
#else
    return "";
#endif
}

bool shareCase(Runner& r, SharedCase& sc, Json& res, const std::string& where) {
    MapMsg m{};
    m.type = Map;
    m.caseId = sc.id;
    m.buffers = static_cast<uint32_t>(sc.c.buffers.size());
    m.sizeCount = static_cast<uint32_t>(std::min<size_t>(sc.c.sizes.size(), kMaxSizes));
    for (uint32_t i = 0; i < m.sizeCount; ++i) m.sizes[i] = sc.c.sizes[i];
    for (uint32_t i = 0; i < m.buffers; ++i) {
        const Buffer& b = sc.c.buffers[i];
#ifdef KS_CUDA
        m.buffer[i] = BufferDesc{b.devMapBytes, 0, b.dataBytes, b.output ? 1u : 0u, {}};
#else
        m.buffer[i] = BufferDesc{b.mapBytes, b.offset, b.dataBytes, b.output ? 1u : 0u, {}};
#endif
        std::snprintf(m.buffer[i].name, sizeof m.buffer[i].name, "%s", b.name.c_str());
    }
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxBuffers)] = {};
    iovec iov{&m, sizeof m};
    msghdr h{};
    h.msg_iov = &iov;
    h.msg_iovlen = 1;
    if (m.buffers > 0) {
        h.msg_control = control;
        h.msg_controllen = CMSG_SPACE(sizeof(int) * m.buffers);
        cmsghdr* c = CMSG_FIRSTHDR(&h);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int) * m.buffers);
        std::memcpy(CMSG_DATA(c), sc.sendFds.data(), sizeof(int) * m.buffers);
    }
    thaw(r);
    ShortMsg reply{};
    bool timedOut = false;
    if (sendmsg(r.sock, &h, MSG_NOSIGNAL) < 0 || !receive(r, Mapped, 0, 60, reply, &timedOut)) {
        if (timedOut) killRunner(r);
        return failRunner(res, r, "", "while taking its buffers " + where, timedOut, 60);
    }
    if (reply.status != 0) {
        reply.text[sizeof reply.text - 1] = 0;
        if (r.candidate)
            return res.fail("runtime_error", "the candidate's runner could not map its buffers " + where + ": " + reply.text);
        return res.fail("infra_error", "the " + r.name + "'s runner could not map its buffers " + where + ": " + reply.text);
    }
    r.mapped[sc.id] = true;
    return freeze(r, res) || failRunner(res, r, "", where, false, 0);
}

void forgetCase(Runner& r, const SharedCase& sc) {
    if (r.dead || r.sock < 0 || !r.mapped.count(sc.id)) return;
    ShortMsg m{};
    m.type = Unmap;
    m.seq = sc.id;
    (void)!send(r.sock, &m, sizeof m, MSG_NOSIGNAL | MSG_DONTWAIT); // read when it next runs
    r.mapped.erase(sc.id);
}

// One hand-off: the runner calls its kernel on `cases` in order. The clock
// is the judge's, from the request to the answer; the runner is frozen again
// before anything else happens.
bool callKernel(Runner& r, const std::vector<uint32_t>& cases, double limitS, double* seconds, Json& res,
                const std::string& where) {
    CallMsg m{};
    m.type = cases.empty() ? static_cast<uint32_t>(Nop) : static_cast<uint32_t>(Call);
    m.seq = ++r.seq;
    m.count = static_cast<uint32_t>(std::min<size_t>(cases.size(), kMaxBatch));
    for (uint32_t i = 0; i < m.count; ++i) m.caseId[i] = cases[i];
    const size_t bytes = cases.empty() ? sizeof(ShortMsg) : sizeof m;
#ifdef KS_CUDA
    if (std::string err = deviceBefore(cases); !err.empty())
        return res.fail("infra_error", "the judge's device work failed " + where + ": " + err);
#endif
    thaw(r);
    ShortMsg done{};
    bool timedOut = false;
    const double t0 = now();
    const bool sent = send(r.sock, &m, bytes, MSG_NOSIGNAL) == static_cast<ssize_t>(bytes);
    const bool answered = sent && receive(r, Done, m.seq, limitS, done, &timedOut);
    double t1 = now();
    if (!answered) {
        if (timedOut) killRunner(r);
        return failRunner(res, r, "", where, timedOut, limitS);
    }
    if (!freeze(r, res)) return failRunner(res, r, "", where, false, limitS);
#ifdef KS_CUDA
    // The runner's answer is the kernel's word that its device work is done;
    // the clock stops only when the judge sees the device idle (ksDevDrain):
    // work left running past the answer is the kernel's time, not the next's.
    double waited = 0, probe = 0;
    if (std::string err = ksDevDrain(std::max(0.0, limitS - (t1 - t0)), &waited, &probe); !err.empty())
        return res.fail("infra_error", "the judge's device work failed " + where + ": " + err);
    t1 += std::max(0.0, waited - probe); // the freeze itself is not the kernel's
    if (t1 - t0 > limitS) {
        killRunner(r);
        return failRunner(res, r, "", where + " (its device work ran on after it answered)", true, limitS);
    }
#endif
    if (seconds) *seconds = t1 - t0;
    res.kernelSeconds += t1 - t0;
    if (done.status == CallOutOfMemory) return failRunner(res, r, "oom", where, false, limitS);
    if (done.status == CallException) return failRunner(res, r, "threw a C++ exception", where, false, limitS);
    done.text[sizeof done.text - 1] = 0;
    if (done.status == CallDeviceError)
        return failRunner(res, r, std::string("failed on the device: ") + done.text, where, false, limitS);
    if (done.status != CallOk) return failRunner(res, r, "lost a case the judge had given it", where, false, limitS);
#ifdef KS_CUDA
    if (!cases.empty()) {
        const double v0 = now();
        std::string violation;
        if (std::string err = deviceAfter(cases, &violation); !err.empty())
            return res.fail("infra_error", "the judge's device work failed " + where + ": " + err);
        res.verifySeconds += now() - v0;
        if (!violation.empty()) {
            if (r.candidate) return res.fail("wrong_answer", "the candidate " + violation + " " + where);
            return res.fail("infra_error", "the problem's " + r.name + " " + violation + " " + where +
                                               " (the problem's fault; no candidate was charged)");
        }
    }
#endif
    return true;
}

double callLimit(double referenceSeconds) {
    // A candidate hundreds of times slower than the naive reference is not
    // worth waiting for; the problem's limit caps it.
    return std::min(KS_CALL_TIMEOUT_S, std::max(2.0, 200.0 * referenceSeconds));
}

std::vector<std::vector<unsigned char>> outputsOf(const Case& c) {
    std::vector<std::vector<unsigned char>> out(c.buffers.size());
    for (size_t i = 0; i < c.buffers.size(); ++i)
        if (c.buffers[i].output) out[i].assign(c.buffers[i].data, c.buffers[i].data + c.buffers[i].dataBytes);
    return out;
}

void poisonOutputs(Case& c, int which) {
    for (auto& b : c.buffers)
        if (b.output) poison(b, which);
}

// Evicts a case's buffers from every cache level: each timed call starts cold.
void flushCaches(Case& c) {
#if defined(KS_CUDA)
    (void)c;
    gL2FlushPending = true; // the device's L2, once, right before the call
#elif defined(__x86_64__) || defined(__i386__)
    for (auto& b : c.buffers)
        for (size_t off = 0; off < b.dataBytes; off += 64) __builtin_ia32_clflush(b.data + off);
    __builtin_ia32_mfence();
#else
    static std::vector<unsigned char> sweep(64u << 20);
    for (size_t i = 0; i < sweep.size(); i += 64) sweep[i]++;
    (void)c;
#endif
}

// Compares every output of `c` (now holding the first of two calls' results)
// with `expected`; `second` holds the other call's, or null.
bool compareCase(Json& res, Case& c, const std::vector<std::vector<unsigned char>>& expected,
                 const std::vector<std::vector<unsigned char>>* first, const std::vector<std::vector<unsigned char>>* second,
                 const char* shapeName, uint64_t seedLabel, const std::string& detail, std::string& firstFailure) {
    bool all = true;
    for (size_t i = 0; i < c.buffers.size(); ++i) {
        Buffer& b = c.buffers[i];
        if (!b.output) continue;
        Buffer a = b, s = b;
        if (first) a.data = const_cast<unsigned char*>((*first)[i].data());
        if (second) s.data = const_cast<unsigned char*>((*second)[i].data());
        const Comparison cmp = compareOutput(a, expected[i], second ? &(*second)[i] : nullptr, second ? &s : nullptr,
                                             KS_TOLERANCE[static_cast<int>(b.dt)][0], KS_TOLERANCE[static_cast<int>(b.dt)][1]);
        if (cmp.kind != "ok" || detail.empty())
            res.checks.push_back(checkJson(shapeName, ks_size_json(c), seedLabel, b.name, cmp, b.count, detail));
        if (cmp.kind != "ok") {
            all = false;
            if (firstFailure.empty()) firstFailure = describeFailure(shapeName, seedLabel, b.name, cmp, b.count);
        }
    }
    return all;
}

// ---------------------------------------------------------------- the run ---
struct Kernels {
    Runner reference;
    std::vector<Runner> baselines;
    Runner candidate;
    bool candidateStarted = false;
    std::vector<Runner*> all() {
        std::vector<Runner*> v{&reference};
        for (auto& b : baselines) v.push_back(&b);
        if (candidateStarted) v.push_back(&candidate);
        return v;
    }
    ~Kernels() {
        for (Runner* r : all()) killRunner(*r);
        gCandidate = nullptr;
    }
};

bool ensureCandidate(Kernels& k, Json& res) {
    if (k.candidateStarted) return true;
    k.candidateStarted = true;
    gCandidate = &k.candidate;
    k.candidate.name = "candidate";
    k.candidate.candidate = true;
    setPhase("loading the candidate");
    return startRunner(res, k.candidate, "build/candidate.so", std::max(30.0, KS_CALL_TIMEOUT_S));
}

// Check shapes: every shape x every seed, fresh inputs from the secret; the
// reference first, then the candidate twice (two poisons: unwritten elements
// and nondeterminism show).
bool checkPhase(Kernels& k, Json& res) {
    std::string firstFailure;
    for (int s = 0; s < KS_NUM_CHECK_SHAPES && res.ok(); ++s) {
        for (int seedIndex = 0; seedIndex < KS_NUM_SEEDS && res.ok(); ++seedIndex) {
            const KsShape& shape = KS_CHECK_SHAPES[s];
            const uint64_t seed = KS_SEEDS[seedIndex];
            const std::string where = std::string("on check shape ") + shape.name + " seed " + std::to_string(seed);
            SharedCase sc;
            if (std::string err = makeCase(shape.sizes, mixSeed(res.secret, mixSeed(seed, static_cast<uint64_t>(s))), sc);
                !err.empty())
                return res.fail("infra_error", "check shape " + std::string(shape.name) + " does not fit on this host: " + err);
            setPhase("reference on a check shape");
            if (!shareCase(k.reference, sc, res, where)) return false;
            poisonOutputs(sc.c, 0);
            double refSeconds = 0;
            if (!callKernel(k.reference, {sc.id}, KS_CALL_TIMEOUT_S, &refSeconds, res, where)) return false;
            forgetCase(k.reference, sc);
            const auto expected = outputsOf(sc.c);

            setPhase("candidate on a check shape");
            if (!ensureCandidate(k, res) || !shareCase(k.candidate, sc, res, where)) return false;
            std::vector<std::vector<std::vector<unsigned char>>> runs(2);
            for (int call = 0; call < 2; ++call) {
                poisonOutputs(sc.c, call);
                if (!callKernel(k.candidate, {sc.id}, callLimit(refSeconds), nullptr, res,
                                where + " (call " + std::to_string(call + 1) + ")"))
                    return false;
                runs[call] = outputsOf(sc.c);
            }
            forgetCase(k.candidate, sc);
            compareCase(res, sc.c, expected, &runs[0], &runs[1], shape.name, seed, "", firstFailure);
        }
    }
    if (res.ok() && !firstFailure.empty()) return res.fail("wrong_answer", firstFailure);
    return res.ok();
}

// The hand-off's cost: the median of empty round trips to the candidate.
double measureHandoff(Runner& r, Json& res) {
    std::vector<double> t;
    for (int i = 0; i < 21; ++i) {
        double s = 0;
        if (!callKernel(r, {}, 5, &s, res, "while measuring the hand-off")) return 0;
        t.push_back(s);
    }
    return stats(t).median;
}

// The sets of the next call: `n` distinct ones, in a fresh random order,
// never starting with the set the kernel was last called on.
std::vector<size_t> pickSets(std::mt19937_64& rng, size_t pool, size_t n, size_t avoid) {
    std::vector<size_t> order(pool);
    for (size_t i = 0; i < pool; ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng);
    if (pool > 1 && order[0] == avoid) std::swap(order[0], order[pool - 1]);
    order.resize(std::min(n, pool));
    return order;
}

// The most sets a timing shape may get: at least 3 (so that neither
// repetition nor call parity names a set), more for small shapes, where
// short kernels are batched; bounded in bytes.
size_t poolSize(size_t caseBytes) {
    const size_t budget = 96u << 20;
    const size_t n = caseBytes > 0 ? budget / caseBytes : kMaxBatch;
    return std::max<size_t>(3, std::min<size_t>(kMaxBatch, n));
}

struct CounterSpec {
    const char* name;
    uint32_t type;
    uint64_t config;
};

const CounterSpec kCounters[] = {
    {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {"cache_references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
    {"cache_misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
    {"branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"branch_misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
    {"task_clock_ns", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
    {"page_faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {"context_switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
};

std::string perfParanoid() {
    FILE* f = std::fopen("/proc/sys/kernel/perf_event_paranoid", "r");
    if (!f) return "unknown";
    char buf[32] = {0};
    if (!std::fgets(buf, sizeof buf, f)) buf[0] = 0;
    std::fclose(f);
    std::string v = buf;
    while (!v.empty() && (v.back() == '\n' || v.back() == ' ')) v.pop_back();
    return v;
}

std::vector<int> threadIds(pid_t pid) {
    std::vector<int> ids;
    const std::string dir = "/proc/" + std::to_string(pid) + "/task";
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d))
            if (e->d_name[0] != '.') ids.push_back(std::atoi(e->d_name));
        closedir(d);
    }
    return ids;
}

// Counts the candidate's own threads (user space only) over calls on one
// set: profile/counters.json. Informs a diagnosis, never a score.
void profileCounters(Runner& cand, SharedCase& sc, double perCall, Json& res) {
    mkdir("profile", 0755);
    const std::vector<int> tids = threadIds(cand.pid);
    const int n = sizeof kCounters / sizeof kCounters[0];
    std::vector<std::vector<int>> fds(n);
    std::string missing, hwReason;
    bool anyHardware = false;
    for (int e = 0; e < n; ++e) {
        std::string why;
        for (int tid : tids) {
            perf_event_attr a;
            std::memset(&a, 0, sizeof a);
            a.size = sizeof a;
            a.type = kCounters[e].type;
            a.config = kCounters[e].config;
            a.disabled = 1;
            a.exclude_kernel = 1;
            a.exclude_hv = 1;
            const int fd = static_cast<int>(syscall(SYS_perf_event_open, &a, tid, -1, -1, PERF_FLAG_FD_CLOEXEC));
            if (fd < 0) {
                why = std::strerror(errno);
                break;
            }
            fds[e].push_back(fd);
        }
        if (!why.empty()) {
            for (int fd : fds[e]) close(fd);
            fds[e].clear();
            missing += std::string(missing.empty() ? "" : ",") + q(kCounters[e].name) + ":" + q("perf_event_open: " + why);
            if (kCounters[e].type == PERF_TYPE_HARDWARE && hwReason.empty()) hwReason = why;
        } else if (kCounters[e].type == PERF_TYPE_HARDWARE) {
            anyHardware = true;
        }
    }
    const int calls = std::max(3, std::min(1000, perCall > 0 ? static_cast<int>(0.2 / perCall) : 3));
    double wall = 0;
    Json scratch; // a failure here is not the verdict's business
    for (int i = 0; i < calls; ++i) {
        flushCaches(sc.c);
        for (auto& v : fds)
            for (int fd : v) ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
        double one = 0;
        const bool ok = callKernel(cand, {sc.id}, KS_CALL_TIMEOUT_S, &one, scratch, "while counting");
        for (auto& v : fds)
            for (int fd : v) ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
        if (!ok) {
            for (auto& v : fds)
                for (int fd : v) close(fd);
            if (FILE* f = std::fopen("profile/unavailable-counters.txt", "w")) {
                std::fprintf(f, "the counting run failed: %s\n", scratch.message.c_str());
                std::fclose(f);
            }
            return;
        }
        wall += one;
    }
    std::string perCallJson;
    for (int e = 0; e < n; ++e) {
        if (fds[e].empty()) continue;
        double total = 0;
        for (int fd : fds[e]) {
            uint64_t v = 0;
            if (read(fd, &v, sizeof v) == static_cast<ssize_t>(sizeof v)) total += static_cast<double>(v);
            close(fd);
        }
        perCallJson += std::string(perCallJson.empty() ? "" : ",") + q(kCounters[e].name) + ":" + num(total / calls);
    }
    std::string reason;
    if (!anyHardware)
        reason =
            "perf_event_open refused every hardware event (" + hwReason + "; kernel.perf_event_paranoid=" + perfParanoid() +
            "): virtual machines without a virtual PMU and containers that filter the call have none; cachegrind works anywhere";
    if (FILE* f = std::fopen("profile/counters.json", "w")) {
        const std::string out = "{\"available\":" + std::string(anyHardware ? "true" : "false") + ",\"reason\":" + q(reason) +
                                ",\"calls\":" + std::to_string(calls) + ",\"threads\":" + std::to_string(tids.size()) +
                                ",\"seconds_per_call\":" + num(wall / calls) + ",\"per_call\":{" + perCallJson +
                                "},\"missing\":{" + missing + "}}\n";
        std::fputs(out.c_str(), f);
        std::fclose(f);
    }
    (void)res;
}

// One candidate call under a wrapper (valgrind's cachegrind) in a runner of
// its own. The wrapper cannot host a seccomp filter, so this runs only after
// the verdict is decided, and the judge writes result.json after it is gone.
void profileUnderWrapper(const std::string& so, const std::vector<std::string>& wrapper, SharedCase& sc) {
    Runner r;
    r.name = "candidate (profiled)";
    r.candidate = true;
    Json scratch;
    if (!spawn(r, so, wrapper, false).empty()) return;
    ShortMsg hello{};
    bool timedOut = false;
    const double limit = std::max(600.0, 50 * KS_CALL_TIMEOUT_S);
    if (receive(r, Confined, 0, limit, hello, &timedOut) && hello.status == 0 && receive(r, Hello, 0, limit, hello, &timedOut) &&
        hello.status == 0 && shareCase(r, sc, scratch, "while profiling"))
        callKernel(r, {sc.id}, limit, nullptr, scratch, "while profiling");
    // Closing the socket lets the runner exit normally: valgrind writes its report then.
    thaw(r);
    close(r.sock);
    r.sock = -1;
    for (int i = 0; i < 6000 && !r.dead; ++i) {
        drainStderr(r);
        reap(r, false);
        if (!r.dead) usleep(10000);
    }
    if (!scratch.ok())
        if (FILE* f = std::fopen("profile/unavailable-cachegrind.txt", "w")) {
            std::fprintf(f, "the profiled call failed: %s\n%s\n", scratch.message.c_str(), stderrText(r).substr(0, 300).c_str());
            std::fclose(f);
        }
    kill(-r.pid, SIGKILL); // its process group: whatever it started
    killRunner(r);
}

struct Options {
    bool counters = false;
    std::string cachegrindSo;
    std::vector<std::string> cachegrindWrapper;
};

// The candidate's speedup over each baseline, paired round by round.
std::string pairedSpeedupsJson(const std::vector<Runner*>& timed, const std::vector<std::vector<double>>& samples,
                               size_t candIndex) {
    std::string out;
    for (size_t ki = 0; ki < candIndex; ++ki)
        out += (ki ? "," : "") + q(timed[ki]->name) + ":" + num(pairedSpeedup(samples[ki], samples[candIndex]));
    return out;
}

// Timing shapes: a pool of sets per shape; the reference answers every set
// first, the candidate's first call on each set is checked against it with
// the tolerance, and every later call (warm-up and timed) must reproduce that
// verified output bit for bit.
bool timingPhase(Kernels& k, Json& res, const Options& opt, std::vector<double>& logSpeedups) {
    std::mt19937_64 order(res.secret ^ 0x5EEDu);
    std::vector<Runner*> timed{&k.reference};
    for (auto& b : k.baselines) timed.push_back(&b);
    timed.push_back(&k.candidate);
    const size_t candIndex = timed.size() - 1;
    for (int s = 0; s < KS_NUM_TIME_SHAPES && res.ok(); ++s) {
        const KsShape& shape = KS_TIME_SHAPES[s];
        const std::string where = std::string("on timing shape ") + shape.name;
        setPhase("building a timing shape's inputs");
        // The input sets: three first; more only where short kernels need them
        // to be batched (each set costs a reference call and a checked call of
        // the candidate before timing starts, which for a long kernel on small
        // inputs used to be most of the evaluation).
        std::vector<std::unique_ptr<SharedCase>> pool;
        std::vector<std::vector<std::vector<unsigned char>>> golden;
        double refSeconds = 0, refShortest = 0, candShortest = 0;
        std::string firstFailure;
        const auto addSets = [&](size_t upTo) {
            const size_t from = pool.size();
            setPhase("building a timing shape's inputs");
            for (size_t j = from; j < upTo; ++j) {
                pool.push_back(std::make_unique<SharedCase>());
                const uint64_t seed = mixSeed(res.secret, mixSeed(1000u + static_cast<uint64_t>(s), j));
                const std::string err =
                    j == 0 ? makeCase(shape.sizes, seed, *pool.back()) : cloneCase(*pool[0], seed, *pool.back());
                if (!err.empty())
                    return res.fail("infra_error",
                                    "timing shape " + std::string(shape.name) + " does not fit on this host: " + err);
                for (Runner* r : timed)
                    if (!shareCase(*r, *pool.back(), res, where)) return false;
            }
            // Each set's answer, from the reference; then the candidate's first
            // answer on it, checked like a check case.
            for (size_t j = from; j < upTo; ++j) {
                setPhase("reference on a timing shape");
                poisonOutputs(pool[j]->c, 0);
                if (!callKernel(k.reference, {pool[j]->id}, KS_CALL_TIMEOUT_S, &refSeconds, res, where)) return false;
                refShortest = j == 0 ? refSeconds : std::min(refShortest, refSeconds);
                const auto expected = outputsOf(pool[j]->c);
                setPhase("candidate on a timing shape");
                poisonOutputs(pool[j]->c, 0);
                double candSeconds = 0;
                if (!callKernel(k.candidate, {pool[j]->id}, callLimit(refSeconds), &candSeconds, res, where)) return false;
                candShortest = j == 0 ? candSeconds : std::min(candShortest, candSeconds);
                if (!compareCase(res, pool[j]->c, expected, nullptr, nullptr, shape.name, j, "timing shape", firstFailure))
                    return res.fail("wrong_answer", firstFailure + " (an input set of the timing shape)");
                golden.push_back(outputsOf(pool[j]->c));
            }
            return true;
        };
        if (!addSets(3)) return false;
        const double handoff = measureHandoff(k.candidate, res);
        if (!res.ok()) return false;
        res.handoffSeconds = std::max(res.handoffSeconds, handoff);
        {
            const double shortest = std::min(refShortest, candShortest);
            const size_t wanted =
                shortest > 0 && shortest < 8 * handoff ? static_cast<size_t>(std::ceil(8 * handoff / shortest)) + 1 : 3;
            if (!addSets(std::max<size_t>(3, std::min(wanted, poolSize(pool[0]->c.totalBytes()))))) return false;
        }
        const size_t poolN = pool.size();
#ifdef KS_CUDA
        // An empty call costs the GPU two switches between the judge's context
        // and a runner's, and the drain's probe: hundreds of microseconds,
        // beside kernels of tens. It is measured through the reference's runner
        // (the problem's own: no candidate can inflate it) and taken off every
        // call, as an empty region's cost was taken off event timings.
        const double emptyCall = measureHandoff(k.reference, res);
        if (!res.ok()) return false;
#else
        const double emptyCall = 0; // batching alone keeps the hand-off small beside a call
#endif
        const auto perCall = [emptyCall](double t, size_t n) { return std::max(1e-9, t - emptyCall) / static_cast<double>(n); };

        // Warm-up: every kernel a few times, also estimating a call's length.
        std::vector<size_t> last(timed.size(), poolN);
        std::vector<double> estimate(timed.size(), 0);
        int warmups = 0;
        const double warmStart = now();
        const auto oneCall = [&](size_t ki, size_t batch, int poisonWhich, std::vector<double>* samples, const char* stage) {
            const auto sets = pickSets(order, poolN, batch, last[ki]);
            last[ki] = sets.back();
            std::vector<uint32_t> ids;
            const double p0 = now();
            for (size_t j : sets) {
                poisonOutputs(pool[j]->c, poisonWhich);
                ids.push_back(pool[j]->id);
            }
            const double p1 = now();
            for (size_t j : sets) flushCaches(pool[j]->c);
            res.poisonSeconds += p1 - p0;
            res.flushSeconds += now() - p1;
            double t = 0;
            const double limit =
                ki == 0 ? KS_CALL_TIMEOUT_S * static_cast<double>(batch) : callLimit(refSeconds) * static_cast<double>(batch);
            if (!callKernel(*timed[ki], ids, limit, &t, res, std::string(stage) + " " + where)) return false;
            const double per = perCall(t, sets.size());
            estimate[ki] = per;
            if (samples) samples->push_back(per);
            if (ki != candIndex) return true;
            const double v0 = now();
            for (size_t j : sets)
                for (size_t i = 0; i < pool[j]->c.buffers.size(); ++i) {
                    const Buffer& b = pool[j]->c.buffers[i];
                    if (b.output && std::memcmp(b.data, golden[j][i].data(), b.dataBytes) != 0) {
                        res.verifySeconds += now() - v0;
                        return res.fail("wrong_answer", std::string(stage) + " call " + where + " (input set " +
                                                            std::to_string(j) + ") produced a different " + b.name +
                                                            " than the verified call on the same inputs");
                    }
                }
            res.verifySeconds += now() - v0;
            return true;
        };
        setPhase("warm-up on a timing shape");
        while (res.ok() && (warmups < KS_MIN_WARMUP || (now() - warmStart < KS_WARMUP_S && warmups < 100))) {
            for (size_t ki = 0; ki < timed.size() && res.ok(); ++ki) oneCall(ki, 1, warmups & 1, nullptr, "a warm-up");
            ++warmups;
        }
        if (!res.ok()) return false;
        // Kernels shorter than a few hand-offs run in batches over distinct sets.
        double shortest = estimate[0];
        for (double e : estimate) shortest = std::min(shortest, e);
        size_t batch = 1;
        if (shortest > 0 && shortest < 8 * handoff)
            batch = std::min(poolN, static_cast<size_t>(std::ceil(8 * handoff / shortest)));
        double perRound = 0;
        for (double e : estimate) perRound += e * static_cast<double>(batch);
        int reps = perRound > 0 ? static_cast<int>(KS_TIME_BUDGET_S / perRound) : KS_MAX_REPS;
        reps = std::max(KS_MIN_REPS, std::min(KS_MAX_REPS, reps));

        setPhase("timing");
        // Every round gives its sets fresh contents first, so no kernel is ever
        // timed on inputs it saw before (nothing to replay); the reference's
        // answer in the same round is what the candidate's is checked against.
        std::vector<std::vector<double>> samples(timed.size());
        const double loopStart = now();
        size_t lastSet = poolN;
        int rounds = 0;
        for (int rep = 0; rep < reps && res.ok(); ++rep) {
            // A round's bookkeeping (fresh inputs, checks) is not free, and on a
            // memory-bound shape costs several calls' time: the rounds stop at 3x
            // the time budget once the minimum is met (at 1.25x, such shapes got
            // 10-13 samples and a reference timed against itself moved by 5-30%).
            if (rep >= KS_MIN_REPS && now() - loopStart > 3 * KS_TIME_BUDGET_S) break;
            const auto sets = pickSets(order, poolN, batch, lastSet);
            lastSet = sets.back();
            const double r0 = now();
            for (size_t j : sets)
                if (std::string err = refreshCase(*pool[j], order()); !err.empty())
                    return res.fail("infra_error", "the judge could not refresh an input set " + where + ": " + err);
            res.refreshSeconds += now() - r0;
            // The reference's answers, and the candidate's outputs when it ran first.
            std::vector<std::vector<std::vector<unsigned char>>> answer(sets.size()), produced(sets.size());
            std::vector<uint32_t> ids;
            for (size_t j : sets) ids.push_back(pool[j]->id);
            bool referenceDone = false, checked = false;
            double v0 = 0;
            const auto checkCandidate = [&](bool fromCopies) {
                const double c0 = now();
                for (size_t x = 0; x < sets.size() && res.ok(); ++x) {
                    Case& c = pool[sets[x]]->c;
                    for (size_t i = 0; i < c.buffers.size() && res.ok(); ++i) {
                        Buffer& b = c.buffers[i];
                        if (!b.output) continue;
                        Buffer view = b;
                        if (fromCopies) view.data = produced[x][i].data();
                        const double rtol = KS_TOLERANCE[static_cast<int>(b.dt)][0],
                                     atol = KS_TOLERANCE[static_cast<int>(b.dt)][1];
                        if (withinTolerance(view, answer[x][i].data(), rtol, atol)) continue;
                        const Comparison cmp = compareOutput<Buffer>(view, answer[x][i], nullptr, nullptr, rtol, atol);
                        res.checks.push_back(checkJson(shape.name, ks_size_json(c), static_cast<uint64_t>(rep), b.name, cmp,
                                                       b.count, "timed call"));
                        res.fail("wrong_answer",
                                 "a timed call with fresh inputs: " +
                                     describeFailure(shape.name, static_cast<uint64_t>(rep), b.name, cmp, b.count));
                    }
                }
                v0 += now() - c0;
                checked = true;
            };
            for (size_t jj = 0; jj < timed.size() && res.ok(); ++jj) {
                // Rotate the order so no kernel always runs right after another.
                const size_t ki = (jj + static_cast<size_t>(rep)) % timed.size();
                const double p0 = now();
                for (size_t j : sets) poisonOutputs(pool[j]->c, rep & 1);
                const double p1 = now();
                for (size_t j : sets) flushCaches(pool[j]->c);
                res.poisonSeconds += p1 - p0;
                res.flushSeconds += now() - p1;
                double t = 0;
                const double limit = (ki == 0 ? KS_CALL_TIMEOUT_S : callLimit(refSeconds)) * static_cast<double>(sets.size());
                if (!callKernel(*timed[ki], ids, limit, &t, res, "a timed call " + where)) return false;
                samples[ki].push_back(perCall(t, sets.size()));
                if (ki == 0) {
                    for (size_t x = 0; x < sets.size(); ++x) answer[x] = outputsOf(pool[sets[x]]->c);
                    referenceDone = true;
                    if (!produced[0].empty()) checkCandidate(true);
                }
                if (ki == candIndex) {
                    if (referenceDone)
                        checkCandidate(false);
                    else
                        for (size_t x = 0; x < sets.size(); ++x) produced[x] = outputsOf(pool[sets[x]]->c);
                }
            }
            if (!checked && res.ok()) return res.fail("wrong_answer", "internal: a timed round checked nothing");
            res.verifySeconds += v0;
            rounds = rep + 1;
        }
        if (!res.ok()) return false;
        if (s == 0 && opt.counters) {
            setPhase("counting the candidate's events");
            profileCounters(k.candidate, *pool[0], stats(samples[candIndex]).median, res);
        }
        if (s == 0 && !opt.cachegrindSo.empty()) {
            setPhase("profiling the candidate under cachegrind");
            profileUnderWrapper(opt.cachegrindSo, opt.cachegrindWrapper, *pool[0]);
        }
        for (Runner* r : timed)
            for (auto& sc : pool) forgetCase(*r, *sc);
        const double speedup = pairedSpeedup(samples[0], samples[candIndex]);
        if (speedup > 0) logSpeedups.push_back(std::log(speedup));
        Case& c = pool[0]->c;
        std::string t = "{\"shape\":" + q(shape.name) + ",\"sizes\":" + ks_size_json(c) + ",\"bytes\":" + num(ks_bytes(c)) +
                        ",\"flops\":" + num(ks_flops(c)) + ",\"warmup\":" + std::to_string(warmups) +
                        ",\"reps\":" + std::to_string(rounds) + ",\"input_sets\":" + std::to_string(poolN) +
                        ",\"batch\":" + std::to_string(batch) + ",\"handoff_seconds\":" + num(handoff) +
                        ",\"empty_call_seconds\":" + num(emptyCall) +
                        ",\"cache\":\"" KS_CACHE_EVICTION "\",\"speedup\":" + num(speedup) + ",\"speedups\":{" +
                        pairedSpeedupsJson(timed, samples, candIndex) + "}" +
                        ",\"candidate\":" + statsJson("candidate", samples[candIndex]) + ",\"baselines\":[";
        for (size_t ki = 0; ki < candIndex; ++ki) t += (ki ? "," : "") + statsJson(timed[ki]->name, samples[ki]);
        res.timings.push_back(t + "]}");
    }
    return res.ok();
}

int run(const Options& opt) {
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN); // a buffer past the file-size limit is an allocation error, not a crash
    // Not dumpable: no runner can open the judge's /proc memory, environment or descriptors.
    prctl(PR_SET_DUMPABLE, 0);
    const double start = now();
    Json res;
    if (KS_SECRET_GIVEN) {
        res.secret = KS_GIVEN_SECRET; // a reproduction: the inputs are known in advance
        res.secretGiven = true;
    } else if (getrandom(&res.secret, sizeof res.secret, 0) != static_cast<ssize_t>(sizeof res.secret)) {
        res.fail("infra_error", "the judge could not draw its secret seed (getrandom failed)");
        writeResult(res, "");
        return 0;
    }
#ifdef KS_CUDA
    if (std::string err = ksDevInit(); !err.empty()) {
        res.fail("infra_error", "the judge cannot use the GPU: " + err);
        writeResult(res, "");
        return 0;
    }
#endif
    {
        Kernels k;
        k.reference.name = "reference";
        setPhase("loading the reference");
        if (startRunner(res, k.reference, "build/reference.so", std::max(30.0, KS_CALL_TIMEOUT_S))) {
            res.setupSeconds = now() - start;
            const double checkStart = now();
            checkPhase(k, res);
            res.checkSeconds = now() - checkStart;
        }
        if (res.ok() && !KS_CHECK_ONLY) {
            // The executor may hand over a lock (KS_TIMING_LOCK_FD) that makes the
            // timing phases of concurrent jobs take turns; released below.
            const char* lockFd = std::getenv("KS_TIMING_LOCK_FD");
            if (lockFd) {
                const double waitStart = now();
                setPhase("waiting for the timing lock");
                while (flock(std::atoi(lockFd), LOCK_EX) != 0 && errno == EINTR) {
                }
                res.lockWaitSeconds = now() - waitStart;
            }
            const double timeStart = now();
            for (int i = 0; i < KS_NUM_BASELINES && res.ok(); ++i) {
                k.baselines.emplace_back();
                k.baselines.back().name = KS_BASELINES[i];
                startRunner(res, k.baselines.back(), std::string("build/baseline_") + KS_BASELINES[i] + ".so",
                            std::max(30.0, KS_CALL_TIMEOUT_S));
            }
            std::vector<double> logSpeedups;
            if (res.ok()) timingPhase(k, res, opt, logSpeedups);
            res.timeSeconds = now() - timeStart;
            if (lockFd) flock(std::atoi(lockFd), LOCK_UN); // run.sh holds the same open file description
            if (res.ok()) {
                double sum = 0;
                for (double l : logSpeedups) sum += l;
                res.speedup = logSpeedups.empty() ? 0 : std::exp(sum / static_cast<double>(logSpeedups.size()));
                res.implausible = res.speedup > KS_IMPLAUSIBLE_SPEEDUP;
                char msg[200];
                std::snprintf(msg, sizeof msg, "correct; %.3gx the reference%s", res.speedup,
                              res.implausible ? " (implausibly fast: review before trusting)" : "");
                res.message = msg;
            }
        } else if (res.ok()) {
            res.message = "correct on every check case (timing not requested)";
        }
        // Every runner is killed and reaped here, before the result exists.
    }
    setPhase("done");
    writeResult(res, "");
    return 0;
}

// The problem's own code (reference, baseline, fill) did not build: not the candidate's fault.
int problemFailed(const char* what, const char* log) {
    Json r;
    r.fail("infra_error", what);
    writeResult(r, readFileTail(log, 16000));
    return 0;
}

int compileFailed(const char* log) {
    Json r;
    r.fail("compile_error", "the candidate does not compile");
    writeResult(r, readFileTail(log, 16000));
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "run") {
        Options opt;
        for (int i = 2; i < argc; ++i) {
            const std::string a = argv[i];
            if (a == "--counters")
                opt.counters = true;
            else if (a == "--cachegrind" && i + 1 < argc) {
                opt.cachegrindSo = argv[++i];
                for (++i; i < argc; ++i) opt.cachegrindWrapper.push_back(argv[i]);
            }
        }
        return run(opt);
    }
    if (mode == "compile-failed" && argc > 2) return compileFailed(argv[2]);
    if (mode == "problem-failed" && argc > 3) return problemFailed(argv[2], argv[3]);
    std::fprintf(stderr,
                 "usage: harness run [--counters] [--cachegrind SO WRAPPER...] | compile-failed LOG | problem-failed WHAT LOG\n");
    return 2;
}
