#pragma once
// Kernel runners as the judge sees them: start, call, freeze, read, fail.
// Part of the C++ judge: included once, in order, by judge_main.cpp (one
// translation unit), after the headers and the problem's generated part.

namespace {

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
    bool cupti = true;               // the candidate's runner traces its breakdown (KW_CUPTI builds)
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
    const std::string flags = KW_COMPILE_FLAGS;
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
// `profiled`, when given, collects the Profiled records of request `seq`
// (at most 4096) that come before its Done.
bool receive(Runner& r, uint32_t type, uint32_t seq, double timeoutS, ShortMsg& out, bool* timedOut,
             std::vector<ShortMsg>* profiled = nullptr) {
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
                if (profiled && m.type == Profiled && m.seq == seq) {
                    if (profiled->size() < 4096) profiled->push_back(m);
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

// Whether this judge holds the candidate to its own code (problem.json's
// "policy": "own_code"). CPU kernels only: a CUDA runner maps the driver's
// and the runtime's code, which this check does not know.
bool ownCodeEnforced() {
#ifdef KW_CUDA
    return false;
#else
    return KW_OWN_CODE;
#endif
}

// A file of the C and C++ runtime a kernel's library is linked against (and
// OpenMP's), from the system's library folders.
bool isRuntimeLibrary(const std::string& file) {
    static const char* const dirs[] = {"/lib/", "/usr/lib/", "/lib64/", "/usr/lib64/"};
    static const char* const names[] = {
        "libc.so",  "libm.so",       "libmvec.so", "libstdc++.so", "libgcc_s.so", "ld-linux-x86-64.so",
        "libdl.so", "libpthread.so", "librt.so",   "libgomp.so",   "libatomic.so"};
    if (std::none_of(std::begin(dirs), std::end(dirs), [&](const char* d) { return file.rfind(d, 0) == 0; })) return false;
    const std::string base = file.substr(file.rfind('/') + 1);
    return std::any_of(std::begin(names), std::end(names), [&](const char* n) { return base.rfind(n, 0) == 0; });
}

std::string realPath(const std::string& path) {
    char* p = ::realpath(path.c_str(), nullptr);
    std::string out = p ? p : path;
    std::free(p);
    return out;
}

// What the candidate's process maps executable besides its own library, the
// runner and the runtime: "" when nothing, else the first such mapping. Read
// by the judge from /proc, which the candidate cannot rewrite.
std::string foreignCode(pid_t pid, const std::string& so) {
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/maps", static_cast<int>(pid));
    FILE* f = std::fopen(path, "r");
    if (!f) return std::string("(its memory map cannot be read: ") + std::strerror(errno) + ")";
    const std::string own = realPath(so), runner = realPath(runnerPath());
    std::string found;
    char line[4096];
    while (found.empty() && std::fgets(line, sizeof line, f)) {
        char perms[8] = "";
        unsigned long long inode = 0;
        int at = 0;
        if (std::sscanf(line, "%*llx-%*llx %7s %*llx %*x:%*x %llu %n", perms, &inode, &at) < 2 || perms[2] != 'x') continue;
        std::string file = at > 0 ? std::string(line + at) : std::string();
        while (!file.empty() && (file.back() == '\n' || file.back() == ' ')) file.pop_back();
        if (file == "[vdso]" || file == "[vsyscall]" || file == own || file == runner || isRuntimeLibrary(file)) continue;
        found = file.empty() ? "anonymous executable memory (code written at run time)" : file;
    }
    std::fclose(f);
    return found;
}

// A number from a process's /proc/PID/status ("Threads", "VmRSS" in kB,
// "Seccomp_filters"); -1 where the process or the field is not there.
long statusField(pid_t pid, const char* field) {
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/status", static_cast<int>(pid));
    FILE* f = std::fopen(path, "r");
    if (!f) return -1;
    char line[256];
    const size_t len = std::strlen(field);
    long n = -1;
    while (std::fgets(line, sizeof line, f))
        if (std::strncmp(line, field, len) == 0 && line[len] == ':') {
            n = std::strtol(line + len + 1, nullptr, 10);
            break;
        }
    std::fclose(f);
    return n;
}

// How many seccomp filters a process has (Linux 5.9 and later); -1 where the
// kernel does not say.
int seccompFilters(pid_t pid) {
    return static_cast<int>(statusField(pid, "Seccomp_filters"));
}

// Starts a runner for `so`; "" or why it could not even start. `writable`,
// for a runner without a seccomp filter (under a wrapper): the only folders
// it and what it starts may write in (Landlock); where that fails, the
// runner's stderr starts with kUnconfinedWrites and why.
constexpr const char* kUnconfinedWrites = "KW-UNCONFINED-WRITES ";

std::string spawn(Runner& r, const std::string& so, const std::vector<std::string>& wrapper = {}, bool seccomp = true,
                  const std::vector<std::string>* writable = nullptr) {
    int sv[2], ep[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) return std::string("socketpair: ") + std::strerror(errno);
    if (pipe2(ep, O_CLOEXEC) != 0) return std::string("pipe: ") + std::strerror(errno);
    std::vector<std::string> args = wrapper;
    args.push_back(runnerPath());
    args.push_back(so);
    if (threadsAllowedFor(r)) args.push_back("--threads");
    if (!seccomp) args.push_back("--no-seccomp");
    if (ownCodeEnforced() && r.candidate && seccomp && wrapper.empty()) args.push_back("--own-code");
#ifdef KW_CUPTI
    if (r.candidate && r.cupti && wrapper.empty()) args.push_back("--cupti"); // its breakdown (profileBreakdown)
#endif
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
        if (writable)
            if (const std::string why = runner_landlock::restrictWrites(*writable); !why.empty())
                dprintf(2, "%s%s\n", kUnconfinedWrites, why.c_str());
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

// The judge's children now, read from /proc (a process whose parent is the
// judge: a runner, or an orphan of one handed to the judge as its subreaper).
std::vector<pid_t> childrenOfJudge() {
    std::vector<pid_t> out;
    const pid_t self = getpid();
    DIR* proc = opendir("/proc");
    if (!proc) return out;
    while (const dirent* e = readdir(proc)) {
        char* end = nullptr;
        const long pid = std::strtol(e->d_name, &end, 10);
        if (*end || pid <= 0 || pid == self) continue;
        char path[64], buf[512];
        std::snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        FILE* f = std::fopen(path, "r");
        if (!f) continue;
        const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
        std::fclose(f);
        buf[n] = 0;
        // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
        const char* close = std::strrchr(buf, ')');
        char state = 0;
        long ppid = 0;
        if (close && std::sscanf(close + 1, " %c %ld", &state, &ppid) == 2 && ppid == self)
            out.push_back(static_cast<pid_t>(pid));
    }
    closedir(proc);
    return out;
}

// Every process the runners started, at any depth, killed and reaped before
// the result is written. The judge is their subreaper (run() sets it), so a
// child that left its runner's process group with setsid, or outlived its
// parent, comes back to the judge as an orphan; killing the children in
// passes reaches the grandchildren. Returns how many were not the judge's
// own runners (those are reaped already).
int killStrays(const std::vector<const Runner*>& runners);
int killDescendants() {
    return killStrays({});
}

// Every child of the judge that is none of `runners` (what an unfiltered
// runner left behind: under a profiler), killed and reaped while those
// runners stay; returns how many.
int killStrays(const std::vector<const Runner*>& runners) {
    int strays = 0;
    for (int pass = 0; pass < 64; ++pass) {
        std::vector<pid_t> found;
        for (pid_t c : childrenOfJudge())
            if (std::none_of(runners.begin(), runners.end(), [c](const Runner* r) { return r && r->pid == c; }))
                found.push_back(c);
        if (found.empty()) break;
        for (pid_t c : found) kill(c, SIGKILL);
        for (pid_t c : found) {
            while (waitpid(c, nullptr, 0) < 0 && errno == EINTR) {
            }
            ++strays;
        }
    }
    return strays;
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
    return static_cast<size_t>(std::max(0L, statusField(pid, "VmRSS")) + std::max(0L, statusField(pid, "VmSwap"))) * 1024;
}

// Threads of a live process (0 when unknown).
long threadsOf(pid_t pid) {
    return std::max(0L, statusField(pid, "Threads"));
}

// The job's tasks are one budget (RLIMIT_NPROC); a candidate holding far more
// threads than a kernel uses (one a core, and the runtime's few) when a
// problem's runner fails is the one that starved it: "" or the charge.
std::string candidateHoardsTasks(const std::string& whose, const std::string& where) {
    if (!gCandidate || gCandidate->dead || gCandidate->pid <= 0) return "";
    const long held = threadsOf(gCandidate->pid), fair = 2 * sysconf(_SC_NPROCESSORS_ONLN) + 16;
    if (held <= fair) return "";
    return "the candidate held " + std::to_string(held) +
           " threads (a kernel needs about one a core; the job's task limit is "
           "shared) when the problem's " +
           whose + " failed " + where;
}

bool failRunner(Json& res, const Runner& r, const std::string& what, const std::string& where, bool timedOut, double limitS) {
    const std::string err = stderrText(r);
    if (!r.candidate) {
        if (const std::string hoard = candidateHoardsTasks(r.name, where); !hoard.empty())
            return res.fail("runtime_error", hoard);
        // Out of memory while the candidate's runner holds a great deal of it:
        // the candidate starved the problem's kernel, and is charged for it.
        const bool outOfMemory = what == "oom" || err.find("KW-OOM") != std::string::npos ||
                                 (r.dead && WIFSIGNALED(r.waitStatus) && WTERMSIG(r.waitStatus) == SIGKILL && !r.killedByJudge);
        if (outOfMemory && gCandidate && !gCandidate->dead) {
            const size_t held = residentBytes(gCandidate->pid), own = r.dead ? 0 : residentBytes(r.pid);
            if (held >= std::max<size_t>(size_t(256) << 20, 4 * own))
                return res.fail("oom", "the candidate held " + bytesText(static_cast<double>(held)) +
                                           " of memory while the problem's " + r.name + " ran " + where +
                                           ", which then ran out of memory");
        }
        if (outOfMemory)
            return res.fail("infra_error", "the problem's " + r.name + " ran out of memory (could not allocate) " + where +
                                               " (a host short of memory, or the problem's sizes; no candidate was charged)");
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
    if (err.find("KW-OOM") != std::string::npos || what == "oom")
        return res.fail("oom", "the candidate ran out of memory (could not allocate) " + where);
    if (r.dead && WIFSIGNALED(r.waitStatus) && WTERMSIG(r.waitStatus) == SIGSYS)
        return res.fail("sandbox_violation", "the candidate " + deathText(r) + " " + where);
    return res.fail("runtime_error", "the candidate " + (what.empty() ? deathText(r) : what) + " " + where);
}

bool startRunner(Json& res, Runner& r, const std::string& so, double limitS) {
    if (std::string why = spawn(r, so); !why.empty()) {
        if (const std::string hoard = r.candidate ? "" : candidateHoardsTasks(r.name + "'s runner", "to start (" + why + ")");
            !hoard.empty())
            return res.fail("runtime_error", hoard);
        return res.fail("infra_error", "cannot start a kernel runner: " + why);
    }
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
    if (hello.status != 0 && hello.status != 2 && hello.status != 3 && hello.status != 4) {
        // Not a status the runner sends once it is confined: the library's own words.
        if (r.candidate) killRunner(r);
        return failRunner(res, r, "spoke for its kernel runner while loading (sent a message only the runner may send)",
                          "while loading", false, limitS);
    }
    // Sent after the library's constructors ran (so they could forge it), and
    // the same kind of filter was installed just before them: the candidate's.
    if (hello.status == 4) {
        killRunner(r);
        return res.fail("sandbox_violation", std::string("the candidate's runner could not install its own-code filter after "
                                                         "loading the candidate (its constructors interfered): ") +
                                                 hello.text);
    }
    if (hello.status != 0) {
        if (r.candidate) return res.fail("compile_error", "cannot load the candidate: " + std::string(hello.text));
        return res.fail("infra_error", "the problem's " + r.name + " failed to load: " + std::string(hello.text));
    }
    if (!freeze(r, res)) return failRunner(res, r, "", "right after loading", false, limitS);
    if (r.candidate && ownCodeEnforced()) {
        // Loading ran the library's constructors under the first filter only:
        // what they mapped is read here. From now on nothing new can be mapped
        // executable, which the filter count (read by the kernel) confirms.
        if (const std::string foreign = foreignCode(r.pid, so); !foreign.empty()) {
            killRunner(r);
            return res.fail("sandbox_violation",
                            "the candidate's process mapped code that is not its own while loading: " + foreign +
                                ". This problem takes the candidate's own code only (problem.json \"policy\": \"own_code\"): "
                                "compute the operator in the candidate's source; no other library, no baseline's or "
                                "reference's object, no code generated at run time");
        }
        if (const int filters = seccompFilters(r.pid); filters >= 0 && filters < 2) {
            killRunner(r);
            return res.fail("sandbox_violation", "the candidate's runner lost its own-code filter while loading (the library "
                                                 "changed the runner's code)");
        }
    }
    return true;
}

} // namespace
