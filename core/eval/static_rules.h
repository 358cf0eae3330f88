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
std::string describeViolations(const std::vector<RuleViolation>& violations);

} // namespace ks::eval
