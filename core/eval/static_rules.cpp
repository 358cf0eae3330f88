#include "eval/static_rules.h"

#include <regex>
#include <sstream>

namespace ks::eval {
namespace {

struct Rule {
    const char* name;
    std::regex pattern;
    const char* why;
};

const std::vector<Rule>& rules() {
    static const std::vector<Rule> r{
        {"dynamic-loading", std::regex(R"(\b(dlopen|dlmopen|dlsym|dlvsym|dl_iterate_phdr)\b|<dlfcn\.h>|<link\.h>)"),
         "loading code at run time could reach the reference or the harness"},
        {"processes", std::regex(R"(\b(fork|vfork|clone|clone3|execl|execlp|execle|execv|execvp|execve|posix_spawn|posix_spawnp|system|popen|daemon)\s*\()"),
         "a kernel does not start processes"},
        {"network", std::regex(R"(\b(socket|connect|bind|listen|accept|getaddrinfo|gethostbyname|sendto|recvfrom)\s*\(|<sys/socket\.h>|<netinet/|<arpa/inet\.h>|<netdb\.h>)"),
         "a kernel does not use the network"},
        {"raw-syscalls", std::regex(R"(\bsyscall\s*\(|<sys/syscall\.h>|\b__asm__\b|\basm\s*(volatile\s*)?\(|\b__asm\b)"),
         "raw system calls and inline assembly bypass the rules; use intrinsics"},
        {"process-internals", std::regex(R"(/proc/|/sys/|\b(ptrace|prctl|mprotect|munmap)\s*\()"),
         "a kernel does not inspect or change the process it runs in"},
        {"threads", std::regex(R"(\bstd::(thread|jthread|async)\b|\bpthread_create\s*\()"),
         "work on other threads can escape the timer; parallelize with OpenMP"},
        {"timers-signals", std::regex(R"(\b(signal|sigaction|alarm|setitimer|raise|kill|clock_gettime|gettimeofday|clock_settime|__rdtsc|rdtsc)\s*\(|\bstd::chrono\b)"),
         "timers and signals belong to the harness"},
        {"files", std::regex(R"(\b(fopen|freopen|open|openat|creat|unlink|truncate)\s*\(|\bstd::(ofstream|ifstream|fstream|filesystem)\b)"),
         "a kernel reads and writes only its arguments"},
        {"output-streams", std::regex(R"(\b(write|pwrite|writev|fwrite|fputs|fputc|fprintf|dprintf|vfprintf)\s*\()"),
         "a kernel writes only its output arguments"},
        {"environment", std::regex(R"(\b(setenv|putenv|unsetenv|getenv)\s*\()"),
         "a kernel does not depend on or change the environment"},
        {"exit", std::regex(R"(\b(exit|_exit|_Exit|quick_exit|abort|atexit|longjmp|setjmp)\s*\()"),
         "leaving the process or jumping out of the call hides failures"},
    };
    return r;
}

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
            if (c == '/' && n == '/') { state = Line; out[i] = ' '; }
            else if (c == '/' && n == '*') { state = Block; out[i] = ' '; out[i + 1] = ' '; ++i; }
            else if (c == '"') state = Str;
            else if (c == '\'') state = Chr;
            break;
        case Line:
            if (c == '\n') state = Code; else out[i] = ' ';
            break;
        case Block:
            if (c == '*' && n == '/') { out[i] = ' '; out[i + 1] = ' '; ++i; state = Code; }
            else if (c != '\n') out[i] = ' ';
            break;
        case Str:
            if (c == '\\') ++i; else if (c == '"' || c == '\n') state = Code;
            break;
        case Chr:
            if (c == '\\') ++i; else if (c == '\'' || c == '\n') state = Code;
            break;
        }
    }
    return out;
}

const std::vector<Rule>& pythonRules() {
    static const std::vector<Rule> r{
        {"processes", std::regex(R"(\b(subprocess|multiprocessing|pty)\b|\bos\.(system|popen|exec\w*|spawn\w*|fork\w*|kill\w*)\b)"),
         "a kernel never starts processes"},
        {"network", std::regex(R"(\b(socket|urllib|http\.client|requests|ftplib|smtplib)\b)"), "a kernel never talks to the network"},
        {"native-loading", std::regex(R"(\b(ctypes|cffi)\b)"), "native code comes through Triton or torch.utils.cpp_extension.load_inline"},
        {"introspection", std::regex(R"(\b(inspect|gc|importlib|builtins|__builtins__|__import__|sys\.modules|sys\._getframe|_getframe|f_back|f_globals|settrace|setprofile)\b)"),
         "reaching into the harness (its frames, modules or objects) is not a kernel's business"},
        {"monkey-patching", std::regex(R"((^|[^\w.])(torch|triton|time|json|math|os|sys|statistics|traceback)(\.\w+)+\s*(=[^=]|\+=)|\b(setattr|delattr)\s*\()"),
         "changing torch, triton or the standard library would change how the harness checks and times"},
        {"files", std::regex(R"((^|[^\w.])open\s*\(|\bos\.(remove|unlink|rename|replace|rmdir|makedirs|mkdir|chmod|write|open)\b|\b(shutil|pathlib|tempfile|io\.open)\b)"),
         "a kernel reads and writes tensors, not files (result.json is the harness's)"},
        {"environment", std::regex(R"(\bos\.(environ|getenv|putenv|unsetenv)\b)"), "the environment is the harness's"},
        {"exit", std::regex(R"(\b(sys\.exit|os\._exit|os\.abort|atexit)\b|(^|[^\w.])(exit|quit)\s*\()"),
         "leaving the process hides failures"},
        {"threads", std::regex(R"(\b(threading|concurrent\.futures|asyncio)\b)"), "work outside the call would escape the timing"},
        {"streams", std::regex(R"(\btorch\.cuda\.(Stream|stream|set_stream|ExternalStream|Event)\b|\bcuda\.Stream\b|\bcudaStreamCreate|\bcudaEvent)"),
         "the harness times the work it launches on the current stream; side streams and events of one's own are not needed"},
        {"timers-signals", std::regex(R"(\btime\.(sleep|time|perf_counter|monotonic|process_time)\w*|\bsignal\.)"), "timing is the harness's"},
    };
    return r;
}

// The C++ rules less inline assembly, plus the device's own controls.
const std::vector<Rule>& cudaRules() {
    static const std::vector<Rule> r = [] {
        std::vector<Rule> list;
        for (const auto& rule : rules())
            if (std::string(rule.name) != "raw-syscalls") list.push_back(rule);
        list.push_back({"raw-syscalls", std::regex(R"(\bsyscall\s*\(|<sys/syscall\.h>)"), "raw system calls bypass the rules"});
        list.push_back({"device-control",
                        std::regex(R"(\b(cudaDeviceReset|cudaSetDevice|cudaDeviceSetLimit|cudaDeviceSetCacheConfig|cudaProfilerStart|cudaProfilerStop|cudaCtx\w*|cuCtx\w*|cuInit|cuModuleLoad\w*|cudaIpc\w*)\s*\()"),
                        "the device, its context and the loaded modules belong to the harness"});
        return list;
    }();
    return r;
}

// Blanks Python comments (# to the end of the line, outside string literals).
std::string stripPythonComments(const std::string& src) {
    std::string out = src;
    char quote = 0;
    for (std::size_t i = 0; i < out.size(); ++i) {
        const char c = out[i];
        if (quote) {
            if (c == '\\') ++i;
            else if (c == quote || c == '\n') quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '#') {
            while (i < out.size() && out[i] != '\n') out[i++] = ' ';
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

// Applies rules (and plain forbidden strings) line by line to `code`, the
// source with comments blanked; excerpts come from the original source.
std::vector<RuleViolation> scan(const std::string& source, const std::string& code, const std::vector<Rule>& rules,
                                const std::vector<std::string>& forbidden) {
    std::vector<RuleViolation> found;
    std::istringstream codeLines(code), rawLines(source);
    std::string line, raw;
    int lineNo = 0;
    while (std::getline(codeLines, line)) {
        std::getline(rawLines, raw);
        ++lineNo;
        for (const auto& rule : rules)
            if (std::regex_search(line, rule.pattern)) found.push_back({rule.name, lineNo, trim(raw).substr(0, 160), rule.why});
        for (const auto& f : forbidden)
            if (line.find(f) != std::string::npos)
                found.push_back({"reference-op", lineNo, trim(raw).substr(0, 160), "the problem forbids \"" + f + "\": a candidate computes the operator itself"});
    }
    return found;
}

} // namespace

std::vector<RuleViolation> checkStaticRules(const std::string& source) { return scan(source, stripComments(source), rules(), {}); }

std::vector<RuleViolation> checkPythonRules(const std::string& source, const std::vector<std::string>& forbidden) {
    return scan(source, stripPythonComments(source), pythonRules(), forbidden);
}

std::vector<RuleViolation> checkCudaRules(const std::string& source, const std::vector<std::string>& forbidden) {
    return scan(source, stripComments(source), cudaRules(), forbidden);
}

std::string describeViolations(const std::vector<RuleViolation>& violations) {
    std::string s = "the candidate uses constructs a kernel may not use:";
    for (const auto& v : violations)
        s += "\n  line " + std::to_string(v.line) + " [" + v.rule + "]: " + v.excerpt + "  (" + v.why + ")";
    return s;
}

} // namespace ks::eval
