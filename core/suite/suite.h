#pragma once
// A suite: a folder of problems (what `problem import DIR` makes), run as one
// benchmark. Each problem's outcome is one line appended to a run file in the
// suite's folder as soon as it is known, so a run that is killed continues
// where it stopped. The report speaks KernelBench's terms: correctness rate,
// fast_p over eager and over torch.compile, geometric-mean speedups.
#include "util/result.h"

#include <nlohmann/json_fwd.hpp>

#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kw::suite {

enum class Mode { Reference, Seeds, Search };
std::string modeName(Mode mode);
std::optional<Mode> parseMode(const std::string& name);

struct Suite {
    std::string name;
    std::filesystem::path dir;
    std::vector<std::filesystem::path> problems; // problem folders, in run order
    std::vector<std::string> notImported;        // "file: why", from suite.json
};

// suite.json's list when there is one, else every subfolder holding a problem.json.
Result<Suite> loadSuite(const std::filesystem::path& dir);

// One problem's outcome in a run.
struct Entry {
    std::string problem;
    std::string status;                   // an EvalStatus name, or "invalid_problem"
    std::string message;                  // why, when not ok
    std::optional<double> speedup;        // over eager (the reference), when correct and timed
    std::optional<double> speedupCompile; // over torch.compile, when it was timed
    // The speedup's 95 % interval, when the problem has one timing shape and
    // the judge gave one (a geometric mean over shapes has none here).
    std::optional<std::pair<double, double>> interval;
    double wallS = 0;
    std::int64_t searchId = 0; // search runs: the search, in the workspace the run used

    bool correct() const { return status == "ok"; }
};
nlohmann::json toJson(const Entry& e);

// The run file of a mode: DIR/suite-run-MODE.jsonl.
std::filesystem::path runFile(const Suite& suite, Mode mode);
// The entries a run file holds (a torn last line, from a kill, is skipped).
std::vector<Entry> readRun(const std::filesystem::path& file);
// Appends one entry and flushes it to disk before returning.
Status appendRun(const std::filesystem::path& file, const Entry& entry);

struct Metrics {
    int problems = 0, correct = 0;
    // fast_p: the share of all problems that are correct and faster than p
    // times the baseline (fast_0 is the correctness rate).
    std::map<double, double> fastEager, fastCompile;
    int withCompile = 0;                                      // problems timed against torch.compile
    std::optional<double> geomeanEager, geomeanCompile;       // over the correct, timed problems
    std::map<std::string, std::vector<std::string>> failures; // status -> "problem: message"
};
Metrics metricsOf(const std::vector<Entry>& entries);
nlohmann::json toJson(const Metrics& m);

// Reference mode times the reference against itself: a judge that measures
// the same code twice alike reads 1.00. How many correct, timed problems came
// within 1 % and within 3 % of that, and the one furthest from it.
struct SelfAgreement {
    int timed = 0, within1 = 0, within3 = 0;
    // Of the timed entries with an interval, those whose interval holds 1.00:
    // a reading outside +-3 % whose interval holds 1.00 is the judge's noise.
    int withInterval = 0, intervalHoldsOne = 0;
    std::string worstProblem;
    double worst = 1.0; // that problem's speedup
};
SelfAgreement selfAgreementOf(const std::vector<Entry>& entries);
nlohmann::json toJson(const SelfAgreement& a);
// Whether a reference-mode speedup lies within `margin` of 1.00 (the report's
// 1 % and 3 %; the workbench marks rows outside 3 %).
inline bool agreesWithItself(double speedup, double margin = 0.03) {
    return std::abs(speedup - 1.0) <= margin;
}
// Whether a reading's 95 % interval holds 1.00 (a reference-mode outlier whose
// interval does is the judge's noise); false without an interval.
inline bool intervalHoldsOne(const std::optional<std::pair<double, double>>& interval) {
    return interval && interval->first <= 1.0 && 1.0 <= interval->second;
}

} // namespace kw::suite
