#include "model/model_pipeline.h"

#include "eval/torch_harness_generator.h"
#include "importer/torch_problem_import.h"
#include "model/model_helper.h"
#include "problem/problem_loader.h"
#include "problem/tunable_params.h"
#include "store/search_store.h"
#include "suite/suite.h"
#include "util/files.h"
#include "util/paths.h"

#include <algorithm>
#include <cmath>
#include <fstream>

namespace kw::model {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

Status writeJson(const fs::path& file, const json& j) {
    const fs::path tmp = file.string() + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << j.dump(2) << "\n";
        if (!out) return makeError(ErrorCode::Io, "cannot write " + tmp.string());
    }
    std::error_code ec;
    fs::rename(tmp, file, ec); // a reader never sees half a file
    if (ec) return makeError(ErrorCode::Io, "cannot write " + file.string() + ": " + ec.message());
    return {};
}

Result<json> readJson(const fs::path& file, const std::string& hint) {
    auto text = readTextFile(file);
    if (!text) return makeError(ErrorCode::NotFound, file.string() + ": not there; " + hint);
    json j = json::parse(*text, nullptr, false);
    if (!j.is_object()) return makeError(ErrorCode::ParseError, file.string() + " is not JSON; " + hint);
    return j;
}

const char* kExtractAgain = "run `kernelwright-cli model extract MODEL.py --out DIR` again";

json toJson(const ApplyReport& r) {
    json regions = json::array();
    for (const auto& c : r.regions)
        regions.push_back({{"region", c.region},
                           {"problem", c.problem},
                           {"search", c.searchId},
                           {"node", c.node},
                           {"kernel_speedup", c.kernelSpeedup ? json(*c.kernelSpeedup) : json(nullptr)},
                           {"swapped", c.swapped},
                           {"ok", c.ok},
                           {"why", c.why}});
    return {{"regions", regions}, {"model_ok", r.modelOk}, {"model_why", r.modelWhy}, {"tolerance", r.tolerance}};
}

ApplyReport applyFromJson(const json& j) {
    ApplyReport r;
    for (const auto& c : j.value("regions", json::array())) {
        RegionCheck x;
        x.region = c.value("region", std::string());
        x.problem = c.value("problem", std::string());
        x.searchId = c.value("search", std::int64_t{0});
        x.node = c.value("node", std::int64_t{0});
        if (c.contains("kernel_speedup") && c["kernel_speedup"].is_number()) x.kernelSpeedup = c["kernel_speedup"].get<double>();
        x.swapped = c.value("swapped", false);
        x.ok = c.value("ok", false);
        x.why = c.value("why", std::string());
        r.regions.push_back(std::move(x));
    }
    r.modelOk = j.value("model_ok", false);
    r.modelWhy = j.value("model_why", std::string());
    r.tolerance = j.value("tolerance", 0.0);
    return r;
}

AbReport abFromJson(const json& j) {
    AbReport report;
    report.device = j.value("device", std::string());
    report.rounds = j.value("rounds", 0);
    report.stepsPerRound = j.value("steps_per_round", 0);
    report.notes = j.value("notes", std::vector<std::string>{});
    for (const auto& v : j.value("variants", json::array())) {
        AbRow row;
        row.variant = v.value("variant", std::string());
        row.medianSeconds = v.value("median_s", 0.0);
        row.speedup = v.value("speedup", 0.0);
        const auto interval = v.value("interval", std::vector<double>{});
        if (interval.size() == 2) row.low = interval[0], row.high = interval[1];
        row.over = v.value("over", std::string("eager"));
        if (v.contains("kernel_speedup") && v["kernel_speedup"].is_number())
            row.kernelSpeedup = v["kernel_speedup"].get<double>();
        row.slowerInModel = v.value("slower_in_model", false);
        report.rows.push_back(std::move(row));
    }
    for (const auto& r : j.value("regions", json::array()))
        report.regions.push_back({r.value("name", std::string()), r.value("before_s", 0.0), r.value("after_s", 0.0)});
    return report;
}

} // namespace

Result<ExtractReport> extractModel(const fs::path& model, const fs::path& dir, const ExtractOptions& options) {
    std::error_code ec;
    if (!fs::is_regular_file(model, ec)) return makeError(ErrorCode::NotFound, model.string() + ": no such file");
    if (fs::exists(dir / "model.json", ec))
        return makeError(ErrorCode::Validation, dir.string() + " holds an extraction already: searches and kernels refer to "
                                                               "it; extract into a new folder (or remove this one)");
    auto profile = profileModel(model, options.profile);
    if (!profile) return profile.error();
    std::vector<const RegionTime*> picked;
    for (const auto& r : profile->regions)
        if (static_cast<int>(picked.size()) < options.top && r.share >= options.minShare) picked.push_back(&r);
    if (picked.empty())
        return makeError(ErrorCode::Validation, model.string() + ": no region takes " +
                                                    std::to_string(static_cast<int>(100 * options.minShare)) +
                                                    " % of a step or more (--min-share lowers the bar)");
    fs::path problems = options.problemsDir;
    if (problems.empty()) problems = paths::bundledProblemsDir() / (profile->device == "cpu" ? "cpu" : "gpu");
    fs::create_directories(dir, ec);
    if (ec) return makeError(ErrorCode::Io, "cannot create " + dir.string() + ": " + ec.message());
    std::vector<std::string> args{fs::absolute(model).string(), fs::absolute(dir).string(), problems.string()};
    for (const auto* r : picked) args.push_back(r->name);
    auto answer = runModelHelper({"model_regions.py", args, options.profile.timeoutS, options.profile.gpu,
                                  model.string() + ": matching the regions", "extract fewer regions (--top)"});
    if (!answer) return answer.error();
    json out = *answer;
    out["device"] = profile->device;
    out["step_s"] = profile->stepSeconds;
    for (auto& region : out["regions"]) {
        const auto name = region.value("name", std::string());
        for (const auto* r : picked)
            if (r->name == name) {
                region["time_s"] = r->seconds;
                region["host_s"] = r->hostSeconds;
                region["share"] = r->share;
            }
        if (!region.contains("source") || region.contains("same_as")) continue;
        // A region no bundled problem computes: its KernelBench file, imported.
        importer::ImportOptions io;
        io.outDir = dir / region.value("problem", std::string());
        io.name = region.value("problem", std::string());
        io.timeoutS = options.importTimeoutS;
        io.gpu = options.profile.gpu;
        auto imported = importer::importTorchProblem(region.value("source", std::string()), io);
        if (!imported) {
            region["skipped"] = "its problem did not import: " + imported.error().message;
            region.erase("problem");
        }
    }
    if (auto s = writeJson(dir / "model.json", out); !s) return s.error();
    return readExtract(dir);
}

Result<ExtractReport> readExtract(const fs::path& dir) {
    auto j = readJson(dir / "model.json", kExtractAgain);
    if (!j) return j.error();
    ExtractReport report;
    report.modelName = j->value("model_name", std::string());
    report.device = j->value("device", std::string());
    report.stepSeconds = j->value("step_s", 0.0);
    for (const auto& r : j->value("regions", json::array())) {
        ExtractedRegion e;
        e.name = r.value("name", std::string());
        e.kind = r.value("kind", std::string());
        e.seconds = r.value("time_s", 0.0);
        e.hostSeconds = r.value("host_s", 0.0);
        e.share = r.value("share", 0.0);
        e.problem = r.value("problem", std::string());
        e.matched = r.value("matched", std::string());
        e.skipped = r.value("skipped", std::string());
        e.sameAs = r.value("same_as", std::string());
        report.regions.push_back(std::move(e));
    }
    return report;
}

std::map<std::string, int> regionBudgets(const ExtractReport& report, int total, int least) {
    double shares = 0;
    for (const auto& r : report.regions)
        if (!r.problem.empty()) shares += r.share;
    // A problem's share is its regions' (twins share one problem).
    std::map<std::string, double> byProblem;
    for (const auto& r : report.regions)
        if (!r.problem.empty()) byProblem[r.problem] += r.share;
    std::map<std::string, int> budgets;
    for (const auto& [problem, share] : byProblem)
        budgets[problem] = std::max(least, shares > 0 ? static_cast<int>(std::lround(total * share / shares)) : least);
    return budgets;
}

Result<ApplyReport> applyModel(const store::Database& db, const fs::path& dir, double timeoutS) {
    auto extracted = readExtract(dir);
    if (!extracted) return extracted.error();
    auto suite = suite::loadSuite(dir);
    if (!suite) return suite.error();
    std::map<std::string, suite::Entry> searched;
    for (const auto& e : suite::readRun(suite::runFile(*suite, suite::Mode::Search))) searched[e.problem] = e;
    store::SearchStore store(db);
    ApplyReport report;
    json kernels = json::array();
    fs::create_directories(dir / "kernels");
    for (const auto& r : extracted->regions) {
        RegionCheck c;
        c.region = r.name;
        c.problem = r.problem;
        auto it = searched.find(r.problem);
        if (r.problem.empty()) {
            c.why = r.skipped.empty() ? "no problem" : r.skipped;
        } else if (it == searched.end() || !it->second.searchId) {
            c.why = "not searched yet (kernelwright-cli model search " + dir.string() + ")";
        } else if (auto s = store.loadSearch(it->second.searchId); !s) {
            c.why = "its search " + std::to_string(it->second.searchId) + " is not in this workspace (" + s.error().message + ")";
        } else if (!s->bestNode || !s->bestSpeedup) {
            c.searchId = s->id;
            c.why = "its search found no correct kernel" + (it->second.message.empty() ? "" : " (" + it->second.message + ")");
        } else if (*s->bestSpeedup <= 1.0) {
            c.searchId = s->id;
            c.kernelSpeedup = s->bestSpeedup;
            c.why = "its best kernel is not faster than the module (kept as it is)";
        } else {
            c.searchId = s->id;
            c.node = *s->bestNode;
            c.kernelSpeedup = s->bestSpeedup;
            auto nodes = store.loadNodes(s->id);
            auto problem = problem::loadProblem(dir / r.problem);
            if (!nodes || !problem)
                return makeError(ErrorCode::Io, "cannot read search " + std::to_string(s->id) + " or its problem");
            for (const auto& n : *nodes) {
                if (n.id != c.node) continue;
                auto source = store.sourceText(n.sourceHash);
                auto params = problem::parseAssignmentJson(n.paramsJson);
                if (!source || !params)
                    return makeError(ErrorCode::Io, "node " + std::to_string(n.id) + " has no readable source");
                const bool cpp = problem->backend == problem::Backend::Cpp;
                // A folder per winner: a torch winner imports kw_params, its
                // own parameters, from beside it (as the judge's job has it).
                const fs::path folder = dir / "kernels" / r.problem;
                fs::create_directories(folder);
                const fs::path file = folder / (cpp ? "kernel.cpp" : "candidate.py");
                std::ofstream(file, std::ios::binary | std::ios::trunc) << *source;
                auto space = problem::parseParamDeclarations(*source, n.sourceName);
                if (!cpp)
                    std::ofstream(folder / "kw_params.py", std::ios::binary | std::ios::trunc)
                        << eval::TorchHarnessGenerator::paramsModule(space ? *space : problem::ParamSpace{}, *params);
                json k{{"region", r.name},
                       {"language", cpp ? "cpp" : "python"},
                       {"source", fs::absolute(file).string()},
                       {"problem", fs::absolute(dir / r.problem / "problem.json").string()},
                       {"node", n.id},
                       {"search", s->id},
                       {"speedup", *s->bestSpeedup}};
                if (cpp) k["defines"] = space ? problem::paramDefines(*space, *params) : std::vector<std::string>{};
                kernels.push_back(k);
                c.swapped = true;
            }
        }
        report.regions.push_back(std::move(c));
    }
    if (auto s = writeJson(dir / "kernels.json", json{{"kernels", kernels}}); !s) return s.error();
    if (kernels.empty()) {
        report.modelOk = true; // nothing swapped: the model is its own
        if (auto s = writeJson(dir / "apply.json", toJson(report)); !s) return s.error();
        return report;
    }
    auto answer = runModelHelper({"model_swap.py",
                                  {"check", fs::absolute(dir).string()},
                                  timeoutS,
                                  "",
                                  "the model with its kernels",
                                  "check a smaller model"});
    if (!answer) return answer.error();
    for (const auto& r : answer->value("regions", json::array()))
        for (auto& c : report.regions)
            if (c.region == r.value("region", std::string())) {
                c.ok = r.value("ok", false);
                if (!c.ok) c.why = r.value("why", std::string("its output differs"));
            }
    report.modelOk = answer->value("model_ok", false);
    report.modelWhy = answer->value("model_why", std::string());
    report.tolerance = answer->value("tolerance", 0.0);
    if (auto s = writeJson(dir / "apply.json", toJson(report)); !s) return s.error();
    return report;
}

Result<AbReport> abModel(const fs::path& dir, int rounds, double timeoutS) {
    if (auto e = readExtract(dir); !e) return e.error();
    const std::string applyFirst = "run `kernelwright-cli model apply " + dir.string() + "` first";
    if (!fs::exists(dir / "kernels.json") || !fs::exists(dir / "apply.json"))
        return makeError(ErrorCode::NotFound, (dir / "apply.json").string() + ": not there; " + applyFirst);
    // No timing of a model whose output the check found wrong: a speedup of
    // a wrong model is no speedup.
    auto applied = readJson(dir / "apply.json", applyFirst);
    if (!applied) return applied.error();
    if (const auto check = applyFromJson(*applied); !check.modelOk)
        return makeError(ErrorCode::Validation, "the swapped model's output differs from the original's (" + check.modelWhy +
                                                    "): the last apply found a kernel wrong; search again or drop it, then " +
                                                    applyFirst);
    auto answer = runModelHelper({"model_swap.py",
                                  {"ab", fs::absolute(dir).string(), std::to_string(rounds)},
                                  timeoutS,
                                  "",
                                  "the model's A/B rounds",
                                  "fewer rounds (--rounds)"});
    if (!answer) return answer.error();
    if (auto s = writeJson(dir / "ab.json", *answer); !s) return s.error();
    return abFromJson(*answer);
}

Result<ModelFolder> readModelFolder(const fs::path& dir) {
    auto extract = readExtract(dir);
    if (!extract) return extract.error();
    ModelFolder folder;
    folder.dir = dir;
    folder.extract = std::move(*extract);
    suite::Suite runs; // the run file's place only: the problems need not be there to show what ran
    runs.dir = dir;
    folder.searched = suite::readRun(suite::runFile(runs, suite::Mode::Search));
    // A step's file that does not read is as if the step had not run: the
    // folder still shows what the other steps left.
    if (auto j = readJson(dir / "apply.json", ""); j) folder.applied = applyFromJson(*j);
    if (auto j = readJson(dir / "ab.json", ""); j) folder.ab = abFromJson(*j);
    return folder;
}

} // namespace kw::model
