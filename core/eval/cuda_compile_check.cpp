#include "eval/cuda_compile_check.h"

#include "eval/process_runner.h"
#include "eval/sandbox.h"
#include "util/files.h"
#include "util/log.h"

#include <unistd.h>

#include <cstdlib>

namespace kw::eval {

std::filesystem::path findNvcc() {
    if (const char* env = std::getenv("KW_NVCC"); env && *env) return env;
    if (auto onPath = findExecutable("nvcc"); !onPath.empty()) return onPath;
    const std::filesystem::path usual = "/usr/local/cuda/bin/nvcc";
    return access(usual.c_str(), X_OK) == 0 ? usual : std::filesystem::path();
}

CompileCheck compileCudaCandidate(const std::filesystem::path& jobDir, double timeoutS, std::stop_token stop) {
    CompileCheck check;
    const auto nvcc = findNvcc();
    if (nvcc.empty()) {
        check.note = "no nvcc on this machine (KW_NVCC, PATH, /usr/local/cuda/bin): build errors show on the GPU host";
        return check;
    }
    ProcessSpec spec;
    spec.argv = sandboxedCommand(probeSandbox(), jobDir, {"bash", "run.sh", "compile-only"});
    spec.workDir = jobDir;
    spec.stdoutFile = jobDir / "build" / "compile-only.out";
    spec.stderrFile = jobDir / "build" / "compile-only.err";
    spec.limits.wallSeconds = timeoutS + 10;
    spec.extraEnv = {"KW_NVCC=" + nvcc.string()};
    const auto p = runProcess(spec, stop);
    check.seconds = p.wallSeconds;
    if (!p.started) {
        check.note = "cannot start the compile-only stage: " + p.startError;
        return check;
    }
    if (p.stopped || p.timedOut || p.signal != 0 || (p.exitCode != 0 && p.exitCode != 1)) {
        auto err = readTextFile(spec.stderrFile);
        check.note = "the compile-only stage ended without a verdict (" +
                     (p.timedOut ? std::string("timed out")
                      : p.signal ? "signal " + std::to_string(p.signal)
                                 : "exit " + std::to_string(p.exitCode)) +
                     "): " + (err ? err->substr(0, 300) : std::string());
        return check;
    }
    check.ran = true;
    check.built = p.exitCode == 0;
    if (!check.built) {
        auto log = readTextFile(jobDir / "build" / "candidate.log");
        check.log = log ? *log : "(nvcc left no log)";
        if (check.log.size() > 16000) check.log = "[...]\n" + check.log.substr(check.log.size() - 16000);
    }
    log::eval()->debug("compile-only stage for {}: {} in {:.1f} s", jobDir.filename().string(), check.built ? "built" : "failed",
                       check.seconds);
    return check;
}

} // namespace kw::eval
