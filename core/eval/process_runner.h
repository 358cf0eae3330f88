#pragma once
// Runs one command in its own process group with resource limits, an optional
// user switch, a wall-clock limit that kills the whole group, and a stop token.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace kw::eval {

struct ProcessLimits {
    double wallSeconds = 0; // 0: none
    std::uint64_t addressSpaceBytes = 0;
    std::uint64_t dataBytes = 0; // RLIMIT_DATA: private writable memory
    std::uint64_t cpuSeconds = 0;
    std::uint64_t fileSizeBytes = 0;
    std::uint64_t maxProcesses = 0; // RLIMIT_NPROC, counted per user
};

struct ProcessSpec {
    std::vector<std::string> argv;
    std::filesystem::path workDir;
    std::filesystem::path stdoutFile, stderrFile;
    std::filesystem::path stdinFile; // empty: /dev/null
    ProcessLimits limits;
    std::optional<unsigned> runAsUid;  // root only: drop to this uid/gid before exec
    std::vector<int> cpus;             // pin to these CPUs (empty: no pinning)
    int passFd = -1;                   // becomes fd 3 in the child (e.g. the timing lock)
    std::vector<std::string> extraEnv; // "NAME=value" added to the inherited environment
};

struct ProcessOutcome {
    bool started = false;
    std::string startError;
    int exitCode = -1; // when exited normally
    int signal = 0;    // when killed by a signal
    bool timedOut = false;
    bool stopped = false; // ended by the stop token
    double wallSeconds = 0;
};

ProcessOutcome runProcess(const ProcessSpec& spec, std::stop_token stop = {});

// The full path of `name` found on $PATH; empty when it is not there.
std::string findExecutable(const std::string& name);

// The Python that runs a user's PyTorch module (import, model profile):
// $KW_PYTHON, else python3 on $PATH; empty when neither is there.
std::string torchPython();

// Tasks (threads included) that `uid` runs now; RLIMIT_NPROC counts these.
std::uint64_t countTasksOfUser(unsigned uid);

} // namespace kw::eval
