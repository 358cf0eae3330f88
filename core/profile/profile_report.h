#pragma once
// Everything profiling learned about one evaluation: roofline metrics, the
// deeper levels' reports, notes on what was not available and why, and the
// diagnosis. Built outside the job from the timing and the files the job's
// profiling step wrote (profile/*), stored per evaluation (store/profile_store.h).
#include "eval/evaluation_result.h"
#include "eval/profile_level.h"
#include "profile/diagnosis.h"
#include "profile/provenance.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kw::profile {

struct ProfileReport {
    eval::ProfileLevel level = eval::ProfileLevel::Roofline;
    std::optional<RooflineMetrics> roofline;
    std::optional<CounterReport> counters;
    std::optional<CachegrindReport> cachegrind;
    std::vector<NcuKernel> ncu;
    std::optional<KernelBreakdown> breakdown; // GPU candidates: one call's kernels, copies and memsets
    std::optional<Provenance> provenance;     // ... and whose they are (own or library), by device time
    std::vector<std::string> notes;           // "cachegrind: not available: ..."
    std::vector<Signal> diagnosis;

    std::vector<std::string> signalNames() const;
};

struct ProfileRequest {
    eval::ProfileLevel level = eval::ProfileLevel::Roofline;
    std::optional<Roofs> roofs;                  // none: no roofline metrics (no machine model)
    std::string noRoofs;                         // why there are none, when not the missing machine model
    std::map<std::string, std::string> jobFiles; // profile/<name> -> text, from the job
    std::string candidateSource;                 // the kernel's source: which breakdown kernels are its own
    double nearRoofline = 0.85;
};

ProfileReport buildProfile(const eval::EvaluationResult& result, const ProfileRequest& request);

nlohmann::json toJson(const ProfileReport& report);

} // namespace kw::profile
