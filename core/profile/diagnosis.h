#pragma once
// Rules that turn metrics into bottleneck diagnosis with their evidence
// ("memory_bound: 91% of DRAM bandwidth"). The signal names are the
// knowledge base's trigger vocabulary (docs/kb-format.md), so a diagnosis
// selects documents and goes into the LLM prompt as it is. The thresholds are
// documented in docs/profiling.md.
#include "profile/cachegrind_report.h"
#include "profile/counter_report.h"
#include "profile/kernel_breakdown.h"
#include "profile/ncu_report.h"
#include "profile/roofline_metrics.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace kw::profile {

struct Signal {
    std::string name;     // "memory_bound", "compute_bound", ...
    std::string evidence; // the numbers behind it, for people and prompts
    std::string source;   // "roofline", "counters", "cachegrind", "ncu", "profiler"
};

struct DiagnosisInput {
    const RooflineMetrics* roofline = nullptr;
    const CounterReport* counters = nullptr;
    const CachegrindReport* cachegrind = nullptr;
    const std::vector<NcuKernel>* ncu = nullptr;
    const KernelBreakdown* breakdown = nullptr;
    double breakdownCallSeconds = 0; // the timed call (median) at the breakdown's shape; 0 unknown
    // The candidate's runner's own account of a timed call (torch judge,
    // call_parts): seconds a set to launch it (Python and launch calls) and
    // the device's seconds a set. 0: unknown.
    double hostLaunchPerSet = 0, devicePerSet = 0;
    // The work of the profiled call (the first timing shape), for per-element rates.
    double profiledBytes = 0, profiledFlops = 0;
    double nearRoofline = 0.85; // fraction of the roofline bound that counts as "near"
};

// Each signal at most once; the most direct measurement's evidence wins
// (ncu over cachegrind over counters over the roofline).
std::vector<Signal> diagnose(const DiagnosisInput& input);

nlohmann::json toJson(const std::vector<Signal>& diagnosis);
std::vector<Signal> signalsFromJson(const nlohmann::json& j);

} // namespace kw::profile
