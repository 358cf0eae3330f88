// `model profile|extract|search|apply|ab`: from a model to a faster model.
// profile shows where the time goes; the other four are the pipeline of
// core/model/model_pipeline.h over one folder.
#include "args.h"
#include "command_table.h"
#include "commands.h"
#include "executor_options.h"
#include "exit_codes.h"
#include "model_tables.h"

#include "model/model_pipeline.h"
#include "search/search_config_json.h"
#include "suite/suite_runner.h"
#include "util/format.h"
#include "util/paths.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

namespace kw::cli {
namespace {

const char* kModelHelp = R"(usage: kernelwright-cli model profile MODEL.py [--steps N] [--top N] [--json]
       kernelwright-cli model extract MODEL.py --out DIR [--top N] [--min-share F] [--problems DIR]
       kernelwright-cli model search DIR [--budget N] [--time-budget S] [executor options]
       kernelwright-cli model apply DIR
       kernelwright-cli model ab DIR [--rounds N]

A model in KernelBench's format (class Model, get_inputs, get_init_inputs)
runs in a Python of its own (KW_PYTHON or python3 with PyTorch), on the GPU
when one is visible, else on the CPU. The user's file is never edited.

profile  N forward passes (default 10, after three warm ones) under PyTorch's
         profiler, per step, costliest first:
           regions  each leaf module (what a kernel can replace): its time on
                    the device (and, on a GPU, the host's time launching it),
                    share of the step, calls, bytes read and written, and its
                    floor at this host's bandwidth (after `machine probe`)
           ops      each ATen op's own time, share, calls, input shapes
         --top N rows of each table (default 15), --json the whole profile
extract  the costliest regions (--top, default 6; at least --min-share of a
         step, default 0.01) become problems in DIR: a region that computes
         what a bundled problem computes (tried on the model's own inputs, its
         tensors bound to the problem's arguments) is that problem at the
         model's sizes, with its seeds; any other is a torch problem of its
         own, its inputs drawn by running the model up to it. DIR/model.json
         keeps the regions and bindings.
search   a search per region's problem, in this workspace (resumable: what
         finished is kept in DIR/suite-run-search.jsonl), --budget N
         evaluations in all (default 24), split by each region's share
apply    each region's best kernel into DIR/kernels.json; the model with them
         in place is checked on fresh inputs: each swapped region against the
         module on the same arguments, then the whole model's output
ab       the original and the swapped model timed in --rounds interleaved,
         shuffled rounds (default 15) on the same inputs: eager, swapped,
         torch.compile of each where PyTorch has it, and each region swapped
         alone (what it contributes); medians and 95 % intervals
)";

int usage(const char* what) {
    std::fprintf(stderr, "model: %s\n", what);
    return kExitUsage;
}

int failed(const char* step, const Error& e) {
    std::fprintf(stderr, "model %s: %s\n", step, e.message.c_str());
    return exitCodeFor(e);
}

int modelProfile(const Args& args) {
    if (args.positional().size() != 2) return usage("which model? kernelwright-cli model profile MODEL.py");
    model::ProfileOptions options;
    if (auto v = args.value("steps")) options.steps = std::max(1, std::stoi(*v));
    const int top = args.value("top") ? std::max(1, std::stoi(*args.value("top"))) : 15;
    auto p = model::profileModel(args.positional()[1], options);
    if (!p) return failed("profile", p.error());
    if (args.has("json")) {
        std::printf("%s\n", profileJson(*p).dump(2).c_str());
        return kExitOk;
    }
    printProfile(args.positional()[1], *p, top);
    return kExitOk;
}

int modelExtract(const Args& args) {
    if (args.positional().size() != 2 || !args.value("out"))
        return usage("which model, into which folder? kernelwright-cli model extract MODEL.py --out DIR");
    model::ExtractOptions options;
    if (auto v = args.value("top")) options.top = std::max(1, std::stoi(*v));
    if (auto v = args.value("min-share")) options.minShare = std::stod(*v);
    if (auto v = args.value("steps")) options.profile.steps = std::max(1, std::stoi(*v));
    if (auto v = args.value("problems")) options.problemsDir = *v;
    auto r = model::extractModel(args.positional()[1], *args.value("out"), options);
    if (!r) return failed("extract", r.error());
    printExtract(*args.value("out"), *r);
    return kExitOk;
}

class SearchProgress final : public suite::RunObserver {
  public:
    void starting(const std::string& problem, int done, int total, double) override {
        std::fprintf(stderr, "[%d/%d] %s\n", done + 1, total, problem.c_str());
    }
    void finished(const suite::Entry& e) override {
        std::fprintf(stderr, "  %s: %s%s\n", e.problem.c_str(), e.status.c_str(),
                     e.speedup ? (" " + speedupText(*e.speedup)).c_str() : "");
    }
};

int modelSearch(const Args& args, const GlobalOptions& global) {
    if (args.positional().size() != 2) return usage("which folder? kernelwright-cli model search DIR (what model extract wrote)");
    const std::filesystem::path dir = args.positional()[1];
    auto extracted = model::readExtract(dir);
    if (!extracted) return failed("search", extracted.error());
    auto suite = suite::loadSuite(dir);
    if (!suite) return failed("search", suite.error());
    suite::RunOptions options;
    options.mode = suite::Mode::Search;
    options.eval.timeBudgetS = std::stod(args.value("time-budget").value_or("1"));
    options.budgets = model::regionBudgets(*extracted, std::stoi(args.value("budget").value_or("24")));
    auto config = search::configFromJson(nlohmann::json{{"max_evaluations", 8}, {"workers", 1}});
    if (!config) return failed("search", config.error());
    options.search = *config;
    auto db = store::Database::open(global.database.empty() ? paths::defaultDatabase() : std::filesystem::path(global.database));
    if (!db) return failed("search", db.error());
    auto executor = makeExecutor(args, 1);
    if (!executor) return failed("search", executor.error());
    eval::Evaluator evaluator(**executor, &*db);
    options.parallel = static_cast<int>((*executor)->slotCount());
    SearchProgress progress;
    auto entries = suite::runSuite(*db, evaluator, *suite, options, &progress);
    if (!entries) return failed("search", entries.error());
    printSearch(*extracted, *entries, options.budgets);
    return kExitOk;
}

int modelApply(const Args& args, const GlobalOptions& global) {
    if (args.positional().size() != 2) return usage("which folder? kernelwright-cli model apply DIR (what model search ran)");
    auto db = store::Database::open(global.database.empty() ? paths::defaultDatabase() : std::filesystem::path(global.database));
    if (!db) return failed("apply", db.error());
    auto r = model::applyModel(*db, args.positional()[1]);
    if (!r) return failed("apply", r.error());
    printApply(*r);
    return r->modelOk ? kExitOk : kExitError;
}

int modelAb(const Args& args) {
    if (args.positional().size() != 2) return usage("which folder? kernelwright-cli model ab DIR (after model apply)");
    const int rounds = std::max(3, std::stoi(args.value("rounds").value_or("15")));
    auto r = model::abModel(args.positional()[1], rounds);
    if (!r) return failed("ab", r.error());
    printAb(*r);
    return kExitOk;
}

} // namespace

int runModelCommand(const std::vector<std::string>& argv, const GlobalOptions& global) {
    std::string error;
    auto args = Args::parse(argv, verb("model").valued, verb("model").flags, error, "model");
    if (!args) return usage(error.c_str());
    const std::string sub = args->positional().empty() ? "" : args->positional()[0];
    if (args->has("help") || sub.empty()) {
        std::fputs(kModelHelp, sub.empty() && !args->has("help") ? stderr : stdout);
        return args->has("help") ? kExitOk : kExitUsage;
    }
    try {
        if (sub == "profile") return modelProfile(*args);
        if (sub == "extract") return modelExtract(*args);
        if (sub == "search") return modelSearch(*args, global);
        if (sub == "apply") return modelApply(*args, global);
        if (sub == "ab") return modelAb(*args);
    } catch (const std::exception&) { // std::stoi/stod on a value that is not a number
        return usage("--steps, --top, --budget and --rounds take whole numbers, --min-share and --time-budget numbers");
    }
    std::fprintf(stderr, "model: unknown subcommand '%s' (profile, extract, search, apply, ab)\n", sub.c_str());
    return kExitUsage;
}

} // namespace kw::cli
