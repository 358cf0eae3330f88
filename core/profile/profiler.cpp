#include "profile/profiler.h"
#include "util/json_text.h"

#include "machine/machine_cache.h"
#include "store/profile_store.h"

#include <algorithm>

namespace kw::profile {

namespace {

std::optional<machine::GpuModel> findGpu(const machine::MachineModel& m, const std::string& name) {
    for (const auto& g : m.gpus)
        if (g.name == name && g.copyGBs > 0) return g;
    return std::nullopt;
}

} // namespace

Profiler::Profiler(std::optional<machine::MachineModel> machine, int allottedCores, double nearRoofline)
    : machine_(std::move(machine)), allottedCores_(std::max(1, allottedCores)), nearRoofline_(nearRoofline) {}

std::shared_ptr<const Profiler> Profiler::forExecutor(const machine::MachineModel& machine, std::size_t slots) {
    const int allotted = std::max(1, machine.cores / static_cast<int>(std::max<std::size_t>(1, slots)));
    return std::make_shared<const Profiler>(machine, allotted);
}

ProfileReport Profiler::profile(const eval::EvaluationResult& result, eval::ProfileLevel level, const std::string& source,
                                const std::string& paramsJson) const {
    ProfileRequest request;
    request.level = level;
    request.jobFiles = result.profileFiles;
    request.candidateSource = source;
    request.nearRoofline = nearRoofline_;
    // A GPU job (its judge names the device it ran on) is measured against that
    // GPU's roofs, from the probe imported for this host; never the CPU's.
    const std::string gpu = result.env.is_object() && result.env.contains("gpu") && result.env["gpu"].is_string()
                                ? result.env["gpu"].get<std::string>()
                                : "";
    if (!gpu.empty()) {
        // This host's model, else the one imported under the job's host name.
        auto model = machine_ ? findGpu(*machine_, gpu) : std::nullopt;
        const std::string host = result.env.value("host", std::string());
        if (!model && !host.empty())
            if (auto there = machine::loadMachine(host)) model = findGpu(*there, gpu);
        if (model)
            request.roofs = gpuRoofs(*model);
        else
            request.noRoofs =
                "no GPU probe for " + gpu + " on this host (run on the GPU host: kernelwright-cli machine import-gpu PROBE.json)";
    } else if (machine_) {
        request.roofs = cpuRoofs(*machine_, coresUsed(source, paramsJson, allottedCores_));
    }
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

std::optional<std::vector<Signal>> storedSignals(const store::Database& db, std::int64_t evaluationId) {
    if (evaluationId <= 0) return std::nullopt;
    auto rec = store::ProfileStore(db).latest(evaluationId);
    if (!rec || !*rec) return std::nullopt;
    const auto j = nlohmann::json::parse((*rec)->reportJson, nullptr, false);
    if (!j.is_object()) return std::nullopt;
    return j.contains("signals") ? signalsFromJson(j["signals"]) : std::vector<Signal>{};
}

std::vector<Signal> storedDiagnosis(const store::Database& db, std::int64_t evaluationId) {
    return storedSignals(db, evaluationId).value_or(std::vector<Signal>{});
}

} // namespace kw::profile
