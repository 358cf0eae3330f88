#pragma once
// Static rules applied to candidate source before anything is built. They
// reject constructs that a kernel never needs and that evaluation exploits do
// (processes, sockets, dynamic loading, timers, raw syscalls). The sandbox
// enforces the same at run time; these rules make the verdict explicit early.
#include <string>
#include <vector>

namespace ks::eval {

struct RuleViolation {
    std::string rule;    // e.g. "network"
    int line = 0;        // 1-based
    std::string excerpt; // the offending line, trimmed
    std::string why;
};

std::vector<RuleViolation> checkStaticRules(const std::string& source);
// The same for a Python candidate of a torch problem: it runs in the harness's
// own interpreter, so the rules also keep it from patching what the harness
// uses (torch, timers, the result file) and from side streams that the
// timing would miss; `forbidden` adds the problem's own strings (its reference
// op), matched anywhere outside comments.
std::vector<RuleViolation> checkPythonRules(const std::string& source, const std::vector<std::string>& forbidden);
// The same for a CUDA candidate (a launcher and its kernels): the C++ rules,
// except that inline assembly is allowed (PTX is how device code reaches some
// instructions), and the device and its context stay the harness's; plus the
// problem's `forbidden` strings.
std::vector<RuleViolation> checkCudaRules(const std::string& source, const std::vector<std::string>& forbidden);
std::string describeViolations(const std::vector<RuleViolation>& violations);

} // namespace ks::eval
