#include "eval/sandbox.h"

#include "eval/process_runner.h"
#include "util/log.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>

namespace kw::eval {
namespace {

SandboxStatus probe() {
    SandboxStatus s;
    s.bwrapPath = findExecutable("bwrap");
    if (s.bwrapPath.empty()) {
        s.reason = "bubblewrap (bwrap) is not installed; install the 'bubblewrap' package";
        return s;
    }
    // A trial run as the user jobs will run as: namespaces can be disabled by
    // the kernel or a container runtime even when bwrap is installed.
    const auto dir = std::filesystem::temp_directory_path() / ("kw-sandbox-probe-" + std::to_string(getpid()));
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    ProcessSpec spec;
    spec.argv = sandboxedCommand(SandboxStatus{true, s.bwrapPath, {}}, dir, {"/bin/true"});
    spec.workDir = dir;
    spec.stdoutFile = dir / "out";
    spec.stderrFile = dir / "err";
    spec.limits.wallSeconds = 20;
    if (geteuid() == 0) {
        spec.runAsUid = 65534;
        (void)!chown(dir.c_str(), 65534, 65534);
    }
    const auto outcome = runProcess(spec);
    if (outcome.started && outcome.exitCode == 0) {
        s.available = true;
    } else {
        std::ostringstream why;
        why << "bubblewrap cannot create a sandbox here (exit " << outcome.exitCode << "): ";
        std::ifstream err(dir / "err");
        why << err.rdbuf();
        s.reason = why.str();
        while (!s.reason.empty() && (s.reason.back() == '\n' || s.reason.back() == ' ')) s.reason.pop_back();
        s.reason += outcome.startError;
    }
    std::filesystem::remove_all(dir, ec);
    return s;
}
} // namespace

Result<SandboxPolicy> parseSandboxPolicy(const std::string& text) {
    if (text == "required") return SandboxPolicy::Required;
    if (text == "preferred") return SandboxPolicy::Preferred;
    if (text == "off") return SandboxPolicy::Off;
    return makeError(ErrorCode::InvalidArgument, "unknown sandbox policy \"" + text + "\" (expected required, preferred or off)");
}

const SandboxStatus& probeSandbox() {
    static std::once_flag once;
    static SandboxStatus status;
    std::call_once(once, [] {
        status = probe();
        if (status.available) log::eval()->info("sandbox: bubblewrap at {}", status.bwrapPath);
    });
    return status;
}

std::vector<std::string> sandboxArguments(const std::string& dir) {
    return {"--ro-bind",
            "/",
            "/",
            "--dev",
            "/dev",
            "--proc",
            "/proc",
            "--tmpfs",
            "/tmp",
            "--tmpfs",
            "/dev/shm",
            "--bind",
            dir,
            dir,
            "--chdir",
            dir,
            "--unshare-all", // network, PID, IPC, UTS, cgroup, user
            "--die-with-parent",
            "--new-session",
            "--setenv",
            "TMPDIR",
            "/tmp"};
}

std::vector<std::string> sandboxedCommand(const SandboxStatus& status, const std::filesystem::path& jobDir,
                                          const std::vector<std::string>& command) {
    if (!status.available) return command;
    std::vector<std::string> argv{status.bwrapPath};
    for (auto& a : sandboxArguments(std::filesystem::absolute(jobDir).string())) argv.push_back(std::move(a));
    // GPU jobs (torch, cuda) need the NVIDIA device nodes, which the fresh /dev lacks.
    std::error_code ec;
    for (auto it = std::filesystem::directory_iterator("/dev", ec); !ec && it != std::filesystem::directory_iterator();
         it.increment(ec)) {
        const auto name = it->path().filename().string();
        if (name.rfind("nvidia", 0) == 0) argv.insert(argv.end(), {"--dev-bind-try", it->path().string(), it->path().string()});
    }
    argv.push_back("--");
    argv.insert(argv.end(), command.begin(), command.end());
    return argv;
}

} // namespace kw::eval
