// Kernelsmith C++ evaluation harness.
//
// Runs inside a job dir with nothing but the toolchain. It loads the reference,
// the candidate and the baselines as separate shared objects, checks the
// candidate against the reference on fresh inputs, and times candidate and
// baselines interleaved in this one process. It treats the candidate as
// adversarial: inputs are read-only during calls and compared afterwards,
// outputs are poisoned before every call (two different poisons reveal
// elements never written), each case runs twice (determinism), every timed
// output is compared too, and a watchdog ends a call that runs too long.
//
//   harness run                         checks + timing, writes result.json
//   harness compile-failed LOG          result.json for a candidate that did not build
//   harness problem-failed WHAT LOG     result.json when the problem's own code did not build
//   harness profile counters            perf_event_open counters of timed calls -> profile/counters.json
//   harness profile once [SO]           one candidate call (run under valgrind's cachegrind by run.sh)
//
// When `harness run` dies, it leaves build/phase and marker lines on stderr
// (KS-FATAL, KS-TIMEOUT, KS-OOM, KS-INPUT-WRITE); Kernelsmith classifies the
// crash from those, outside the job, so nothing the candidate could have
// replaced is ever run to report on it.
//
// The problem-specific part (sizes, fills, the call) is generated into
// harness_problem.inc by Kernelsmith's CppHarnessGenerator.
//
// Built with -DKS_CUDA (the `cuda` backend), the kernels are launchers taking
// device pointers: every buffer gets a device mirror (device_mirror.h), calls
// are timed with CUDA events around a device-wide synchronize, the L2 is
// flushed before each call, and the host copies are what gets checked.
#include <dirent.h>
#include <dlfcn.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <new>
#include <string>
#include <vector>

#include "harness_common.h"

#ifdef KS_CUDA
#include "device_mirror.h"
#endif

namespace {

// ---------------------------------------------------------------- buffers ---
// Each buffer has its own mapping so that inputs can be made read-only during
// calls; the data ends as close to a guard page as 64-byte alignment allows.
struct Buffer {
    std::string name;
    DT dt = DT::F32;
    size_t count = 0;
    bool output = false;
    void* map = nullptr;
    size_t mapBytes = 0;
    size_t dataBytes = 0;
    unsigned char* data = nullptr;
    void* dev = nullptr; // the device mirror (KS_CUDA)

    void allocate() {
        const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
        dataBytes = count * dtSize(dt);
        const size_t rounded = (dataBytes + 63) / 64 * 64;
        const size_t usable = (rounded + page - 1) / page * page;
        mapBytes = usable + page;
        map = mmap(nullptr, mapBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (map == MAP_FAILED) {
            std::fprintf(stderr, "KS-INFRA cannot allocate %zu bytes for %s\n", mapBytes, name.c_str());
            std::exit(3);
        }
        mprotect(static_cast<unsigned char*>(map) + usable, page, PROT_NONE); // guard page
        data = static_cast<unsigned char*>(map) + (usable - rounded);
    }
    void release() {
#ifdef KS_CUDA
        ksDevFree(dev);
        dev = nullptr;
#endif
        if (map) munmap(map, mapBytes);
        map = nullptr;
        data = nullptr;
    }
    void protect(bool readOnly) {
        if (mapBytes > 0)
            mprotect(map, mapBytes - static_cast<size_t>(sysconf(_SC_PAGESIZE)), readOnly ? PROT_READ : PROT_READ | PROT_WRITE);
    }
    template <typename T> T* as() { return reinterpret_cast<T*>(data); }
};

struct Case {
    std::vector<int64_t> sizes;   // declared sizes, then derived ones, in generator order
    std::vector<Buffer> buffers;  // arguments in declaration order
    Buffer& add(const char* name, DT dt, int64_t count, bool output) {
        Buffer b;
        b.name = name;
        b.dt = dt;
        b.count = count > 0 ? static_cast<size_t>(count) : 0;
        b.output = output;
        b.allocate();
        buffers.push_back(b);
        return buffers.back();
    }
    Buffer* find(const char* name) {
        for (auto& b : buffers)
            if (b.name == name) return &b;
        return nullptr;
    }
    ~Case() {
        for (auto& b : buffers) b.release();
    }
};

// --------------------------------------------------- crash attribution ---
char gPhase[256] = "startup";
volatile sig_atomic_t gInCandidate = 0;

// The phase survives a SIGKILL (rlimit, timeout) in build/phase.
void setPhase(const char* phase) {
    std::snprintf(gPhase, sizeof gPhase, "%s", phase);
    FILE* f = std::fopen("build/phase", "w");
    if (f) {
        std::fputs(phase, f);
        std::fclose(f);
    }
}

// Input buffers of the current case, so that a fault inside them can be
// reported as a write into an input rather than as a plain crash.
struct InputRange {
    const unsigned char* begin;
    const unsigned char* end;
    char name[64];
};
InputRange gInputs[64];
volatile sig_atomic_t gInputCount = 0;

void onFatalSignal(int sig, siginfo_t* info, void*) {
    char line[400];
    if (sig == SIGSEGV && info) {
        const auto* addr = static_cast<const unsigned char*>(info->si_addr);
        for (int i = 0; i < gInputCount; ++i)
            if (addr >= gInputs[i].begin && addr < gInputs[i].end) {
                std::snprintf(line, sizeof line, "\nKS-INPUT-WRITE arg=%s phase=%s\n", gInputs[i].name, gPhase);
                writeAll(2, line);
                _exit(86);
            }
    }
    std::snprintf(line, sizeof line, "\nKS-FATAL signal=%d in_candidate=%d phase=%s\n", sig, static_cast<int>(gInCandidate), gPhase);
    writeAll(2, line);
    signal(sig, SIG_DFL);
    raise(sig);
}

void onAlarm(int) {
    char line[400];
    std::snprintf(line, sizeof line, "\nKS-TIMEOUT phase=%s\n", gPhase);
    writeAll(2, line);
    // Take down whatever the call started too (a fork bomb's children would
    // otherwise keep the process limit exhausted): the whole process group.
    kill(0, SIGKILL);
    _exit(124);
}

void installHandlers() {
    static std::vector<char> altStack(1 << 16);
    stack_t ss{};
    ss.ss_sp = altStack.data();
    ss.ss_size = altStack.size();
    sigaltstack(&ss, nullptr);
    struct sigaction sa{};
    sa.sa_sigaction = onFatalSignal;
    sa.sa_flags = SA_ONSTACK | SA_SIGINFO;
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGXFSZ, SIGXCPU, SIGSYS, SIGPIPE}) sigaction(sig, &sa, nullptr);
    struct sigaction alarmAction{};
    alarmAction.sa_handler = onAlarm;
    alarmAction.sa_flags = SA_ONSTACK;
    sigaction(SIGALRM, &alarmAction, nullptr);
}

void armWatchdog(double seconds) {
    itimerval t{};
    t.it_value.tv_sec = static_cast<time_t>(seconds);
    t.it_value.tv_usec = static_cast<suseconds_t>((seconds - std::floor(seconds)) * 1e6);
    if (t.it_value.tv_sec == 0 && t.it_value.tv_usec == 0) t.it_value.tv_usec = 1000;
    setitimer(ITIMER_REAL, &t, nullptr);
}
void disarmWatchdog() {
    itimerval t{};
    setitimer(ITIMER_REAL, &t, nullptr);
}

} // namespace

// The generated, problem-specific part: KS_* constants, ks_build_case,
// ks_invoke, ks_bytes, ks_flops, ks_size_json. ks_invoke passes KS_DATA(b):
// the device mirror for CUDA launchers, the host buffer otherwise.
#ifdef KS_CUDA
#define KS_DATA(b) static_cast<unsigned char*>((b).dev)
#define KS_CACHE_EVICTION "l2flush"
#else
#define KS_DATA(b) ((b).data)
#define KS_CACHE_EVICTION "clflush"
#endif
#include "harness_problem.inc"

namespace {

// --------------------------------------------------------------- kernels ---
struct Kernel {
    std::string name;
    std::string path;
    void* fn = nullptr;
    bool candidate = false;
};

std::string loadKernel(Kernel& k) {
    void* handle = dlopen(k.path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) return std::string("cannot load ") + k.path + ": " + dlerror();
    k.fn = dlsym(handle, KS_FUNCTION);
    if (!k.fn)
        return k.path + " does not define the kernel `" + KS_FUNCTION + "` with C linkage; define exactly: " + KS_PROTOTYPE;
    return {};
}

// ----------------------------------------------------------- the result ---
struct Json {
    std::string status = "ok";
    std::string message;
    std::vector<std::string> checks;
    std::vector<std::string> timings;
    double speedup = 0;
    bool implausible = false;
    double checkSeconds = 0, timeSeconds = 0, kernelSeconds = 0, setupSeconds = 0;
    double flushSeconds = 0, poisonSeconds = 0, verifySeconds = 0; // measurement protocol costs while timing
    double lockWaitSeconds = 0; // waiting for other jobs' timing phases to end
};

std::string envJson() {
    return std::string("{\"host\":") + q(hostName()) + ",\"cpu\":" + q(cpuModel()) +
           ",\"cores\":" + std::to_string(sysconf(_SC_NPROCESSORS_ONLN)) + ",\"compiler\":" + q(__VERSION__) +
#ifdef KS_CUDA
           ",\"gpu\":" + q(ksDevName()) +
#endif
           ",\"flags\":" + q(KS_COMPILE_FLAGS) + "}";
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
           ",\"time\":" + num(r.timeSeconds) + ",\"kernel\":" + num(r.kernelSeconds) +
           ",\"flush\":" + num(r.flushSeconds) + ",\"poison\":" + num(r.poisonSeconds) + ",\"verify\":" + num(r.verifySeconds) +
           ",\"timing_lock_wait\":" + num(r.lockWaitSeconds) + "},\n";
    out += "\"env\":" + envJson() + "\n}\n";
    FILE* f = std::fopen("result.json.tmp", "w");
    if (!f) {
        std::perror("result.json");
        std::exit(3);
    }
    std::fwrite(out.data(), 1, out.size(), f);
    std::fclose(f);
    std::rename("result.json.tmp", "result.json");
}

struct Snapshot {
    std::vector<std::vector<unsigned char>> bytes; // per buffer
    void take(Case& c, bool outputs) {
        bytes.assign(c.buffers.size(), {});
        for (size_t i = 0; i < c.buffers.size(); ++i)
            if (c.buffers[i].output == outputs) bytes[i].assign(c.buffers[i].data, c.buffers[i].data + c.buffers[i].dataBytes);
    }
};

void protectInputs(Case& c, bool readOnly) {
    int n = 0;
    for (auto& b : c.buffers)
        if (!b.output) {
            b.protect(readOnly);
            if (readOnly && n < 64) {
                gInputs[n].begin = static_cast<const unsigned char*>(b.map);
                gInputs[n].end = b.data + b.dataBytes;
                std::snprintf(gInputs[n].name, sizeof gInputs[n].name, "%s", b.name.c_str());
                ++n;
            }
        }
    gInputCount = readOnly ? n : 0;
}

#ifdef KS_CUDA
// While timing, outputs are poisoned and checked on the device itself, so
// calls leave them there instead of moving them over PCIe.
bool gOutputsStayOnDevice = false;

std::string cudaFailure(const std::string& error) {
    return error.empty() ? error : "cuda: " + error;
}
#endif

// Builds a case's inputs on the host and, for CUDA launchers, their device
// mirrors; "" or why the case does not fit.
std::string buildCase(const int64_t* sizes, uint64_t seed, Case& c) {
    ks_build_case(sizes, seed, c);
#ifdef KS_CUDA
    for (auto& b : c.buffers) {
        if (std::string err = ksDevAlloc(b.dataBytes, &b.dev); !err.empty()) return err;
        if (!b.output)
            if (std::string err = ksDevUpload(b.dev, b.data, b.dataBytes); !err.empty()) return err;
    }
#endif
    return {};
}

// Calls a kernel under the watchdog; inputs read-only for the duration.
// Returns "" or a failure kind: "oom", "exception", "cuda: <what failed>".
// `protect`: false when the caller already holds the inputs read-only.
// A CUDA launcher's outputs go up (as the host copy holds them: poisoned)
// before the call and come back after it; the time is the CUDA events'.
std::string callKernel(const Kernel& k, Case& c, double limitS, double* elapsed, bool protect = true) {
    if (protect) protectInputs(c, true);
    gInCandidate = k.candidate ? 1 : 0;
    std::string failure;
#ifdef KS_CUDA
    for (auto& b : c.buffers)
        if (b.output && failure.empty() && !gOutputsStayOnDevice) failure = cudaFailure(ksDevUpload(b.dev, b.data, b.dataBytes));
    if (failure.empty()) failure = cudaFailure(ksDevFlushL2());
    double seconds = 0;
    armWatchdog(limitS);
    if (failure.empty()) failure = cudaFailure(ksDevBegin());
    if (failure.empty()) {
        try {
            ks_invoke(k.fn, c);
        } catch (const std::bad_alloc&) {
            failure = "oom";
        } catch (...) {
            failure = "exception";
        }
        const std::string end = cudaFailure(ksDevEnd(&seconds));
        if (failure.empty()) failure = end;
    }
    disarmWatchdog();
    for (auto& b : c.buffers)
        if (b.output && failure.empty() && !gOutputsStayOnDevice) failure = cudaFailure(ksDevDownload(b.data, b.dev, b.dataBytes));
#else
    armWatchdog(limitS);
    const double t0 = now();
    try {
        ks_invoke(k.fn, c);
    } catch (const std::bad_alloc&) {
        failure = "oom";
    } catch (...) {
        failure = "exception";
    }
    const double seconds = now() - t0;
    disarmWatchdog();
#endif
    gInCandidate = 0;
    if (protect) protectInputs(c, false);
    if (elapsed) *elapsed = seconds;
    return failure;
}

// What a failed call did, for a message: "threw a C++ exception".
std::string callFailureText(const std::string& failure) {
    if (failure == "exception") return "threw a C++ exception";
    if (failure == "oom") return "ran out of memory";
    if (failure.rfind("cuda: ", 0) == 0) return "failed on the device (" + failure.substr(6) + ")";
    return "failed (" + failure + ")";
}

std::string modifiedInput(Case& c, const Snapshot& pristine) {
    for (size_t i = 0; i < c.buffers.size(); ++i) {
        const Buffer& b = c.buffers[i];
        if (b.output) continue;
        if (std::memcmp(b.data, pristine.bytes[i].data(), b.dataBytes) != 0) return b.name;
#ifdef KS_CUDA
        // The launcher got the device mirror: that is the copy to check.
        std::vector<unsigned char> mirror(b.dataBytes);
        if (!ksDevDownload(mirror.data(), b.dev, b.dataBytes).empty() ||
            std::memcmp(mirror.data(), pristine.bytes[i].data(), b.dataBytes) != 0)
            return b.name;
#endif
    }
    return {};
}

// A buffer whose device red zone changed: "out (byte 12 past the end)".
// Host buffers end at a guard page instead, which faults at once.
std::string wrotePastEnd(Case& c) {
#ifdef KS_CUDA
    for (auto& b : c.buffers) {
        bool intact = true;
        const std::string where = ksDevRedZone(b.dev, b.dataBytes, &intact);
        if (!intact || !where.empty()) return b.name + " (" + (where.empty() ? "its red zone is unreadable" : where) + ")";
    }
#else
    (void)c;
#endif
    return {};
}

double callLimit(double referenceSeconds) {
    // A candidate hundreds of times slower than the naive reference is not worth
    // waiting for; the problem's limit caps it.
    return std::min(KS_CALL_TIMEOUT_S, std::max(2.0, 200.0 * referenceSeconds));
}

void flushCaches(Case& c) {
#if defined(KS_CUDA)
    (void)c; // callKernel flushes the device's L2 itself, after the outputs went up
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

int run() {
    installHandlers();
    const double start = now();
    Json r;
    setPhase("loading kernels");
    std::vector<Kernel> kernels;
    kernels.push_back({"reference", "build/reference.so", nullptr, false});
    for (int i = 0; i < KS_NUM_BASELINES; ++i)
        kernels.push_back({KS_BASELINES[i], std::string("build/baseline_") + KS_BASELINES[i] + ".so", nullptr, false});
    Kernel candidate{"candidate", "build/candidate.so", nullptr, true};
    for (auto& k : kernels)
        if (std::string err = loadKernel(k); !err.empty()) {
            r.status = "infra_error";
            r.message = "the problem's " + k.name + " failed to load: " + err;
            writeResult(r, "");
            return 0;
        }
    if (std::string err = loadKernel(candidate); !err.empty()) {
        r.status = "compile_error";
        r.message = err;
        writeResult(r, readFileTail("build/candidate.log", 16000));
        return 0;
    }
    const Kernel& reference = kernels[0];
#ifdef KS_CUDA
    setPhase("starting the device");
    if (std::string err = ksDevInit(); !err.empty()) {
        r.status = "infra_error";
        r.message = "the GPU host cannot run the job: " + err;
        writeResult(r, "");
        return 0;
    }
#endif
    r.setupSeconds = now() - start;

    // ---- correctness: every check shape x every seed ----
    const double checkStart = now();
    std::string firstFailure;
    for (int s = 0; s < KS_NUM_CHECK_SHAPES && r.status == "ok"; ++s) {
        for (int k = 0; k < KS_NUM_SEEDS && r.status == "ok"; ++k) {
            const KsShape& shape = KS_CHECK_SHAPES[s];
            const uint64_t seed = KS_SEEDS[k];
            Case c;
            if (std::string err = buildCase(shape.sizes, mixSeed(seed, static_cast<uint64_t>(s)), c); !err.empty()) {
                r.status = "infra_error";
                r.message = std::string("check shape ") + shape.name + " does not fit on the device: " + err;
                break;
            }
            const std::string sizesJson = ks_size_json(c);
            Snapshot pristine;
            pristine.take(c, false);

            char phase[200];
            std::snprintf(phase, sizeof phase, "reference on check shape %s seed %" PRIu64, shape.name, seed);
            setPhase(phase);
            for (auto& b : c.buffers) if (b.output) poison(b, 0);
            double refSeconds = 0;
            if (std::string f = callKernel(reference, c, KS_CALL_TIMEOUT_S, &refSeconds); !f.empty()) {
                r.status = "infra_error";
                r.message = "the reference failed (" + f + ") on shape " + shape.name;
                break;
            }
            r.kernelSeconds += refSeconds;
            Snapshot expected;
            expected.take(c, true);
            if (std::string m = modifiedInput(c, pristine); !m.empty()) {
                r.status = "infra_error";
                r.message = "the reference modified its input " + m;
                break;
            }

            // Two candidate runs, different poisons.
            std::vector<Snapshot> runs(2);
            std::string failure;
            std::string modified, pastEnd;
            for (int run = 0; run < 2 && failure.empty() && modified.empty(); ++run) {
                std::snprintf(phase, sizeof phase, "candidate on check shape %s seed %" PRIu64 " (call %d)", shape.name, seed, run + 1);
                setPhase(phase);
                for (auto& b : c.buffers) if (b.output) poison(b, run);
                double t = 0;
                failure = callKernel(candidate, c, callLimit(refSeconds), &t);
                r.kernelSeconds += t;
                modified = modifiedInput(c, pristine);
                if (failure.empty() && modified.empty()) pastEnd = wrotePastEnd(c);
                runs[run].take(c, true);
            }
            if (failure == "oom") { r.status = "oom"; r.message = std::string("the candidate ran out of memory on shape ") + shape.name; break; }
            if (!failure.empty()) { r.status = "runtime_error"; r.message = "the candidate " + callFailureText(failure) + " on shape " + shape.name; break; }
            if (!pastEnd.empty()) {
                r.status = "wrong_answer";
                r.message = std::string("shape ") + shape.name + " seed " + std::to_string(seed) + ": the candidate wrote past the end of " + pastEnd;
                break;
            }
            if (!modified.empty()) {
                Comparison cmp;
                cmp.kind = "modified_input";
                r.checks.push_back(checkJson(shape.name, sizesJson, seed, modified, cmp, 0, "the candidate wrote into input " + modified));
                r.status = "wrong_answer";
                r.message = std::string("shape ") + shape.name + " seed " + std::to_string(seed) + ": the candidate wrote into its input " + modified;
                break;
            }
            // Compare: first run against the reference; second for poison and bits.
            for (size_t i = 0; i < c.buffers.size(); ++i) {
                Buffer& b = c.buffers[i];
                if (!b.output) continue;
                Buffer second = b; // view on the second run's bytes
                second.data = runs[1].bytes[i].data();
                Buffer first = b;
                first.data = runs[0].bytes[i].data();
                Comparison cmp = compareOutput(first, expected.bytes[i], &runs[1].bytes[i], &second, KS_TOLERANCE[static_cast<int>(b.dt)][0], KS_TOLERANCE[static_cast<int>(b.dt)][1]);
                r.checks.push_back(checkJson(shape.name, sizesJson, seed, b.name, cmp, b.count, ""));
                if (cmp.kind != "ok" && firstFailure.empty()) firstFailure = describeFailure(shape.name, seed, b.name, cmp, b.count);
            }
        }
    }
    r.checkSeconds = now() - checkStart;
    if (r.status == "ok" && !firstFailure.empty()) {
        r.status = "wrong_answer";
        r.message = firstFailure;
    }
    if (r.status != "ok" || KS_CHECK_ONLY) {
        if (r.status == "ok") r.message = "correct on every check case (timing not requested)";
        writeResult(r, "");
        return 0;
    }

    // ---- timing: candidate and baselines interleaved, cold caches ----
    // The executor may hand over a lock (fd in KS_TIMING_LOCK_FD) that makes
    // timing phases of concurrent jobs take turns; it is released at exit.
    if (const char* lockFd = std::getenv("KS_TIMING_LOCK_FD")) {
        const double waitStart = now();
        setPhase("waiting for the timing lock");
        while (flock(std::atoi(lockFd), LOCK_EX) != 0 && errno == EINTR) {
        }
        r.lockWaitSeconds = now() - waitStart;
    }
    const double timeStart = now();
    std::vector<double> logSpeedups;
    for (int s = 0; s < KS_NUM_TIME_SHAPES && r.status == "ok"; ++s) {
        const KsShape& shape = KS_TIME_SHAPES[s];
        Case c;
        if (std::string err = buildCase(shape.sizes, mixSeed(KS_TIME_SEED, 1000u + static_cast<uint64_t>(s)), c); !err.empty()) {
            r.status = "infra_error";
            r.message = std::string("timing shape ") + shape.name + " does not fit on the device: " + err;
            break;
        }
        Snapshot pristine;
        pristine.take(c, false);
        char phase[200];
        std::snprintf(phase, sizeof phase, "reference on timing shape %s", shape.name);
        setPhase(phase);
        for (auto& b : c.buffers) if (b.output) poison(b, 0);
        double refSeconds = 0;
        if (std::string f = callKernel(reference, c, KS_CALL_TIMEOUT_S, &refSeconds); !f.empty()) {
            r.status = "infra_error";
            r.message = "the reference failed (" + f + ") on timing shape " + shape.name;
            break;
        }
        r.kernelSeconds += refSeconds;
        Snapshot expected;
        expected.take(c, true);

        // The candidate's first call on the production shape is checked like a check case.
        std::snprintf(phase, sizeof phase, "candidate on timing shape %s", shape.name);
        setPhase(phase);
        for (auto& b : c.buffers) if (b.output) poison(b, 0);
        double candSeconds = 0;
        std::string failure = callKernel(candidate, c, callLimit(refSeconds), &candSeconds);
        r.kernelSeconds += candSeconds;
        if (failure == "oom") { r.status = "oom"; r.message = std::string("the candidate ran out of memory on timing shape ") + shape.name; break; }
        if (!failure.empty()) { r.status = "runtime_error"; r.message = "the candidate " + callFailureText(failure) + " on timing shape " + shape.name; break; }
        Snapshot golden;
        golden.take(c, true);
        for (size_t i = 0; i < c.buffers.size(); ++i) {
            if (!c.buffers[i].output) continue;
            Comparison cmp = compareOutput<Buffer>(c.buffers[i], expected.bytes[i], nullptr, nullptr, KS_TOLERANCE[static_cast<int>(c.buffers[i].dt)][0], KS_TOLERANCE[static_cast<int>(c.buffers[i].dt)][1]);
            if (cmp.kind != "ok") {
                r.checks.push_back(checkJson(shape.name, ks_size_json(c), KS_TIME_SEED, c.buffers[i].name, cmp, c.buffers[i].count, "timing shape"));
                r.status = "wrong_answer";
                r.message = describeFailure(shape.name, KS_TIME_SEED, c.buffers[i].name, cmp, c.buffers[i].count);
            }
        }
        if (r.status != "ok") break;

        std::vector<Kernel> timed = kernels;
        timed.push_back(candidate);
        const size_t candIndex = timed.size() - 1;
        std::vector<std::vector<double>> samples(timed.size());
        // Warm-up: a few calls of each, also measuring how long a call takes.
        std::vector<double> estimate(timed.size(), 0);
        int warmups = 0;
        // Inputs stay read-only for all warm-up and timed calls (one mprotect, not one per call).
        protectInputs(c, true);
        const double warmStart = now();
        while (warmups < KS_MIN_WARMUP || (now() - warmStart < KS_WARMUP_S && warmups < 100)) {
            for (size_t k = 0; k < timed.size(); ++k) {
                for (auto& b : c.buffers) if (b.output) poison(b, 0);
                double t = 0;
                if (std::string f = callKernel(timed[k], c, callLimit(refSeconds), &t, false); !f.empty()) {
                    r.status = "runtime_error";
                    r.message = timed[k].name + " " + callFailureText(f) + " during warm-up";
                    break;
                }
                estimate[k] = t;
                r.kernelSeconds += t;
            }
            ++warmups;
            if (r.status != "ok") break;
        }
        if (r.status != "ok") break;
        double perRound = 0;
        for (double e : estimate) perRound += e;
        int reps = perRound > 0 ? static_cast<int>(KS_TIME_BUDGET_S / perRound) : KS_MAX_REPS;
        reps = std::max(KS_MIN_REPS, std::min(KS_MAX_REPS, reps));

        // Poisoned images of the outputs, copied in before each call (a copy is
        // much cheaper than writing the pattern element by element).
        std::vector<Snapshot> poisoned(2);
        for (int which = 0; which < 2; ++which) {
            for (auto& b : c.buffers) if (b.output) poison(b, which);
            poisoned[which].take(c, true);
        }
#ifdef KS_CUDA
        // The same images on the device: a timed call then costs device copies
        // (poison in, output compared) rather than two PCIe transfers.
        struct DeviceImages {
            void* poison[2] = {nullptr, nullptr};
            void* golden = nullptr;
        };
        std::vector<DeviceImages> onDevice(c.buffers.size());
        for (size_t i = 0; i < c.buffers.size() && r.status == "ok"; ++i) {
            if (!c.buffers[i].output) continue;
            std::string err;
            void** slots[3] = {&onDevice[i].poison[0], &onDevice[i].poison[1], &onDevice[i].golden};
            const unsigned char* images[3] = {poisoned[0].bytes[i].data(), poisoned[1].bytes[i].data(), golden.bytes[i].data()};
            for (int k = 0; k < 3 && err.empty(); ++k) {
                err = ksDevAlloc(c.buffers[i].dataBytes, slots[k]);
                if (err.empty()) err = ksDevUpload(*slots[k], images[k], c.buffers[i].dataBytes);
            }
            if (!err.empty()) {
                r.status = "infra_error";
                r.message = std::string("timing shape ") + shape.name + ": no room on the device for the timing images: " + err;
            }
        }
        struct FreeImages {
            std::vector<DeviceImages>& images;
            ~FreeImages() {
                for (auto& d : images) {
                    ksDevFree(d.poison[0]);
                    ksDevFree(d.poison[1]);
                    ksDevFree(d.golden);
                }
                gOutputsStayOnDevice = false;
            }
        } freeImages{onDevice};
        gOutputsStayOnDevice = true;
#endif
        for (int rep = 0; rep < reps && r.status == "ok"; ++rep) {
            for (size_t j = 0; j < timed.size(); ++j) {
                // Rotate the order so no kernel always runs right after another.
                const size_t k = (j + static_cast<size_t>(rep)) % timed.size();
                double p0 = now();
                for (size_t i = 0; i < c.buffers.size(); ++i) {
                    if (!c.buffers[i].output) continue;
#ifdef KS_CUDA
                    if (std::string err = ksDevCopy(c.buffers[i].dev, onDevice[i].poison[rep & 1], c.buffers[i].dataBytes); !err.empty()) {
                        r.status = "runtime_error";
                        r.message = "poisoning " + c.buffers[i].name + " before a timed call failed on the device (" + err + ")";
                    }
#else
                    std::memcpy(c.buffers[i].data, poisoned[rep & 1].bytes[i].data(), c.buffers[i].dataBytes);
#endif
                }
                if (r.status != "ok") break;
                double p1 = now();
                flushCaches(c);
                r.poisonSeconds += p1 - p0;
                r.flushSeconds += now() - p1;
                double t = 0;
                if (std::string f = callKernel(timed[k], c, callLimit(refSeconds), &t, false); !f.empty()) {
                    r.status = "runtime_error";
                    r.message = timed[k].name + " " + callFailureText(f) + " while timed";
                    break;
                }
                samples[k].push_back(t);
                r.kernelSeconds += t;
                if (k == candIndex) {
                    const double v0 = now();
                    // Every timed output must be the verified one, bit for bit.
                    for (size_t i = 0; i < c.buffers.size(); ++i) {
                        if (!c.buffers[i].output) continue;
#ifdef KS_CUDA
                        bool same = false;
                        const std::string err = ksDevEqual(c.buffers[i].dev, onDevice[i].golden, c.buffers[i].dataBytes, &same);
                        if (!err.empty()) {
                            r.status = "runtime_error";
                            r.message = "comparing a timed " + c.buffers[i].name + " on the device failed (" + err + ")";
                            continue;
                        }
                        const bool differs = !same;
#else
                        const bool differs = std::memcmp(c.buffers[i].data, golden.bytes[i].data(), c.buffers[i].dataBytes) != 0;
#endif
                        if (differs) {
                            r.status = "wrong_answer";
                            r.message = std::string("timed call ") + std::to_string(rep + 1) + " on shape " + shape.name +
                                        " produced a different " + c.buffers[i].name + " than the verified call";
                        }
                    }
                    r.verifySeconds += now() - v0;
                }
            }
        }
        protectInputs(c, false);
        if (r.status != "ok") break;
        if (std::string m = modifiedInput(c, pristine); !m.empty()) {
            r.status = "wrong_answer";
            r.message = "input " + m + " changed during timing";
            break;
        }
        const double baseMedian = stats(samples[0]).median;
        const double candMedian = stats(samples[candIndex]).median;
        const double speedup = candMedian > 0 ? baseMedian / candMedian : 0;
        if (speedup > 0) logSpeedups.push_back(std::log(speedup));
        std::string t = "{\"shape\":" + q(shape.name) + ",\"sizes\":" + ks_size_json(c) + ",\"bytes\":" + num(ks_bytes(c)) +
                        ",\"flops\":" + num(ks_flops(c)) + ",\"warmup\":" + std::to_string(warmups) + ",\"reps\":" + std::to_string(reps) +
                        ",\"cache\":\"" KS_CACHE_EVICTION "\",\"speedup\":" + num(speedup) + ",\"candidate\":" + statsJson("candidate", samples[candIndex]) +
                        ",\"baselines\":[";
        for (size_t k = 0; k < candIndex; ++k) t += (k ? "," : "") + statsJson(timed[k].name, samples[k]);
        r.timings.push_back(t + "]}");
    }
    r.timeSeconds = now() - timeStart;
    // run.sh holds the same open file description, so exiting would not release it.
    if (const char* lockFd = std::getenv("KS_TIMING_LOCK_FD")) flock(std::atoi(lockFd), LOCK_UN);
    if (r.status == "ok") {
        double sum = 0;
        for (double l : logSpeedups) sum += l;
        r.speedup = logSpeedups.empty() ? 0 : std::exp(sum / static_cast<double>(logSpeedups.size()));
        r.implausible = r.speedup > KS_IMPLAUSIBLE_SPEEDUP;
        char msg[200];
        std::snprintf(msg, sizeof msg, "correct; %.3gx the reference%s", r.speedup,
                      r.implausible ? " (implausibly fast: review before trusting)" : "");
        r.message = msg;
    }
    setPhase("done");
    writeResult(r, "");
    return 0;
}

// The problem's own code (reference, baseline, fill) did not build: not the candidate's fault.
int problemFailed(const char* what, const char* log) {
    Json r;
    r.status = "infra_error";
    r.message = what;
    writeResult(r, readFileTail(log, 16000));
    return 0;
}

int compileFailed(const char* log) {
    Json r;
    r.status = "compile_error";
    r.message = "the candidate does not compile";
    writeResult(r, readFileTail(log, 16000));
    return 0;
}


// ------------------------------------------------------------- profiling ---
// Runs after `harness run` found the candidate correct; profiles it on the
// first timing shape. The numbers inform a diagnosis, never a score.
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

// Every thread of this process now: the candidate's thread pool exists after its first call.
std::vector<int> threadIds() {
    std::vector<int> ids;
    if (DIR* d = opendir("/proc/self/task")) {
        while (dirent* e = readdir(d))
            if (e->d_name[0] != '.') ids.push_back(std::atoi(e->d_name));
        closedir(d);
    }
    return ids;
}

int profileRun(const std::string& what, const char* library) {
#ifdef KS_CUDA
    (void)what;
    (void)library;
    std::fprintf(stderr, "the harness's profiling steps count CPU events; profile CUDA launchers with ncu\n");
    return 3;
#endif
    installHandlers();
    Kernel candidate{"candidate", library ? library : "build/candidate.so", nullptr, true};
    if (std::string err = loadKernel(candidate); !err.empty()) {
        std::fprintf(stderr, "%s\n", err.c_str());
        return 3;
    }
    if (KS_NUM_TIME_SHAPES == 0) {
        std::fprintf(stderr, "the problem has no timing shape to profile\n");
        return 3;
    }
    setPhase("profiling: building the first timing shape");
    Case c;
    if (std::string err = buildCase(KS_TIME_SHAPES[0].sizes, mixSeed(KS_TIME_SEED, 1000u), c); !err.empty()) {
        std::fprintf(stderr, "%s\n", err.c_str());
        return 3;
    }
    if (what == "once") {
        setPhase("profiling: one candidate call");
        if (!callKernel(candidate, c, KS_CALL_TIMEOUT_S, nullptr).empty()) return 4;
        setPhase("done");
        return 0;
    }
    if (what != "counters") {
        std::fprintf(stderr, "harness profile: unknown step '%s' (counters or once)\n", what.c_str());
        return 2;
    }
    setPhase("profiling: warm-up call");
    double t = 0;
    if (!callKernel(candidate, c, KS_CALL_TIMEOUT_S, &t).empty()) return 4;
    const std::vector<int> tids = threadIds();
    const int n = sizeof kCounters / sizeof kCounters[0];
    std::vector<std::vector<int>> fds(n);
    std::string missing;
    bool anyHardware = false;
    std::string hwReason;
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
            const int fd = static_cast<int>(syscall(SYS_perf_event_open, &a, tid, -1, -1, 0));
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
    // Enough calls for about 0.2 s of counting, at least 3.
    const int calls = std::max(3, std::min(1000, t > 0 ? static_cast<int>(0.2 / t) : 3));
    setPhase("profiling: counted calls");
    double wall = 0;
    for (int i = 0; i < calls; ++i) {
        flushCaches(c);
        for (auto& v : fds) for (int fd : v) ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
        double one = 0;
        const std::string f = callKernel(candidate, c, KS_CALL_TIMEOUT_S, &one, false);
        for (auto& v : fds) for (int fd : v) ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
        if (!f.empty()) return 4;
        wall += one;
    }
    std::string perCall;
    for (int e = 0; e < n; ++e) {
        if (fds[e].empty()) continue;
        double total = 0;
        for (int fd : fds[e]) {
            uint64_t v = 0;
            if (read(fd, &v, sizeof v) == static_cast<ssize_t>(sizeof v)) total += static_cast<double>(v);
            close(fd);
        }
        perCall += std::string(perCall.empty() ? "" : ",") + q(kCounters[e].name) + ":" + num(total / calls);
    }
    std::string reason;
    if (!anyHardware)
        reason = "perf_event_open refused every hardware event (" + hwReason + "; kernel.perf_event_paranoid=" + perfParanoid() +
                 "): virtual machines without a virtual PMU and containers that filter the call have none; cachegrind works anywhere";
    mkdir("profile", 0755);
    FILE* f = std::fopen("profile/counters.json", "w");
    if (!f) return 3;
    const std::string out = "{\"available\":" + std::string(anyHardware ? "true" : "false") + ",\"reason\":" + q(reason) +
                            ",\"calls\":" + std::to_string(calls) + ",\"threads\":" + std::to_string(tids.size()) +
                            ",\"seconds_per_call\":" + num(wall / calls) + ",\"per_call\":{" + perCall + "},\"missing\":{" + missing + "}}\n";
    std::fputs(out.c_str(), f);
    std::fclose(f);
    setPhase("done");
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "run") return run();
    if (mode == "profile" && argc > 2) return profileRun(argv[2], argc > 3 ? argv[3] : nullptr);
    if (mode == "compile-failed" && argc > 2) return compileFailed(argv[2]);
    if (mode == "problem-failed" && argc > 3) return problemFailed(argv[2], argv[3]);
    std::fprintf(stderr, "usage: harness run | profile counters|once | compile-failed LOG | problem-failed WHAT LOG\n");
    return 2;
}
