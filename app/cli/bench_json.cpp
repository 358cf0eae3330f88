#include "bench_json.h"

#include "util/files.h"
#include "util/json_text.h"

#include <filesystem>
#include <set>

namespace kw::cli {
namespace {

nlohmann::json shapesJson(const std::vector<Row::Shape>& shapes) {
    auto out = nlohmann::json::array();
    for (const auto& t : shapes)
        out.push_back({{"bytes", t.bytes}, {"flops", t.flops}, {"seconds", t.seconds}, {"gathers", t.gathers}});
    return out;
}

// The GPUs' names, sorted: what makes two hosts' GPU rows comparable (of a
// machine model as the JSON keeps it, and of this host's).
std::multiset<std::string> gpuNames(const nlohmann::json& machine) {
    std::multiset<std::string> names;
    if (const auto gpus = machine.find("gpus"); gpus != machine.end() && gpus->is_array())
        for (const auto& g : *gpus)
            if (g.is_object() && g.contains("name") && g["name"].is_string()) names.insert(g["name"].get<std::string>());
    return names;
}

std::multiset<std::string> gpuNames(const machine::MachineModel& roof) {
    std::multiset<std::string> names;
    for (const auto& g : roof.gpus) names.insert(g.name);
    return names;
}

std::string joined(const std::multiset<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out.empty() ? "none" : out;
}

Row rowFromJson(const nlohmann::json& j) {
    Row r;
    r.problem = j.at("problem").get<std::string>();
    r.referenceS = j.at("reference_s").get<double>();
    r.library = j.at("library").get<std::string>();
    r.libraryS = j.at("library_s").get<double>();
    r.bestS = j.at("best_s").get<double>();
    r.speedup = j.at("speedup").get<double>();
    r.speedupOverBest = j.at("speedup_over_best_baseline").get<double>();
    r.evaluations = j.at("evaluations").get<int>();
    r.wallS = j.at("wall_s").get<double>();
    r.params = j.at("best_params").get<std::string>();
    r.gpu = j.at("gpu").get<bool>();
    r.declaredBound = j.at("declared_bound").get<std::string>();
    for (const auto& t : j.at("shapes"))
        r.shapes.push_back({t.at("bytes").get<double>(), t.at("flops").get<double>(), t.at("seconds").get<double>(),
                            t.at("gathers").get<double>()});
    if (const auto p = j.find("profile"); p != j.end()) {
        r.profile.diagnosis = p->at("diagnosis").get<std::string>();
        r.profile.source = p->at("from").get<std::string>();
        r.profile.kernel = p->at("ncu_kernel").get<std::string>();
        r.profile.kernelUs = p->at("ncu_kernel_us").get<double>();
        r.profile.dramPct = p->at("dram_pct").get<double>();
        r.profile.smPct = p->at("sm_pct").get<double>();
        r.profile.l2Pct = p->at("l2_pct").get<double>();
        r.profile.occupancyPct = p->at("occupancy_pct").get<double>();
        r.profile.breakdownS = p->at("breakdown_s_per_evaluation").get<double>();
        r.profile.ncuS = p->at("ncu_s_per_run").get<double>();
        r.profile.ncuRuns = p->at("ncu_runs").get<int>();
    }
    return r;
}

} // namespace

nlohmann::json benchSettings(const nlohmann::json& searchConfig, double timeBudgetS, int finalists) {
    return {{"config", searchConfig}, {"time_budget_s", timeBudgetS}, {"finalists", finalists}};
}

Status writeBenchJson(const std::string& file, const machine::MachineModel& roof, const nlohmann::json& settings,
                      const std::vector<Row>& rows, const Geomeans& g, std::size_t asked) {
    nlohmann::json j{{"machine", machine::toJson(roof)},           {"config", settings["config"]},
                     {"time_budget_s", settings["time_budget_s"]}, {"finalists", settings["finalists"]},
                     {"complete", rows.size() >= asked},           {"problems_asked", asked},
                     {"geomean_speedup", g.overReference},         {"geomean_speedup_over_best_baseline", g.overBest},
                     {"problems", nlohmann::json::array()}};
    for (const auto& r : rows) {
        nlohmann::json row{{"problem", r.problem},
                           {"reference_s", r.referenceS},
                           {"library", r.library},
                           {"library_s", r.libraryS},
                           {"best_s", r.bestS},
                           {"speedup", r.speedup},
                           {"speedup_over_best_baseline", r.speedupOverBest},
                           {"roofline_fraction", r.roofline},
                           {"bound", r.bound == 'm'   ? "memory"
                                     : r.bound == 'l' ? "latency"
                                                      : "compute"},
                           {"evaluations", r.evaluations},
                           {"wall_s", r.wallS},
                           {"best_params", r.params},
                           {"gpu", r.gpu},
                           {"floor_s", r.floorS},
                           {"declared_bound", r.declaredBound},
                           {"shapes", shapesJson(r.shapes)}};
        if (r.gpu) {
            const auto& prof = r.profile;
            row["profile"] = {{"diagnosis", prof.diagnosis},
                              {"from", prof.source},
                              {"ncu_kernel", prof.kernel},
                              {"ncu_kernel_us", prof.kernelUs},
                              {"dram_pct", prof.dramPct},
                              {"sm_pct", prof.smPct},
                              {"l2_pct", prof.l2Pct},
                              {"occupancy_pct", prof.occupancyPct},
                              {"breakdown_s_per_evaluation", prof.breakdownS},
                              {"ncu_s_per_run", prof.ncuS},
                              {"ncu_runs", prof.ncuRuns}};
        }
        j["problems"].push_back(std::move(row));
    }
    return writeFileAtomic(file, jsonText(j, 2) + "\n");
}

Result<std::map<std::string, Row>> readBenchRows(const std::string& file, const nlohmann::json& settings,
                                                 const machine::MachineModel& roof, bool gpuOnly) {
    std::map<std::string, Row> rows;
    if (!std::filesystem::exists(file)) return rows; // nothing to resume: the run starts from the first problem
    auto text = readTextFile(file);
    if (!text) return text.error();
    const auto j = nlohmann::json::parse(*text, nullptr, false);
    const std::string again = "; run without --resume, or name another --json file";
    if (j.is_discarded() || !j.is_object() || !j.contains("problems") || !j["problems"].is_array())
        return makeError(ErrorCode::ParseError, file + " is not a bench's JSON" + again);
    for (const char* key : {"config", "time_budget_s", "finalists"})
        if (!j.contains(key) || j[key] != settings[key])
            return makeError(ErrorCode::Validation, file + " was written by a bench with other settings (" + key + ": " +
                                                        (j.contains(key) ? jsonText(j[key]) : std::string("not kept")) +
                                                        ", now " + jsonText(settings[key]) + ")" + again);
    const auto& machine = j.contains("machine") && j["machine"].is_object() ? j["machine"] : nlohmann::json::object();
    if (gpuNames(machine) != gpuNames(roof))
        return makeError(ErrorCode::Validation, file + " was measured on other GPUs (" + joined(gpuNames(machine)) + "; here " +
                                                    joined(gpuNames(roof)) + ")" + again);
    const std::string cpu = machine.contains("cpu") && machine["cpu"].is_string() ? machine["cpu"].get<std::string>() : "";
    if (!gpuOnly && cpu != roof.cpu)
        return makeError(ErrorCode::Validation,
                         file + " was measured on another CPU (" + cpu + "; here " + roof.cpu + ")" + again);
    for (const auto& p : j["problems"]) {
        try {
            Row r = rowFromJson(p);
            if (r.bestS > 0) rows[r.problem] = std::move(r); // one that found nothing runs again
        } catch (const nlohmann::json::exception& e) {
            return makeError(ErrorCode::ParseError,
                             file + ": a problem's row lacks what resuming needs (" + e.what() + ")" + again);
        }
    }
    return rows;
}

} // namespace kw::cli
