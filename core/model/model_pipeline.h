#pragma once
// From a model to a faster model, step by step, all in one folder (the
// model's "pipeline folder", a suite of problems with model.json beside):
//
//   extract  profile the model, take its costliest regions (leaf modules),
//            match each by behaviour to a bundled problem (a binding of the
//            module's tensors to the problem's arguments) or write it as a
//            KernelBench-format file and import it as a torch problem
//   search   a search per region's problem (suite search mode: resumable,
//            one workspace), the budget split by each region's headroom
//   apply    each region's best accepted kernel from the workspace into
//            kernels.json; the model with them in place checked against the
//            original on fresh inputs (each region, then the whole model)
//   ab       the original and the swapped model timed in interleaved rounds
//
// The user's model file is never edited: the swapped model is the model's
// own, with modules replaced on the instance.
#include "model/model_profile.h"
#include "store/database.h"
#include "suite/suite_runner.h"
#include "util/result.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kw::model {

struct ExtractOptions {
    int top = 6;            // regions at most
    double minShare = 0.01; // of the step; smaller regions are not worth a search
    ProfileOptions profile;
    // Bundled problems a region may match (empty: the host's kind under the
    // bundled problems: cpu, C++ problems, on a CPU; gpu, torch problems, on a GPU).
    std::filesystem::path problemsDir;
    double importTimeoutS = 900;
};

struct ExtractedRegion {
    std::string name, kind;
    double seconds = 0, hostSeconds = 0, share = 0;
    std::string problem; // the problem folder's name in the pipeline folder ("" when skipped)
    std::string matched; // the bundled problem it matched by behaviour ("" : a torch problem of its own)
    std::string skipped; // why it has no problem
    std::string sameAs;  // a like module earlier in the model whose problem (and kernel) it shares
};

struct ExtractReport {
    std::string modelName, device;
    double stepSeconds = 0;
    std::vector<ExtractedRegion> regions;
};

// Profiles `model` and writes `dir` (model.json, a problem folder per region).
Result<ExtractReport> extractModel(const std::filesystem::path& model, const std::filesystem::path& dir,
                                   const ExtractOptions& options);

// What extract left in `dir`.
Result<ExtractReport> readExtract(const std::filesystem::path& dir);

// Evaluations per region's problem: `total` split by each region's share of
// the step (at least `least` each).
std::map<std::string, int> regionBudgets(const ExtractReport& report, int total, int least = 2);

struct RegionCheck {
    std::string region, problem;
    std::int64_t searchId = 0, node = 0;
    std::optional<double> kernelSpeedup; // the search's best, alone
    bool swapped = false, ok = false;
    std::string why; // not swapped, or not correct
};

struct ApplyReport {
    std::vector<RegionCheck> regions;
    bool modelOk = false;
    std::string modelWhy;
    double tolerance = 0;
};

// Writes kernels.json from the searches the suite run of `dir` recorded in
// `db` and checks the model with them in place; the check is kept in
// DIR/apply.json.
Result<ApplyReport> applyModel(const store::Database& db, const std::filesystem::path& dir, double timeoutS = 900);

struct AbRow {
    std::string variant; // eager, swapped, compile, swapped+compile, only REGION
    double medianSeconds = 0, speedup = 0, low = 0, high = 0;
    std::string over; // eager | compile
    // "only REGION" rows: its kernel's speedup alone, and whether the model
    // ran slower with it (the whole interval below 1) though it was faster alone.
    std::optional<double> kernelSpeedup;
    bool slowerInModel = false;
};

struct RegionBeforeAfter {
    std::string name;
    double beforeSeconds = 0, afterSeconds = 0; // its forward, synchronised, in the original and the swapped model
};

struct AbReport {
    std::string device;
    int rounds = 0, stepsPerRound = 0;
    std::vector<AbRow> rows;
    std::vector<RegionBeforeAfter> regions;
    std::vector<std::string> notes;
};

// Times the original against the swapped model; the result is kept in DIR/ab.json.
Result<AbReport> abModel(const std::filesystem::path& dir, int rounds, double timeoutS = 1800);

// Everything a pipeline folder holds, each step's part when it has run:
// what the workbench's model tab and the model report show.
struct ModelFolder {
    std::filesystem::path dir;
    ExtractReport extract;
    std::vector<suite::Entry> searched; // DIR/suite-run-search.jsonl
    std::optional<ApplyReport> applied; // DIR/apply.json
    std::optional<AbReport> ab;         // DIR/ab.json
};

Result<ModelFolder> readModelFolder(const std::filesystem::path& dir);

} // namespace kw::model
