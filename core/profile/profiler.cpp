#include "profile/profiler.h"
#include "util/json_text.h"

#include "store/profile_store.h"

#include <algorithm>

namespace ks::profile {

Profiler::Profiler(std::optional<MachineModel> machine, int allottedCores, double nearRoofline)
    : machine_(std::move(machine)), allottedCores_(std::max(1, allottedCores)), nearRoofline_(nearRoofline) {}

std::shared_ptr<const Profiler> Profiler::forExecutor(const MachineModel& machine, std::size_t slots) {
    const int allotted = std::max(1, machine.cores / static_cast<int>(std::max<std::size_t>(1, slots)));
    return std::make_shared<const Profiler>(machine, allotted);
}

ProfileReport Profiler::profile(const eval::EvaluationResult& result, eval::ProfileLevel level, const std::string& source,
                                const std::string& paramsJson) const {
    ProfileRequest request;
    request.level = level;
    request.jobFiles = result.profileFiles;
    request.nearRoofline = nearRoofline_;
    if (machine_) request.roofs = cpuRoofs(*machine_, coresUsed(source, paramsJson, allottedCores_));
    return buildProfile(result, request);
}

Status Profiler::store(const store::Database& db, std::int64_t evaluationId, const ProfileReport& report) const {
    if (evaluationId <= 0 || report.level == eval::ProfileLevel::None) return {};
    store::ProfileRecord r;
    r.evaluationId = evaluationId;
    r.level = eval::profileLevelName(report.level);
    r.reportJson = jsonText(toJson(report));
    r.diagnosis = report.signalNames();
    r.machine = machine_ ? machine_->host : "";
    return store::ProfileStore(db).save(r);
}

std::vector<Signal> storedDiagnosis(const store::Database& db, std::int64_t evaluationId) {
    if (evaluationId <= 0) return {};
    auto rec = store::ProfileStore(db).latest(evaluationId);
    if (!rec || !*rec) return {};
    const auto j = nlohmann::json::parse((*rec)->reportJson, nullptr, false);
    return j.is_object() && j.contains("signals") ? signalsFromJson(j["signals"]) : std::vector<Signal>{};
}

} // namespace ks::profile
