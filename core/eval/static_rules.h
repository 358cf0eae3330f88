#pragma once
// Static rules applied to candidate source before anything is built. They
// reject constructs that a kernel never needs and that evaluation exploits do
// (processes, sockets, dynamic loading, timers, raw syscalls). The sandbox
// enforces the same at run time; these rules make the verdict explicit early.
#include <string>
#include <vector>

namespace kw::eval {

struct RuleViolation {
    std::string rule;    // e.g. "network"
    int line = 0;        // 1-based
    std::string excerpt; // the offending line, trimmed
    std::string why;
};

std::vector<RuleViolation> checkStaticRules(const std::string& source);
// The same for a Python candidate of a torch problem: a pass over its syntax
// tree (resources/harness/torch/torch_rules.py, run by python3), which the
// judge repeats where the candidate runs. `forbidden` names the problem's
// reference operations, matched under any import alias, as tensor methods and
// through getattr. Without a python3 here, nothing is found: the judge's pass
// then decides.
std::vector<RuleViolation> checkPythonRules(const std::string& source, const std::vector<std::string>& forbidden);
// The same for a CUDA candidate (a launcher and its kernels): the C++ rules,
// except that inline assembly is allowed (PTX is how device code reaches some
// instructions), and the device and its context stay the harness's; plus the
// problem's `forbidden` strings.
std::vector<RuleViolation> checkCudaRules(const std::string& source, const std::vector<std::string>& forbidden);
std::string describeViolations(const std::vector<RuleViolation>& violations);

} // namespace kw::eval
