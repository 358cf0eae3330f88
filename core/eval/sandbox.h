#pragma once
// How untrusted jobs are confined on this machine. With bubblewrap: no
// network, a read-only root, only the job dir writable, a private /tmp, its
// own PID namespace, and death with the parent. Resource limits apply always.
#include "util/result.h"

#include <filesystem>
#include <string>
#include <vector>

namespace kw::eval {

enum class SandboxPolicy {
    Required,  // refuse to run jobs without bubblewrap
    Preferred, // use bubblewrap; without it warn loudly and rely on limits only
    Off,       // limits only (trusted code, debugging)
};

Result<SandboxPolicy> parseSandboxPolicy(const std::string& text);

struct SandboxStatus {
    bool available = false;
    std::string bwrapPath;
    std::string reason; // why not available, for the warning
};

// Finds bwrap and checks it can build a sandbox here (once per process).
const SandboxStatus& probeSandbox();

// bubblewrap's arguments for a job in `jobDir` (without the program, the GPU
// device nodes and the command): the one list the local sandbox and the
// script that remote hosts run (remote_sandbox.cpp) are built from.
std::vector<std::string> sandboxArguments(const std::string& jobDir);

// The command that runs `command` inside the sandbox with `jobDir` writable.
std::vector<std::string> sandboxedCommand(const SandboxStatus& status, const std::filesystem::path& jobDir,
                                          const std::vector<std::string>& command);

} // namespace kw::eval
