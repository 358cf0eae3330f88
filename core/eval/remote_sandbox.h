#pragma once
// The sandbox on hosts we reach over ssh or Slurm, where nothing of ours is
// installed: a small bash script travels in the job dir and runs run.sh
// inside bubblewrap (the flags the local sandbox uses) wherever the host has
// a bubblewrap that works, per the executor's SandboxPolicy. Required and no
// bubblewrap there: run.sh never starts and the job ends with
// kNoSandboxExit, an infra error naming the host.
#include "eval/sandbox.h"
#include "util/result.h"

#include <filesystem>
#include <string>

namespace kw::eval {

constexpr int kNoSandboxExit = 96;
constexpr const char* kRemoteSandboxFile = "build/kw-sandbox.sh"; // relative to the job dir

const char* sandboxPolicyName(SandboxPolicy policy);

// Writes the script into `jobDir` (before it is sent).
Status writeRemoteSandbox(const std::filesystem::path& jobDir);

// Whether a job that ended with kNoSandboxExit was refused by the script
// (its reason in build/sandbox), not ended so by anything else.
bool refusedForNoSandbox(const std::filesystem::path& jobDir);

// The infra error for a job that ended with kNoSandboxExit on `host`, from
// what the script left in build/sandbox of the returned job dir.
std::string noSandboxMessage(const std::filesystem::path& jobDir, const std::string& host);

} // namespace kw::eval
