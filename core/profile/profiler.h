#pragma once
// Profiles evaluation results against one machine model: picks the roofs for
// the cores a candidate uses, builds the report and stores it. Immutable after
// construction, so the search thread and the CLI share one freely.
#include "machine/machine_model.h"
#include "profile/profile_report.h"
#include "store/database.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

namespace kw::profile {

class Profiler {
  public:
    // allottedCores: the cores one job may use (all cores / executor slots).
    Profiler(std::optional<machine::MachineModel> machine, int allottedCores, double nearRoofline = 0.85);
    // For a search's engine: each of the executor's slots owns cores / slots cores.
    static std::shared_ptr<const Profiler> forExecutor(const machine::MachineModel& machine, std::size_t slots);

    ProfileReport profile(const eval::EvaluationResult& result, eval::ProfileLevel level, const std::string& source,
                          const std::string& paramsJson) const;
    Status store(const store::Database& db, std::int64_t evaluationId, const ProfileReport& report) const;

    const std::optional<machine::MachineModel>& machine() const { return machine_; }
    double nearRoofline() const { return nearRoofline_; }

  private:
    std::optional<machine::MachineModel> machine_;
    int allottedCores_;
    double nearRoofline_;
};

// The diagnosis stored with an evaluation's deepest profile (none when it
// was never profiled, or its report cannot be read).
std::vector<Signal> storedDiagnosis(const store::Database& db, std::int64_t evaluationId);
// The same, or nothing when no readable profile is stored for the evaluation.
std::optional<std::vector<Signal>> storedSignals(const store::Database& db, std::int64_t evaluationId);

} // namespace kw::profile
