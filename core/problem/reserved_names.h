#pragma once
// Word lists behind problem::reservedNameReason (data, kept apart from its logic).
#include <set>
#include <string>
#include <vector>

namespace kw::problem {

const std::set<std::string>& cppKeywords();
// harness_common.h's functions and types, the judge's and the C library's
// (tst_problem_loader checks this list against the shipped header).
const std::set<std::string>& harnessNames();
// Prefixes of the C library's and the system headers' macro families.
const std::vector<std::string>& macroFamilies();
// Signal, poll and wait macros that fit no family.
const std::set<std::string>& signalsAndFlags();

} // namespace kw::problem
