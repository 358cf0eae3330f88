#include "eval/static_rules.h"

#include "eval/cpp_tokens.h"
#include "util/text.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>

namespace kw::eval {
namespace {

// Blanks comments so that prose never triggers a rule; keeps string literals
// (a path in a string is what the rules look for) and line structure.
std::string stripComments(const std::string& src) {
    std::string out = src;
    enum { Code, Line, Block, Str, Chr } state = Code;
    for (std::size_t i = 0; i < out.size(); ++i) {
        const char c = out[i];
        const char n = i + 1 < out.size() ? out[i + 1] : '\0';
        switch (state) {
        case Code:
            if (c == '/' && n == '/') {
                state = Line;
                out[i] = ' ';
            } else if (c == '/' && n == '*') {
                state = Block;
                out[i] = ' ';
                out[i + 1] = ' ';
                ++i;
            } else if (c == '"')
                state = Str;
            else if (c == '\'')
                state = Chr;
            break;
        case Line:
            if (c == '\n')
                state = Code;
            else
                out[i] = ' ';
            break;
        case Block:
            if (c == '*' && n == '/') {
                out[i] = ' ';
                out[i + 1] = ' ';
                ++i;
                state = Code;
            } else if (c != '\n')
                out[i] = ' ';
            break;
        case Str:
            if (c == '\\')
                ++i;
            else if (c == '"' || c == '\n')
                state = Code;
            break;
        case Chr:
            if (c == '\\')
                ++i;
            else if (c == '\'' || c == '\n')
                state = Code;
            break;
        }
    }
    return out;
}

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}
} // namespace

namespace {

struct TokenRule {
    const char* name;
    const char* why;
};

const TokenRule kDynamicLoading{"dynamic-loading", "loading code at run time could reach the reference or the harness"};
const TokenRule kProcesses{"processes", "a kernel does not start processes"};
const TokenRule kNetwork{"network", "a kernel does not use the network"};
const TokenRule kRawSyscalls{"raw-syscalls", "raw system calls and inline assembly bypass the rules; use intrinsics"};
const TokenRule kInternals{"process-internals", "a kernel does not inspect or change the process it runs in"};
const TokenRule kThreads{"threads", "work on other threads can escape the timer; parallelize with OpenMP"};
const TokenRule kTimers{"timers-signals", "timers and signals belong to the harness"};
const TokenRule kFiles{"files", "a kernel reads and writes only its arguments"};
const TokenRule kStreams{"output-streams", "a kernel writes only its output arguments"};
const TokenRule kEnvironment{"environment", "a kernel does not depend on or change the environment"};
const TokenRule kExit{"exit", "leaving the process or jumping out of the call hides failures"};
const TokenRule kPasting{"token-pasting", "building names by token pasting (##) hides them from these rules"};
const TokenRule kIncludes{"includes", "includes name headers of the toolchain, never files of the job or the system by path"};
const TokenRule kDevice{"device-control", "the device, its context and the loaded modules belong to the harness"};
const TokenRule kSize{"size",
                      "sources are limited to 1 MiB; a kernel that needs more is generated code that belongs in the problem"};

// Names a kernel never needs, wherever they appear (a call, an address taken,
// an alias): the C library's and POSIX's, or members of std.
const std::map<std::string, const TokenRule*>& forbiddenNames() {
    static const std::map<std::string, const TokenRule*> names = [] {
        std::map<std::string, const TokenRule*> m;
        const auto add = [&](const TokenRule& r, std::initializer_list<const char*> list) {
            for (const char* n : list) m[n] = &r;
        };
        add(kDynamicLoading, {"dlopen", "dlmopen", "dlsym", "dlvsym", "dl_iterate_phdr", "dladdr", "dlinfo", "_dl_sym"});
        add(kProcesses, {"fork", "vfork", "clone", "clone3", "execl", "execlp", "execle", "execv", "execvp", "execvpe", "execve",
                         "fexecve", "posix_spawn", "posix_spawnp", "system", "popen", "daemon", "wait", "waitpid"});
        add(kNetwork, {"socket", "socketpair", "connect", "bind", "listen", "accept", "accept4", "getaddrinfo", "gethostbyname",
                       "sendto", "recvfrom", "sendmsg", "recvmsg", "send", "recv", "sendmmsg", "recvmmsg"});
        add(kRawSyscalls, {"syscall", "asm", "__asm__", "__asm", "__asm__volatile"});
        add(kInternals, {"ptrace",
                         "prctl",
                         "mprotect",
                         "munmap",
                         "mremap",
                         "process_vm_readv",
                         "process_vm_writev",
                         "sched_setaffinity",
                         "pthread_setaffinity_np",
                         "setpriority",
                         "setrlimit",
                         "prlimit",
                         "getrusage",
                         "madvise",
                         "__builtin_frame_address",
                         "__builtin_return_address",
                         "backtrace",
                         "environ",
                         "__environ",
                         "program_invocation_name"});
        add(kThreads, {"pthread_create", "thrd_create", "jthread"});
        add(kTimers, {"signal",
                      "sigaction",
                      "sigprocmask",
                      "pthread_sigmask",
                      "alarm",
                      "setitimer",
                      "getitimer",
                      "timer_create",
                      "raise",
                      "kill",
                      "tgkill",
                      "clock_gettime",
                      "gettimeofday",
                      "clock_settime",
                      "clock",
                      "time",
                      "__rdtsc",
                      "rdtsc",
                      "__builtin_ia32_rdtsc",
                      "__builtin_ia32_rdtscp",
                      "__rdtscp",
                      "_rdtsc",
                      "chrono",
                      "nanosleep",
                      "usleep",
                      "sleep"});
        add(kFiles, {"fopen",    "fopen64",    "freopen",      "open",     "open64",    "openat",   "creat",    "unlink",
                     "unlinkat", "rename",     "renameat",     "truncate", "ftruncate", "ofstream", "ifstream", "fstream",
                     "filebuf",  "filesystem", "mkdir",        "rmdir",    "remove",    "chmod",    "symlink",  "link",
                     "tmpfile",  "mkstemp",    "memfd_create", "shm_open", "fdopen",    "opendir",  "readdir"});
        add(kStreams, {"write", "pwrite", "writev", "fwrite", "fputs", "fputc", "fprintf", "dprintf", "vfprintf", "puts",
                       "putchar", "cout", "cerr", "clog"});
        add(kEnvironment, {"setenv", "putenv", "unsetenv", "getenv", "secure_getenv", "clearenv"});
        add(kExit, {"exit", "_exit", "_Exit", "quick_exit", "abort", "atexit", "at_quick_exit", "longjmp", "setjmp", "siglongjmp",
                    "sigsetjmp", "terminate", "set_terminate"});
        return m;
    }();
    return names;
}

// Headers whose only purpose here would be a forbidden facility.
const TokenRule* forbiddenHeader(const std::string& header) {
    static const std::map<std::string, const TokenRule*> headers{{"dlfcn.h", &kDynamicLoading},
                                                                 {"link.h", &kDynamicLoading},
                                                                 {"sys/socket.h", &kNetwork},
                                                                 {"arpa/inet.h", &kNetwork},
                                                                 {"netdb.h", &kNetwork},
                                                                 {"sys/un.h", &kNetwork},
                                                                 {"sys/syscall.h", &kRawSyscalls},
                                                                 {"syscall.h", &kRawSyscalls},
                                                                 {"sys/ptrace.h", &kInternals},
                                                                 {"sys/prctl.h", &kInternals},
                                                                 {"sys/mman.h", &kInternals},
                                                                 {"sys/resource.h", &kInternals},
                                                                 {"spawn.h", &kProcesses},
                                                                 {"sys/wait.h", &kProcesses},
                                                                 {"thread", &kThreads},
                                                                 {"future", &kThreads},
                                                                 {"pthread.h", &kThreads},
                                                                 {"threads.h", &kThreads},
                                                                 {"chrono", &kTimers},
                                                                 {"signal.h", &kTimers},
                                                                 {"csignal", &kTimers},
                                                                 {"sys/time.h", &kTimers},
                                                                 {"setjmp.h", &kExit},
                                                                 {"csetjmp", &kExit},
                                                                 {"fstream", &kFiles},
                                                                 {"filesystem", &kFiles},
                                                                 {"fcntl.h", &kFiles},
                                                                 {"dirent.h", &kFiles},
                                                                 {"iostream", &kStreams}};
    if (header.rfind("netinet/", 0) == 0 || header.rfind("linux/", 0) == 0 || header.rfind("asm/", 0) == 0) return &kInternals;
    const auto it = headers.find(header);
    return it == headers.end() ? nullptr : it->second;
}

struct Checker {
    const std::string& source;
    bool allowAsm;
    bool cuda;
    std::vector<RuleViolation> found;
    std::set<std::pair<std::string_view, int>> reported; // (rule, line): linear in the source, not quadratic
    std::vector<std::string> lines;                      // the source's lines, for excerpts

    explicit Checker(const std::string& src, bool asmAllowed, bool isCuda) : source(src), allowAsm(asmAllowed), cuda(isCuda) {
        std::string line;
        std::istringstream in(source);
        while (std::getline(in, line)) lines.push_back(line);
    }
    void flag(const TokenRule& rule, int line, const std::string& what = {}) {
        if (!reported.emplace(rule.name, line).second) return; // one report per rule and line
        const std::string excerpt =
            line >= 1 && static_cast<std::size_t>(line) <= lines.size() ? trim(lines[line - 1]).substr(0, 160) : what;
        found.push_back({rule.name, line, excerpt, rule.why});
    }
    void run() {
        const auto tokens = lexCpp(source);
        bool usingStd = false;
        for (std::size_t i = 0; i < tokens.size(); ++i) {
            const CppToken& t = tokens[i];
            const CppToken* prev = i > 0 ? &tokens[i - 1] : nullptr;
            const CppToken* prev2 = i > 1 ? &tokens[i - 2] : nullptr;
            const CppToken* next = i + 1 < tokens.size() ? &tokens[i + 1] : nullptr;
            if (t.kind == CppToken::Kind::Directive) {
                directive(t);
                continue;
            }
            if (t.kind == CppToken::Kind::String) {
                if (t.text.find("/proc/") != std::string::npos || t.text.find("/sys/") != std::string::npos ||
                    t.text.find("/dev/") != std::string::npos)
                    flag(kInternals, t.line);
                if (t.text.find("result.json") != std::string::npos || t.text.find("run.sh") != std::string::npos ||
                    t.text.find("build/") != std::string::npos)
                    flag(kFiles, t.line);
                continue;
            }
            if (t.kind == CppToken::Kind::Punct) {
                if (t.text == "##") flag(kPasting, t.line);
                continue;
            }
            if (t.kind != CppToken::Kind::Identifier) continue;
            // A member of an object (v.write(), p->open) is not the C library's function.
            if (prev && prev->kind == CppToken::Kind::Punct && (prev->text == "." || prev->text == "->")) continue;
            if (t.text == "namespace" && prev && prev->text == "using" && next && next->text == "std") usingStd = true;
            const bool stdQualified = prev && prev->text == "::" && prev2 && prev2->text == "std";
            if ((t.text == "thread" || t.text == "async") && (stdQualified || usingStd)) flag(kThreads, t.line);
            if (t.text == "asm" || t.text == "__asm__" || t.text == "__asm") {
                if (!allowAsm) flag(kRawSyscalls, t.line);
                continue;
            }
            if (cuda && deviceControl(t.text)) flag(kDevice, t.line);
            const auto& names = forbiddenNames();
            const auto it = names.find(t.text);
            if (it == names.end()) continue;
            // Common words are only the library's function when called, named
            // with :: or their address is taken; as a variable they are harmless.
            static const std::set<std::string> commonWords{
                "time",   "clock",  "wait",  "link", "remove", "write", "open", "bind",      "accept", "listen", "connect",
                "signal", "system", "sleep", "exit", "abort",  "raise", "kill", "terminate", "puts",   "send",   "recv"};
            if (commonWords.count(t.text)) {
                const bool called = next && next->text == "(";
                const bool addressed = prev && (prev->text == "&" || prev->text == "::");
                const bool aliased =
                    prev && (prev->text == "=" || prev->text == "," || prev->text == "(" || prev->text == "return");
                if (!called && !addressed && !(aliased && next && (next->text == ";" || next->text == ")" || next->text == ",")))
                    continue;
            }
            flag(*it->second, t.line);
        }
    }
    static bool deviceControl(const std::string& name) {
        static const std::set<std::string> exact{
            "cudaDeviceReset",  "cudaSetDevice", "cudaDeviceSetLimit", "cudaDeviceSetCacheConfig", "cudaProfilerStart",
            "cudaProfilerStop", "cuInit"};
        return exact.count(name) || name.rfind("cudaCtx", 0) == 0 || name.rfind("cuCtx", 0) == 0 ||
               name.rfind("cuModuleLoad", 0) == 0 || name.rfind("cudaIpc", 0) == 0 || name.rfind("cuIpc", 0) == 0;
    }
    void directive(const CppToken& t) {
        std::size_t p = 1;
        while (p < t.text.size() && std::isspace(static_cast<unsigned char>(t.text[p]))) ++p;
        std::size_t q = p;
        while (q < t.text.size() && std::isalpha(static_cast<unsigned char>(t.text[q]))) ++q;
        const std::string word = t.text.substr(p, q - p);
        if (word != "include" && word != "include_next" && word != "import" && word != "embed") return;
        while (q < t.text.size() && std::isspace(static_cast<unsigned char>(t.text[q]))) ++q;
        if (q >= t.text.size() || (t.text[q] != '<' && t.text[q] != '"')) {
            flag(kIncludes, t.line); // a computed include: its target is hidden
            return;
        }
        const char close = t.text[q] == '<' ? '>' : '"';
        const auto end = t.text.find(close, q + 1);
        const std::string header = t.text.substr(q + 1, end == std::string::npos ? std::string::npos : end - q - 1);
        const TokenRule* rule = forbiddenHeader(header);
        if (rule) {
            flag(*rule, t.line);
        } else if (word == "embed" || header.empty() || header[0] == '/' || header.find("..") != std::string::npos ||
                   (close == '"' && header != "kernel.h")) {
            // Quoted includes search the job's own folders first, where the
            // harness's sources are; a path reaches anything on the host.
            flag(kIncludes, t.line);
        }
    }
};

std::vector<RuleViolation> tokenRules(const std::string& source, bool allowAsm, bool cuda,
                                      const std::vector<std::string>& forbidden) {
    constexpr std::size_t kMaxSourceBytes = 1u << 20;
    if (source.size() > kMaxSourceBytes) return {{kSize.name, 1, "(" + std::to_string(source.size()) + " bytes)", kSize.why}};
    Checker c(source, allowAsm, cuda);
    c.run();
    if (!forbidden.empty()) {
        const std::string code = stripComments(source);
        for (const auto& f : forbidden) {
            const auto at = code.find(f);
            if (at == std::string::npos) continue;
            const int line = 1 + static_cast<int>(std::count(code.begin(), code.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
            c.found.push_back({"reference-op", line,
                               trim(c.lines.size() >= static_cast<std::size_t>(line) ? c.lines[line - 1] : f).substr(0, 160),
                               "the problem forbids \"" + f + "\": a candidate computes the operator itself"});
        }
    }
    std::stable_sort(c.found.begin(), c.found.end(),
                     [](const RuleViolation& a, const RuleViolation& b) { return a.line < b.line; });
    // A source full of violations gets a message a person reads, not megabytes.
    constexpr std::size_t kMaxReported = 50;
    if (c.found.size() > kMaxReported) {
        const std::size_t more = c.found.size() - kMaxReported;
        c.found.resize(kMaxReported);
        c.found.push_back(
            {"more", c.found.back().line, "", std::to_string(more) + " more violations past these; mend these first"});
    }
    return c.found;
}

} // namespace

std::vector<RuleViolation> checkStaticRules(const std::string& source) {
    return tokenRules(source, false, false, {});
}

std::vector<RuleViolation> checkCudaRules(const std::string& source, const std::vector<std::string>& forbidden) {
    return tokenRules(source, true, true, forbidden);
}

std::string describeViolations(const std::vector<RuleViolation>& violations) {
    std::string s = "the candidate uses constructs a kernel may not use:";
    for (const auto& v : violations)
        s += "\n  line " + std::to_string(v.line) + " [" + v.rule + "]: " + validUtf8(v.excerpt) + "  (" + v.why + ")";
    return s;
}

} // namespace kw::eval
