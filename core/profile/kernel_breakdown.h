#pragma once
// What one call of a GPU candidate put on the device: every kernel, copy and
// memset, grouped by name, with its device time (profile/breakdown.json,
// written by the torch judge from PyTorch's profiler after the timed calls).
// The candidate's process recorded it, so it informs a diagnosis and never a
// score.
#include "util/result.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace kw::profile {

struct BreakdownEntry {
    std::string name;
    std::string kind; // "kernel", "copy", "memset"
    int calls = 0;
    double us = 0; // device time of all its calls
};

struct KernelBreakdown {
    std::string source; // the profiler that recorded it ("torch.profiler")
    std::string shape;  // the timing shape of the profiled call
    int launches = 0;   // every kernel, copy and memset of the call
    double deviceUs = 0;
    std::vector<BreakdownEntry> entries; // longest first

    int count(const std::string& kind) const; // launches of one kind
    double share(const BreakdownEntry& e) const { return deviceUs > 0 ? e.us / deviceUs : 0; }
};

Result<KernelBreakdown> parseBreakdown(const std::string& text);
nlohmann::json toJson(const KernelBreakdown& breakdown);
// The stored form back (a profile report's "breakdown"); empty when absent or malformed.
std::optional<KernelBreakdown> breakdownFromJson(const nlohmann::json& j);

} // namespace kw::profile
