#include "report/best_kernel_export.h"
#include "util/json_text.h"

#include "eval/evaluation_result.h"
#include "problem/problem_loader.h"
#include "problem/tunable_params.h"
#include "report/standalone_kernel.h"
#include "store/evaluation_store.h"
#include "store/search_store.h"
#include "util/files.h"
#include "util/format.h"
#include "util/paths.h"
#include "util/text.h"

#include <cstdio>

namespace kw::report {
namespace {

// Quotes only what a shell would split or expand, so the command stays readable.
std::string shellArg(const std::string& s) {
    const bool plain =
        !s.empty() &&
        s.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./=:,+-@%") == std::string::npos;
    return plain ? s : shellQuote(s);
}

// The problem's backend when it still loads (null: it does not; the source tells).
std::string fileExtension(const problem::ProblemSpec* problem, const std::string& source) {
    if (!problem) return source.find("class ModelNew") != std::string::npos ? ".py" : ".cpp";
    if (problem->backend == problem::Backend::Torch) return ".py";
    if (problem->backend == problem::Backend::Cuda) return ".cu";
    return ".cpp";
}

// A bundled problem is named (it resolves on any installation); any other by its folder.
std::string problemArgument(const store::SearchRecord& search) {
    std::error_code ec;
    const auto dir = std::filesystem::weakly_canonical(search.problemDir, ec);
    const auto bundled = std::filesystem::weakly_canonical(paths::bundledProblemsDir(), ec);
    for (const auto& candidate : problem::findProblemDirs(bundled))
        if (candidate == dir) return candidate.filename().string();
    return search.problemDir;
}

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

std::string timingTable(const eval::EvaluationResult& result) {
    if (result.timing.empty()) return "No timing shapes were measured (the search ran correctness checks only).\n";
    std::string header = "| shape | sizes | this kernel (median) | p10 / p90 |";
    std::string rule = "|---|---|---|---|";
    for (const auto& b : result.timing.front().baselines) {
        header += " " + b.name + " (median) |";
        rule += "---|";
    }
    std::string table = header + " speedup |\n" + rule + "---|\n";
    for (const auto& t : result.timing) {
        table += "| " + t.shape + " | `" + jsonText(t.sizes) + "` | " + formatSeconds(t.candidate.median) + " | " +
                 formatSeconds(t.candidate.p10) + " / " + formatSeconds(t.candidate.p90) + " |";
        for (const auto& b : t.baselines) table += " " + formatSeconds(b.median) + " |";
        table += " " + number(t.speedup) + "x |\n";
    }
    return table;
}

std::string machineLines(const nlohmann::json& env) {
    std::string lines;
    for (const char* key : {"host", "cpu", "cores", "device", "compiler", "flags"})
        if (env.contains(key) && !env[key].is_null()) {
            const auto& v = env[key];
            lines += std::string("- ") + key + ": " + (v.is_string() ? v.get<std::string>() : jsonText(v)) + "\n";
        }
    return lines.empty() ? "- not recorded\n" : lines;
}

} // namespace

Result<BestKernelExport> exportBestKernel(const store::Database& db, std::int64_t searchId, const std::filesystem::path& dir,
                                          const SecretScrubber& scrubber) {
    store::SearchStore searches(db);
    auto search = searches.loadSearch(searchId);
    if (!search) return search.error();
    if (!search->bestNode)
        return makeError(ErrorCode::NotFound,
                         "search " + std::to_string(searchId) + " has no correct node yet: export it once one is found");
    auto nodes = searches.loadNodesById(searchId, {*search->bestNode});
    if (!nodes) return nodes.error();
    if (nodes->empty())
        return makeError(ErrorCode::NotFound, "search " + std::to_string(searchId) + " names a best node that is missing");
    const auto& node = nodes->front();
    auto kernel = standaloneKernel(db, searchId, node.id);
    if (!kernel) return kernel.error();
    auto source = searches.sourceText(node.sourceHash);
    if (!source) return source.error();

    auto problem = problem::loadProblem(search->problemDir);
    auto params = problem::parseAssignmentJson(node.paramsJson);
    if (!params) return params.error();
    // Every param, defaults included, so the harness defines exactly what the file bakes in.
    problem::ParamAssignment full = *params;
    if (auto space = problem::parseParamDeclarations(*source, node.sourceName))
        if (auto completed = space->complete(*params)) full = *completed;

    BestKernelExport out;
    out.searchId = searchId;
    out.nodeId = node.id;
    out.nodeNumber = node.seq;
    out.speedup = node.speedup.value_or(0);
    out.kernelFile = node.sourceName + "_node" + std::to_string(node.id) + fileExtension(problem ? &*problem : nullptr, *source);
    out.kernel = scrubber.scrub(*kernel);
    std::vector<std::string> command{"kernelwright-cli",       "eval",        "--problem",
                                     problemArgument(*search), "--candidate", (dir / out.kernelFile).string()};
    for (const auto& [k, v] : full) {
        command.push_back("--param");
        command.push_back(k + "=" + v);
    }
    for (const auto& word : command) out.verifyCommand += (out.verifyCommand.empty() ? "" : " ") + shellArg(word);

    std::optional<eval::EvaluationResult> result;
    if (node.evaluationId > 0)
        if (auto record = store::EvaluationStore(db).find(node.evaluationId))
            if (auto parsed = eval::parseResultJson(record->resultJson)) result = std::move(*parsed);

    std::string& md = out.readme;
    md += "# " + search->problem + ": the best kernel of search " + std::to_string(searchId) + "\n\n";
    if (problem && !problem->title.empty()) md += problem->title + ".\n\n";
    md += "- kernel: `" + out.kernelFile + "` (node #" + std::to_string(node.seq) + ", " + node.origin + ", from `" +
          node.sourceName + "`)\n";
    md += "- params (baked in as definitions): " +
          (full.empty() ? std::string("none") : "`" + problem::formatAssignment(full) + "`") + "\n";
    md += "- status: " + node.status.value_or(node.state) + "\n";
    md += "- speedup over the reference: " + number(out.speedup) + "x (geometric mean over the timing shapes)\n";
    if (result && result->implausibleSpeedup)
        md += "- flagged: the speedup is above the problem's plausibility limit; review before trusting it\n";
    md += "- problem folder when measured: `" + search->problemDir + "`\n";
    md += "- measured: " + node.finishedAt + "\n\n";
    md += "## Timings\n\nMedians of interleaved runs in one process, caches flushed before each call; the reference is the first "
          "baseline.\n\n";
    md += result ? timingTable(*result) : std::string("The evaluation's record is missing from the workspace.\n");
    md += "\n## Machine\n\n" + (result ? machineLines(result->env) : std::string("- not recorded\n"));
    md += "\n## Verify it again\n\n```sh\n" + out.verifyCommand +
          "\n```\n\n"
          "This builds the kernel with the problem's harness, checks it against the reference on every check shape and times it "
          "against the baselines; exit code 0 means correct. Timings differ on another machine.\n";
    md = scrubber.scrub(md);
    return out;
}

Status writeBestKernelExport(const BestKernelExport& exported, const std::filesystem::path& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return makeError(ErrorCode::Io, "cannot create " + dir.string() + ": " + ec.message());
    if (auto s = writeFileAtomic(dir / exported.kernelFile, exported.kernel); !s) return s;
    return writeFileAtomic(dir / "README.md", exported.readme);
}

} // namespace kw::report
