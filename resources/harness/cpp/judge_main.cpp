// Kernelwright's judge for C++ candidates.
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
// Built with -DKW_CUDA (the cuda backend), kernels are launchers taking device
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
// result.json: run.sh removes it unless the judge exited 0, and Kernelwright
// classifies the crash from build/phase and build/run.err.
//
// Sections, one file each: judge_buffers.h, judge_result.h, judge_runners.h,
// judge_cases.h; the run and main() are here.
#include "harness_common.h"
#include "judge_protocol.h"
#ifdef KW_CUDA
#include "device_mirror.h"
#endif

#include <dirent.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
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
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include <map>
#include <memory>
#include <random>
#include <tuple>

#include "judge_buffers.h"
#include "runner_landlock.h"

// The generated, problem-specific part: KW_* constants, kw_build_case,
// kw_bytes, kw_flops, kw_size_json, kw_case_bytes (a shape's bytes before
// anything is allocated). The kernels' call is in runner_call.inc.
#define KW_DATA(b) ((b).data)
#define KW_JUDGE 1
#include "harness_problem.inc"

// In this order: each section uses the ones before it.
#include "judge_result.h"

#include "judge_runners.h"

#include "judge_cases.h"

namespace {

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
#ifdef KW_CUPTI
    // CUPTI in the candidate's runner serves the breakdown only: a runner that
    // does not start with it starts again without (a candidate that cannot
    // load fails the same way twice), and the breakdown then says why.
    Json first = res;
    if (startRunner(first, k.candidate, "build/candidate.so", std::max(30.0, KW_CALL_TIMEOUT_S))) {
        res = first;
        return true;
    }
    killRunner(k.candidate);
    k.candidate = Runner{};
    k.candidate.name = "candidate";
    k.candidate.candidate = true;
    k.candidate.cupti = false;
#endif
    return startRunner(res, k.candidate, "build/candidate.so", std::max(30.0, KW_CALL_TIMEOUT_S));
}

// The candidate on a case the reference answered: two calls, each over its
// own poison (unwritten elements and nondeterminism show), their outputs in
// `runs`.
bool candidateTwice(Kernels& k, SharedCase& sc, Json& res, const std::string& where, double refSeconds,
                    std::vector<std::vector<std::vector<unsigned char>>>& runs) {
    if (!ensureCandidate(k, res) || !shareCase(k.candidate, sc, res, where)) return false;
    runs.assign(2, {});
    for (int call = 0; call < 2; ++call) {
        poisonOutputs(sc, k.candidate, call);
        if (!callKernel(k.candidate, {sc.id}, callLimit(refSeconds), nullptr, res,
                        where + " (call " + std::to_string(call + 1) + ")"))
            return false;
        runs[call] = outputsOf(sc.c);
    }
    forgetCase(k.candidate, sc);
    return true;
}

// Check shapes: every shape x every seed, fresh inputs from the secret; the
// reference first, then the candidate twice (two poisons: unwritten elements
// and nondeterminism show).
bool checkPhase(Kernels& k, Json& res) {
    std::string firstFailure;
    for (int s = 0; s < KW_NUM_CHECK_SHAPES && res.ok(); ++s) {
        for (int seedIndex = 0; seedIndex < KW_NUM_SEEDS && res.ok(); ++seedIndex) {
            const KwShape& shape = KW_CHECK_SHAPES[s];
            const uint64_t seed = KW_SEEDS[seedIndex];
            const std::string where = std::string("on check shape ") + shape.name + " seed " + std::to_string(seed);
            SharedCase sc;
            if (std::string err = makeCase(shape.sizes, mixSeed(res.secret, mixSeed(seed, static_cast<uint64_t>(s))), sc);
                !err.empty())
                return res.fail("infra_error", "check shape " + std::string(shape.name) + " does not fit on this host: " + err);
            setPhase("reference on a check shape");
            if (!shareCase(k.reference, sc, res, where)) return false;
            poisonOutputs(sc, k.reference, 0);
            double refSeconds = 0;
            if (!callKernel(k.reference, {sc.id}, KW_CALL_TIMEOUT_S, &refSeconds, res, where)) return false;
            const auto expected = outputsOf(sc.c);
            // The reference's answer is checked before it judges anyone: the
            // same answer again, over the other poison.
            poisonOutputs(sc, k.reference, 1);
            if (!callKernel(k.reference, {sc.id}, KW_CALL_TIMEOUT_S, nullptr, res, where + " (again)")) return false;
            forgetCase(k.reference, sc);
            if (const std::string differs = referenceDisagrees(sc.c, expected, outputsOf(sc.c)); !differs.empty())
                return res.fail("infra_error",
                                "the problem's reference gave two different answers for the same inputs " + where + " (" +
                                    differs +
                                    "): it leaves elements unwritten, reads its output buffer or keeps state between calls; "
                                    "fix the reference (no candidate was charged)");

            setPhase("candidate on a check shape");
            std::vector<std::vector<std::vector<unsigned char>>> runs;
            if (!candidateTwice(k, sc, res, where, refSeconds, runs)) return false;
            compareCase(res, sc.c, expected, &runs[0], &runs[1], shape.name, seed, "", firstFailure);
        }
    }
    if (res.ok() && !firstFailure.empty()) return res.fail("wrong_answer", firstFailure);
    return res.ok();
}

// The check on wide inputs: every check shape once more, the float inputs
// whose fill declares a domain drawn from all of it, beyond the fill's range.
// A kernel fitted to the fill's range (a softmax that subtracts the fill's
// upper bound instead of each row's maximum, an exp that is right only on
// the fill's arguments) fails here. Where the reference itself answers
// infinities or NaNs, the inputs left the operator's domain: that shape's
// wide case decides nothing (counted in the result).
bool widePhase(Kernels& k, Json& res) {
    std::string firstFailure;
    for (int s = 0; s < KW_NUM_CHECK_SHAPES && res.ok(); ++s) {
        const KwShape& shape = KW_CHECK_SHAPES[s];
        const std::string where = std::string("on check shape ") + shape.name + " with wide inputs";
        SharedCase sc;
        bool widened = false;
        if (std::string err =
                makeWideCase(shape.sizes, mixSeed(res.secret, mixSeed(0x57494445ull, static_cast<uint64_t>(s))), sc, widened);
            !err.empty())
            return res.fail("infra_error", "check shape " + std::string(shape.name) + " does not fit on this host: " + err);
        if (!widened) return true;
        setPhase("reference on wide inputs");
        if (!shareCase(k.reference, sc, res, where)) return false;
        poisonOutputs(sc, k.reference, 0);
        double refSeconds = 0;
        if (!callKernel(k.reference, {sc.id}, KW_CALL_TIMEOUT_S, &refSeconds, res, where)) return false;
        forgetCase(k.reference, sc);
        const auto expected = outputsOf(sc.c);
        if (anyNonFinite(sc.c, expected)) {
            ++res.wideOutsideDomain;
            continue;
        }
        ++res.wideChecked;
        setPhase("candidate on wide inputs");
        std::vector<std::vector<std::vector<unsigned char>>> runs;
        if (!candidateTwice(k, sc, res, where, refSeconds, runs)) return false;
        compareCase(res, sc.c, expected, &runs[0], &runs[1], shape.name, 0, "wide inputs", firstFailure, "wide inputs");
    }
    if (res.ok() && !firstFailure.empty())
        return res.fail("wrong_answer",
                        "with inputs beyond the fill's range (drawn from the domain problem.json declares): " + firstFailure +
                            "; a kernel must hold on the operator's whole domain, not only on the "
                            "values the fill draws");
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

#ifdef KW_CUDA
// One more call of the candidate on `sc` under CUPTI's activity tracing, in
// its own runner: every kernel, copy and memset it launched, grouped by name
// -> profile/breakdown.json (the torch judge's schema, docs/profiling.md).
// The runner's word: it informs a diagnosis, never a score. A runner that
// cannot trace leaves profile/unavailable-breakdown.txt saying why.
void profileBreakdown(Runner& cand, SharedCase& sc, const KwShape& shape, Json& res, double limitS) {
    mkdir("profile", 0755);
    const auto unavailable = [](const std::string& why) {
        if (FILE* f = freshFile("profile/unavailable-breakdown.txt")) {
            std::fprintf(f, "%s\n", why.c_str());
            std::fclose(f);
        }
    };
    if (!cand.cupti) return unavailable("the candidate's runner did not start with CUPTI and was started without it");
    const std::vector<uint32_t> cases{sc.id};
    if (std::string err = deviceBefore(cases); !err.empty()) return unavailable("the judge's device work failed: " + err);
    CallMsg m{};
    m.type = Profile;
    m.seq = ++cand.seq;
    m.count = 1;
    m.caseId[0] = sc.id;
    thaw(cand);
    ShortMsg done{};
    std::vector<ShortMsg> records;
    bool timedOut = false;
    const bool answered = send(cand.sock, &m, sizeof m, MSG_NOSIGNAL) == static_cast<ssize_t>(sizeof m) &&
                          receive(cand, Done, m.seq, limitS, done, &timedOut, &records);
    if (!answered) {
        if (timedOut) killRunner(cand);
        return unavailable("the candidate's runner did not answer the profiled call");
    }
    if (!freeze(cand, res)) return unavailable("the candidate's runner could not be stopped after the profiled call");
    std::string violation;
    if (std::string err = deviceAfter(cases, &violation); !err.empty() || !violation.empty()) {
        if (!violation.empty()) res.fail("wrong_answer", "the candidate " + violation + " in its profiled call");
        return unavailable("the profiled call left the inputs changed or the device failing");
    }
    done.text[sizeof done.text - 1] = 0;
    if (done.status != CallOk) return unavailable(std::string("no breakdown: ") + (done.text[0] ? done.text : "the call failed"));
    struct Entry {
        std::string kind;
        int calls = 0;
        double us = 0;
    };
    std::map<std::string, Entry> byName;
    double total = 0;
    int launches = 0;
    for (ShortMsg& rec : records) {
        rec.text[sizeof rec.text - 1] = 0;
        char* rest = nullptr;
        const unsigned long long ns = std::strtoull(rec.text, &rest, 10);
        const std::string name = rest && *rest == ' ' ? std::string(rest + 1) : std::string("(unnamed)");
        Entry& e = byName[name];
        e.kind = rec.status == 1 ? "copy" : rec.status == 2 ? "memset" : "kernel";
        e.calls += 1;
        e.us += static_cast<double>(ns) * 1e-3;
        total += static_cast<double>(ns) * 1e-3;
        ++launches;
    }
    std::vector<std::pair<std::string, Entry>> sorted(byName.begin(), byName.end());
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second.us > b.second.us; });
    if (sorted.size() > 64) sorted.resize(64);
    std::string j = "{\"schema\":1,\"source\":\"cupti\",\"shape\":" + q(shape.name) + ",\"sizes\":" + kw_size_json(sc.c) +
                    ",\"launches\":" + std::to_string(launches) + ",\"device_us\":" + num(total) + ",\"kernels\":[";
    for (size_t i = 0; i < sorted.size(); ++i)
        j += std::string(i ? "," : "") + "{\"name\":" + q(sorted[i].first) + ",\"kind\":\"" + sorted[i].second.kind +
             "\",\"calls\":" + std::to_string(sorted[i].second.calls) + ",\"us\":" + num(sorted[i].second.us) + "}";
    if (FILE* f = freshFile("profile/breakdown.json")) {
        std::fprintf(f, "%s]}\n", j.c_str());
        std::fclose(f);
    }
}
#endif

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
    Json scratch;           // a failure here is not the verdict's business
    useOutputsOf(sc, cand); // its own outputs are the ones flushed
    for (int i = 0; i < calls; ++i) {
        flushCaches(sc.c);
        for (auto& v : fds)
            for (int fd : v) ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
        double one = 0;
        const bool ok = callKernel(cand, {sc.id}, KW_CALL_TIMEOUT_S, &one, scratch, "while counting");
        for (auto& v : fds)
            for (int fd : v) ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
        if (!ok) {
            for (auto& v : fds)
                for (int fd : v) close(fd);
            if (FILE* f = freshFile("profile/unavailable-counters.txt")) {
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
    if (FILE* f = freshFile("profile/counters.json")) {
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
// the shape's verdict is decided; `writable` (cachegrind: profile/ and a
// temporary folder) keeps its writes and its children's there (Landlock),
// and whatever it left running is killed before any other runner is timed
// again (`others`: the runners that stay). The judge writes result.json
// after it is gone.
void profileUnderWrapper(const std::string& so, const std::vector<std::string>& wrapper, SharedCase& sc, Json& res,
                         const std::vector<const Runner*>& others, const std::string& tool = "cachegrind",
                         const std::vector<std::string>* writable = nullptr) {
    Runner r;
    r.name = "candidate (profiled)";
    r.candidate = true;
    Json scratch;
    if (!spawn(r, so, wrapper, false, writable).empty()) return;
    ShortMsg hello{};
    bool timedOut = false;
    const double limit = std::max(600.0, 50 * KW_CALL_TIMEOUT_S);
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
        if (FILE* f = freshFile(("profile/unavailable-" + tool + ".txt").c_str())) {
            std::fprintf(f, "the profiled call failed: %s\n%s\n", scratch.message.c_str(), stderrText(r).substr(0, 300).c_str());
            std::fclose(f);
        }
    kill(-r.pid, SIGKILL); // its process group: whatever it started
    killRunner(r);
    if (writable) {
        const std::string err = stderrText(r);
        const size_t at = err.find(kUnconfinedWrites);
        res.profilerFiles = at == std::string::npos
                                ? "own folder"
                                : "not confined: " + err.substr(at + std::strlen(kUnconfinedWrites),
                                                                err.find('\n', at) - at - std::strlen(kUnconfinedWrites));
    }
    res.straysKilled += killStrays(others);
}

struct Options {
    bool counters = false;
    std::string cachegrindSo;
    std::vector<std::string> cachegrindWrapper;
    std::string ncu;        // Nsight Compute's command line (cuda jobs at the ncu level)
    std::string ncuMetrics; // the metrics it collects, comma-separated
};

#ifdef KW_CUDA
// One candidate call in a runner of its own started under Nsight Compute, after
// the timed rounds of the last timing shape (the timing lock still held: its
// kernel replays disturb no other job's clock): the raw metrics of up to 16
// kernels of that call -> profile/ncu.csv (the torch judge's format). Without
// a seccomp filter, as under cachegrind; the verdict is decided by then. A
// host that keeps the counters from this user, or an ncu that profiled
// nothing, leaves profile/unavailable-ncu.txt saying why.
void profileUnderNcu(const Options& opt, SharedCase& sc, Json& res, const std::vector<const Runner*>& others) {
    mkdir("profile", 0755); // run.sh cleared it: a note found afterwards is the profiled call's
    const std::string log = "build/ncu.log";
    // ncu keeps its settings under HOME; a runner's environment has none.
    char cwd[4096] = "";
    const std::string home = std::string(getcwd(cwd, sizeof cwd) ? cwd : ".") + "/build/home";
    mkdir(home.c_str(), 0755);
    profileUnderWrapper("build/candidate.so",
                        {"/usr/bin/env", "HOME=" + home, opt.ncu, "--csv", "--page", "raw", "--metrics", opt.ncuMetrics,
                         "--target-processes", "all", "--launch-count", "16", "--log-file", log},
                        sc, res, others, "ncu");
    const std::string out = readFileTail(log.c_str(), 8 << 20);
    std::string tail = out.size() > 1500 ? out.substr(out.size() - 1500) : out;
    for (char& c : tail)
        if (c == '\n') c = ' ';
    // Appended: the profiled call's own failure, when there was one, comes first.
    const auto note = [](const std::string& why) {
        if (FILE* f = freshFile("profile/unavailable-ncu.txt", true)) {
            std::fprintf(f, "%s\n", why.c_str());
            std::fclose(f);
        }
    };
    if (out.find("ERR_NVGPUCTRPERM") != std::string::npos)
        return note("this host restricts the GPU's performance counters to administrators (ERR_NVGPUCTRPERM): run the "
                    "jobs as root, or load the nvidia module with NVreg_RestrictProfilingToAdminUsers=0");
    const size_t header = out.find("\"ID\",");
    if (header == std::string::npos)
        return note("ncu profiled no kernel of the candidate's call: " + (tail.empty() ? std::string("it wrote nothing") : tail));
    if (access("profile/unavailable-ncu.txt", F_OK) == 0) return note("ncu's log: " + tail);
    if (FILE* f = freshFile("profile/ncu.csv")) {
        std::fputs(out.substr(header).c_str(), f);
        std::fclose(f);
    }
}
#endif

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
// One timing shape: its pool of input sets, the warm-up, the batch size and
// the timed rounds, then its timing case for result.json.
struct ShapeTimer {
    Kernels& k;
    Json& res;
    std::mt19937_64& order;
    const std::vector<Runner*>& timed;
    size_t candIndex;
    int s;
    const KwShape& shape;
    std::string where;

    std::vector<std::unique_ptr<SharedCase>> pool;
    std::vector<std::vector<std::vector<unsigned char>>> golden;
    double refSeconds = 0, refShortest = 0, candShortest = 0;
    std::string firstFailure;
    double handoff = 0, emptyCall = 0;
    size_t poolN = 0, batch = 1;
    std::vector<size_t> last;
    std::vector<double> estimate;
    int warmups = 0, rounds = 0, planned = 0;
    std::vector<std::vector<double>> samples;

    double perCall(double t, size_t n) const { return std::max(1e-9, t - emptyCall) / static_cast<double>(n); }

    // The input sets: three first; more only where short kernels need them
    // to be batched (each set costs a reference call and a checked call of
    // the candidate before timing starts, which for a long kernel on small
    // inputs used to be most of the evaluation).
    bool addSets(size_t upTo) {
        const size_t from = pool.size();
        setPhase("building a timing shape's inputs");
        for (size_t j = from; j < upTo; ++j) {
            pool.push_back(std::make_unique<SharedCase>());
            const uint64_t seed = mixSeed(res.secret, mixSeed(1000u + static_cast<uint64_t>(s), j));
            const std::string err = j == 0 ? makeCase(shape.sizes, seed, *pool.back()) : cloneCase(*pool[0], seed, *pool.back());
            if (!err.empty())
                return res.fail("infra_error", "timing shape " + std::string(shape.name) + " does not fit on this host: " + err);
            for (Runner* r : timed)
                if (!shareCase(*r, *pool.back(), res, where)) return false;
        }
        // Each set's answer, from the reference; then the candidate's first
        // answer on it, checked like a check case.
        for (size_t j = from; j < upTo; ++j) {
            setPhase("reference on a timing shape");
            poisonOutputs(*pool[j], k.reference, 0);
            if (!callKernel(k.reference, {pool[j]->id}, KW_CALL_TIMEOUT_S, &refSeconds, res, where)) return false;
            refShortest = j == 0 ? refSeconds : std::min(refShortest, refSeconds);
            const auto expected = outputsOf(pool[j]->c);
            setPhase("candidate on a timing shape");
            poisonOutputs(*pool[j], k.candidate, 0);
            double candSeconds = 0;
            if (!callKernel(k.candidate, {pool[j]->id}, callLimit(refSeconds), &candSeconds, res, where)) return false;
            candShortest = j == 0 ? candSeconds : std::min(candShortest, candSeconds);
            if (!compareCase(res, pool[j]->c, expected, nullptr, nullptr, shape.name, j, "timing shape", firstFailure))
                return res.fail("wrong_answer", firstFailure + " (an input set of the timing shape)");
            golden.push_back(outputsOf(pool[j]->c));
        }
        return true;
    }

    // A set's bytes on the host: its buffers and every timed runner's own
    // copy of the outputs (on a device, runners share the device's copy).
    size_t caseBytes() const {
#ifdef KW_CUDA
        return pool[0]->c.totalBytes();
#else
        return pool[0]->c.totalBytes() + pool[0]->c.outputBytes() * timed.size();
#endif
    }

    bool prepare() {
        setPhase("building a timing shape's inputs");
        if (!addSets(3)) return false;
        handoff = measureHandoff(k.candidate, res);
        if (!res.ok()) return false;
        res.handoffSeconds = std::max(res.handoffSeconds, handoff);
        const double shortest = std::min(refShortest, candShortest);
        const size_t wanted =
            shortest > 0 && shortest < 8 * handoff ? static_cast<size_t>(std::ceil(8 * handoff / shortest)) + 1 : 3;
        if (!addSets(std::max<size_t>(3, std::min(wanted, poolSize(caseBytes()))))) return false;
        poolN = pool.size();
#ifndef KW_CUDA
        // Verified once per evaluation, with every timed runner holding the set.
        if (res.outputs.empty()) {
            const std::string shared = outputsShared(*pool[0], timed);
            res.outputs = shared.empty() ? "own copy per runner" : shared;
        }
#endif
#ifdef KW_CUDA
        // An empty call costs the GPU two switches between the judge's context
        // and a runner's, and the drain's probe: hundreds of microseconds,
        // beside kernels of tens. It is measured through the reference's runner
        // (the problem's own: no candidate can inflate it) and taken off every
        // call, as an empty region's cost was taken off event timings.
        emptyCall = measureHandoff(k.reference, res);
        if (!res.ok()) return false;
#else
        emptyCall = 0; // batching alone keeps the hand-off small beside a call
#endif
        last.assign(timed.size(), poolN);
        estimate.assign(timed.size(), 0);
        return true;
    }

    // One call of kernel `ki` on `batch` sets (a warm-up's: its length is the estimate).
    bool oneCall(size_t ki, size_t batch, int poisonWhich, std::vector<double>* samples, const char* stage) {
        const auto sets = pickSets(order, poolN, batch, last[ki]);
        last[ki] = sets.back();
        std::vector<uint32_t> ids;
        const double p0 = now();
        for (size_t j : sets) {
            poisonOutputs(*pool[j], *timed[ki], poisonWhich);
            ids.push_back(pool[j]->id);
        }
        const double p1 = now();
        for (size_t j : sets) flushCaches(pool[j]->c);
        res.poisonSeconds += p1 - p0;
        res.flushSeconds += now() - p1;
        double t = 0;
        const double limit =
            ki == 0 ? KW_CALL_TIMEOUT_S * static_cast<double>(batch) : callLimit(refSeconds) * static_cast<double>(batch);
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
                    return res.fail("wrong_answer", std::string(stage) + " call " + where + " (input set " + std::to_string(j) +
                                                        ") produced a different " + b.name +
                                                        " than the verified call on the same inputs");
                }
            }
        res.verifySeconds += now() - v0;
        return true;
    }

    // Every kernel a few times, also estimating a call's length; then the batch and the rounds.
    int warmUp() {
        setPhase("warm-up on a timing shape");
        const double warmStart = now();
        while (res.ok() && (warmups < KW_MIN_WARMUP || (now() - warmStart < KW_WARMUP_S && warmups < 100))) {
            for (size_t ki = 0; ki < timed.size() && res.ok(); ++ki)
                oneCall(ki, 1, static_cast<int>(order() & 1), nullptr, "a warm-up");
            ++warmups;
        }
        if (!res.ok()) return 0;
        // Kernels shorter than a few hand-offs run in batches over distinct sets.
        double shortest = estimate[0];
        for (double e : estimate) shortest = std::min(shortest, e);
        if (shortest > 0 && shortest < 8 * handoff)
            batch = std::min(poolN, static_cast<size_t>(std::ceil(8 * handoff / shortest)));
        double perRound = 0;
        for (double e : estimate) perRound += e * static_cast<double>(batch);
        int reps = perRound > 0 ? static_cast<int>(KW_TIME_BUDGET_S / perRound) : KW_MAX_REPS;
        return std::max(KW_MIN_REPS, std::min(KW_MAX_REPS, reps));
    }

    // Checks the candidate's outputs of a round against the reference's answers.
    void checkCandidate(int rep, const std::vector<size_t>& sets,
                        const std::vector<std::vector<std::vector<unsigned char>>>& answer,
                        std::vector<std::vector<std::vector<unsigned char>>>& produced, bool fromCopies, double& v0) {
        const double c0 = now();
        for (size_t x = 0; x < sets.size() && res.ok(); ++x) {
            Case& c = pool[sets[x]]->c;
            for (size_t i = 0; i < c.buffers.size() && res.ok(); ++i) {
                Buffer& b = c.buffers[i];
                if (!b.output) continue;
                Buffer view = b;
                if (fromCopies) view.data = produced[x][i].data();
                const double rtol = KW_TOLERANCE[static_cast<int>(b.dt)][0], atol = KW_TOLERANCE[static_cast<int>(b.dt)][1];
                if (withinTolerance(view, answer[x][i].data(), rtol, atol)) continue;
                const Comparison cmp = compareOutput<Buffer>(view, answer[x][i], nullptr, nullptr, rtol, atol);
                res.checks.push_back(
                    checkJson(shape.name, kw_size_json(c), static_cast<uint64_t>(rep), b.name, cmp, b.count, "timed call"));
                res.fail("wrong_answer", "a timed call with fresh inputs: " +
                                             describeFailure(shape.name, static_cast<uint64_t>(rep), b.name, cmp, b.count));
            }
        }
        v0 += now() - c0;
    }

    // Every round gives its sets fresh contents first, so no kernel is ever
    // timed on inputs it saw before (nothing to replay); the reference's
    // answer in the same round is what the candidate's is checked against.
    bool timedRounds(int reps) {
        setPhase("timing");
        samples.assign(timed.size(), {});
        const double loopStart = now();
        size_t lastSet = poolN;
        planned = reps;
        // The planned rounds, then more while the speedup's interval is wide
        // (preciseEnough), up to the most rounds allowed.
        for (int rep = 0; rep < std::max(reps, KW_MAX_REPS) && res.ok(); ++rep) {
            // A round's bookkeeping (fresh inputs, checks) is not free, and on a
            // memory-bound shape costs several calls' time: the rounds stop at 3x
            // the time budget once the minimum is met (at 1.25x, such shapes got
            // 10-13 samples and a reference timed against itself moved by 5-30%).
            if (rep >= KW_MIN_REPS && now() - loopStart > 3 * KW_TIME_BUDGET_S) break;
            // Asked every 5 % more rounds: sorting the ratios every round would
            // cost more than a microsecond kernel's rounds.
            if (rep >= reps && rep % std::max(1, rep / 20) == 0 && preciseEnough(pairedRatios(samples[0], samples[candIndex])))
                break;
            const auto sets = pickSets(order, poolN, batch, lastSet);
            lastSet = sets.back();
            const double r0 = now();
            // The problem's fill functions run here, in the judge: a crash in
            // them is the problem's (the phase tells Kernelwright's classifier).
            if (KW_HAS_FILL_FUNCTION) setPhase("building a timing shape's inputs");
            for (size_t j : sets)
                if (std::string err = refreshCase(*pool[j], order()); !err.empty())
                    return res.fail("infra_error", "the judge could not refresh an input set " + where + ": " + err);
            if (KW_HAS_FILL_FUNCTION) setPhase("timing");
            res.refreshSeconds += now() - r0;
            // The reference's answers, and the candidate's outputs when it ran first.
            std::vector<std::vector<std::vector<unsigned char>>> answer(sets.size()), produced(sets.size());
            std::vector<uint32_t> ids;
            for (size_t j : sets) ids.push_back(pool[j]->id);
            bool referenceDone = false, checked = false;
            double v0 = 0;
            const auto check = [&](bool fromCopies) {
                checkCandidate(rep, sets, answer, produced, fromCopies, v0);
                checked = true;
            };
            // The round's order and its poison are drawn from the secret: no
            // kernel always runs right after another, and neither the poison a
            // runner finds in its outputs nor the round's number tells it which
            // runner came before it or comes next.
            const size_t first = static_cast<size_t>(order() % timed.size());
            const int poisonWhich = static_cast<int>(order() & 1);
            for (size_t jj = 0; jj < timed.size() && res.ok(); ++jj) {
                const size_t ki = (jj + first) % timed.size();
                const double p0 = now();
                for (size_t j : sets) poisonOutputs(*pool[j], *timed[ki], poisonWhich);
                const double p1 = now();
                for (size_t j : sets) flushCaches(pool[j]->c);
                res.poisonSeconds += p1 - p0;
                res.flushSeconds += now() - p1;
                double t = 0;
                const double limit = (ki == 0 ? KW_CALL_TIMEOUT_S : callLimit(refSeconds)) * static_cast<double>(sets.size());
                if (!callKernel(*timed[ki], ids, limit, &t, res, "a timed call " + where)) return false;
                samples[ki].push_back(perCall(t, sets.size()));
                if (ki == 0) {
                    for (size_t x = 0; x < sets.size(); ++x) answer[x] = outputsOf(pool[sets[x]]->c);
                    referenceDone = true;
                    if (!produced[0].empty()) check(true);
                }
                if (ki == candIndex) {
                    if (referenceDone)
                        check(false);
                    else
                        for (size_t x = 0; x < sets.size(); ++x) produced[x] = outputsOf(pool[sets[x]]->c);
                }
            }
            if (!checked && res.ok()) return res.fail("wrong_answer", "internal: a timed round checked nothing");
            res.verifySeconds += v0;
            rounds = rep + 1;
        }
        res.roundsSeconds += now() - loopStart;
        return res.ok();
    }
};

bool timingPhase(Kernels& k, Json& res, const Options& opt, std::vector<double>& logSpeedups) {
    std::mt19937_64 order(res.secret ^ 0x5EEDu);
    std::vector<Runner*> timed{&k.reference};
    for (auto& b : k.baselines) timed.push_back(&b);
    timed.push_back(&k.candidate);
    const size_t candIndex = timed.size() - 1;
    for (int s = 0; s < KW_NUM_TIME_SHAPES && res.ok(); ++s) {
        const KwShape& shape = KW_TIME_SHAPES[s];
        ShapeTimer timer{k, res, order, timed, candIndex, s, shape, std::string("on timing shape ") + shape.name};
        if (!timer.prepare()) return false;
        const int reps = timer.warmUp();
        if (!res.ok() || !timer.timedRounds(reps)) return false;
        if (s == 0 && opt.counters) {
            setPhase("counting the candidate's events");
            profileCounters(k.candidate, *timer.pool[0], stats(timer.samples[candIndex]).median, res);
        }
        if (s == 0 && !opt.cachegrindSo.empty()) {
            setPhase("profiling the candidate under cachegrind");
            mkdir("build/cachegrind-tmp", 0700);
            const std::vector<std::string> writable{"profile", "build/cachegrind-tmp", "/dev"};
            profileUnderWrapper(opt.cachegrindSo, opt.cachegrindWrapper, *timer.pool[0], res,
                                std::vector<const Runner*>(timed.begin(), timed.end()), "cachegrind", &writable);
        }
#ifdef KW_CUDA
        if (s == KW_NUM_TIME_SHAPES - 1 && res.ok()) {
            setPhase("tracing one call of the candidate (breakdown)");
            profileBreakdown(k.candidate, *timer.pool[0], shape, res, KW_CALL_TIMEOUT_S);
            if (!res.ok()) return false;
            if (!opt.ncu.empty()) {
                setPhase("profiling one call of the candidate under ncu");
                profileUnderNcu(opt, *timer.pool[0], res, std::vector<const Runner*>(timed.begin(), timed.end()));
            }
        }
#endif
        for (Runner* r : timed)
            for (auto& sc : timer.pool) forgetCase(*r, *sc);
        const double speedup = pairedSpeedup(timer.samples[0], timer.samples[candIndex]);
        const SpeedupInterval interval = speedupInterval(pairedRatios(timer.samples[0], timer.samples[candIndex]));
        if (speedup > 0) logSpeedups.push_back(std::log(speedup));
        Case& c = timer.pool[0]->c;
        std::string t = "{\"shape\":" + q(shape.name) + ",\"sizes\":" + kw_size_json(c) + ",\"bytes\":" + num(kw_bytes(c)) +
                        ",\"flops\":" + num(kw_flops(c)) + ",\"warmup\":" + std::to_string(timer.warmups) +
                        ",\"reps\":" + std::to_string(timer.rounds) + ",\"reps_planned\":" + std::to_string(timer.planned) +
                        ",\"input_sets\":" + std::to_string(timer.poolN) + ",\"batch\":" + std::to_string(timer.batch) +
                        ",\"handoff_seconds\":" + num(timer.handoff) + ",\"empty_call_seconds\":" + num(timer.emptyCall) +
                        ",\"cache\":\"" + std::string(cacheEviction()) + "\",\"speedup\":" + num(speedup) +
                        ",\"speedup_interval\":[" + num(interval.low) + "," + num(interval.high) + "],\"speedups\":{" +
                        pairedSpeedupsJson(timed, timer.samples, candIndex) + "}" +
                        ",\"candidate\":" + statsJson("candidate", timer.samples[candIndex]) + ",\"baselines\":[";
        for (size_t ki = 0; ki < candIndex; ++ki) t += (ki ? "," : "") + statsJson(timed[ki]->name, timer.samples[ki]);
        res.timings.push_back(t + "]}");
    }
    return res.ok();
}

int run(const Options& opt) {
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN); // a buffer past the file-size limit is an allocation error, not a crash
    // Not dumpable: no runner can open the judge's /proc memory, environment or descriptors.
    prctl(PR_SET_DUMPABLE, 0);
    // Orphans of the runners' processes (a child that called setsid, where no
    // filter stops it: under valgrind) become the judge's, which kills them all
    // before the result exists (killDescendants).
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    const double start = now();
    Json res;
    if (KW_SECRET_GIVEN) {
        res.secret = KW_GIVEN_SECRET; // a reproduction: the inputs are known in advance
        res.secretGiven = true;
    } else if (getrandom(&res.secret, sizeof res.secret, 0) != static_cast<ssize_t>(sizeof res.secret)) {
        res.fail("infra_error", "the judge could not draw its secret seed (getrandom failed)");
        writeResult(res, "");
        return 0;
    }
#ifdef KW_CUDA
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
        if (startRunner(res, k.reference, "build/reference.so", std::max(30.0, KW_CALL_TIMEOUT_S))) {
            res.setupSeconds = now() - start;
            const double checkStart = now();
            if (checkPhase(k, res) && KW_HAS_WIDE_INPUTS) widePhase(k, res);
            res.checkSeconds = now() - checkStart;
        }
        if (res.ok() && !KW_CHECK_ONLY) {
            // The executor may hand over a lock (KW_TIMING_LOCK_FD) that makes the
            // timing phases of concurrent jobs take turns; released below.
            const char* lockFd = std::getenv("KW_TIMING_LOCK_FD");
            if (lockFd) {
                const double waitStart = now();
                setPhase("waiting for the timing lock");
                while (flock(std::atoi(lockFd), LOCK_EX) != 0 && errno == EINTR) {
                }
                res.lockWaitSeconds = now() - waitStart;
            }
            const double timeStart = now();
            for (int i = 0; i < KW_NUM_BASELINES && res.ok(); ++i) {
                k.baselines.emplace_back();
                k.baselines.back().name = KW_BASELINES[i];
                startRunner(res, k.baselines.back(), std::string("build/baseline_") + KW_BASELINES[i] + ".so",
                            std::max(30.0, KW_CALL_TIMEOUT_S));
            }
            std::vector<double> logSpeedups;
            if (res.ok()) timingPhase(k, res, opt, logSpeedups);
            res.timeSeconds = now() - timeStart;
            if (lockFd) flock(std::atoi(lockFd), LOCK_UN); // run.sh holds the same open file description
            if (res.ok()) {
                double sum = 0;
                for (double l : logSpeedups) sum += l;
                res.speedup = logSpeedups.empty() ? 0 : std::exp(sum / static_cast<double>(logSpeedups.size()));
                res.implausible = res.speedup > KW_IMPLAUSIBLE_SPEEDUP;
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
    // ... and everything they started: nothing of a candidate's runs after
    // the verdict, or is there to rewrite it.
    // Counted, not charged: only an unfiltered runner (valgrind's, ncu's) can
    // leave any, and a profiler's own helpers would count too.
    res.straysKilled += killDescendants();
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
            else if (a == "--ncu" && i + 2 < argc) {
                opt.ncu = argv[++i];
                opt.ncuMetrics = argv[++i];
            } else if (a == "--cachegrind" && i + 1 < argc) {
                opt.cachegrindSo = argv[++i];
                for (++i; i < argc; ++i) opt.cachegrindWrapper.push_back(argv[i]);
            }
        }
        return run(opt);
    }
    if (mode == "compile-failed" && argc > 2) return compileFailed(argv[2]);
    if (mode == "problem-failed" && argc > 3) return problemFailed(argv[2], argv[3]);
    std::fprintf(stderr,
                 "usage: harness run [--counters] [--ncu NCU METRICS] [--cachegrind SO WRAPPER...] | compile-failed LOG | "
                 "problem-failed WHAT LOG\n");
    return 2;
}
