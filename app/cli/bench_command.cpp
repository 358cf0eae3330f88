// kernelwright-cli bench: a search per problem, then what it won, measured
// against the reference, a library baseline where the problem has one, and
// the machine's roofline.
#include "args.h"
#include "bench_json.h"
#include "bench_row.h"
#include "command_table.h"
#include "commands.h"
#include "executor_options.h"
#include "exit_codes.h"
#include "verdict_printer.h"

#include "eval/evaluator.h"
#include "eval/sandbox.h"
#include "machine/machine_cache.h"
#include "problem/problem_loader.h"
#include "profile/ncu_report.h"
#include "profile/profile_report.h"
#include "profile/profiler.h"
#include "search/search_config_json.h"
#include "search/search_launcher.h"
#include "store/evaluation_store.h"
#include "store/profile_store.h"
#include "store/search_store.h"
#include "util/paths.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

namespace kw::cli {
namespace {

const char* kBenchHelp = R"(usage: kernelwright-cli bench [--problems NAME,NAME...] [--budget N] [--policy P]
                           [--workers N] [--seed S] [--time-budget S] [--finalists N]
                           [--json FILE [--resume]] [--reprobe] [--sandbox POLICY]

Runs a tuner search on each problem (default: every bundled CPU problem) and
prints: the reference's time, the library baseline's where the problem has one,
the best kernel's time, its speedup over the reference and over the fastest
baseline of each shape (vs best: a library, torch.compile), the % of the roofline bound it reaches,
the evaluations used and the wall time. Times are summed over each problem's
timing shapes. The roofline comes from this host's machine model (probed once
and cached: see `machine --help`); --reprobe measures the machine first.
With --executor ssh the candidates run on the hosts given and the roofline
column is left out (it is this host's). --sandbox required | preferred | off
(default preferred) holds wherever candidates run; the sandbox in use is
printed first.

The search times candidates while its workers run others beside them, and the
fastest of many noisy timings flatters its winner. So once a problem's search
ends, its --finalists fastest kernels (default 3) are timed again one at a
time, nothing else running, and the fastest of those is the row's best kernel.

With --gpus naming two or more GPUs, problems are benched side by side, one on
each GPU with that GPU's workers (--gpus 0,0,1,1: two at once, two workers
each): every problem runs as it would on a host of one GPU, and its finalists
are timed alone on that GPU.

GPU problems get a second table: the best kernel's diagnosis and the numbers
Nsight Compute gave for its longest kernel (DRAM, SM and L2 throughput as % of
peak, achieved occupancy; the search's best is profiled with ncu when it is
re-timed, unless the search already did), and what profiling cost each of the
search's evaluations (the judge's breakdown call, and ncu where it ran).

--json FILE is written after every problem ("complete": false until the last
one is in), so a run cut short keeps the problems that finished; --resume
(with that --json FILE) goes on with it: its problems are kept, not searched
again (also those this call does not name: the run is every problem it
holds), and the others run, when its settings (budget, policy, workers, seed,
time budget, finalists) and its GPUs (or CPU) are this run's. GPU problems
are also measured against their floor: their bytes at the GPU's copy
bandwidth, or their lookups ("gathers") at its L2 gather rate, if longer.

)";

class QuietProgress final : public search::SearchObserver {
  public:
    explicit QuietProgress(std::string name) : name_(std::move(name)) {}
    void progress(const search::SearchProgress& p) override {
        if (p.done == last_ || (p.done % 8 != 0 && p.done != p.budget)) return;
        last_ = p.done;
        std::fprintf(stderr, "  %s: %d/%d evaluated, best %.3gx\n", name_.c_str(), p.done, p.budget, p.bestSpeedup);
    }

  private:
    std::string name_;
    int last_ = -1;
};

// A node's kernel evaluated once more in a fresh job (no cached result). A
// torch problem's gets torch.compile of the reference timed beside it (the
// search itself skips that baseline: compiling it in every job would cost
// more than the kernel).
Result<eval::EvaluationResult> retime(eval::Evaluator& evaluator, const store::Database& db, const problem::ProblemSpec& p,
                                      const store::NodeRecord& node, eval::EvalOptions options) {
    auto source = store::SearchStore(db).sourceText(node.sourceHash);
    if (!source) return source.error();
    auto params = problem::parseAssignmentJson(node.paramsJson);
    if (!params) return params.error();
    eval::Candidate c{node.sourceName, *source, *params};
    options.torchCompileBaseline = p.backend == problem::Backend::Torch;
    options.useCache = false;
    return evaluator.evaluate(p, c, options);
}

// The search's `count` fastest correct nodes, fastest first (the search's
// own best always among them).
std::vector<store::NodeRecord> finalists(const std::vector<store::NodeRecord>& nodes, tree::NodeId best, int count) {
    std::vector<store::NodeRecord> ok;
    for (const auto& n : nodes)
        if (n.evaluationId && n.speedup && *n.speedup > 0 && n.status && *n.status == "ok") ok.push_back(n);
    std::stable_sort(ok.begin(), ok.end(), [&](const auto& a, const auto& b) {
        if ((a.id == best) != (b.id == best)) return a.id == best;
        return *a.speedup > *b.speedup;
    });
    if (static_cast<int>(ok.size()) > count) ok.resize(static_cast<std::size_t>(count));
    return ok;
}

Result<eval::EvaluationResult> storedResult(const store::Database& db, std::int64_t evaluationId) {
    auto rec = store::EvaluationStore(db).find(evaluationId);
    if (!rec) return rec.error();
    return eval::parseResultJson(rec->resultJson);
}

double totalCandidateSeconds(const eval::EvaluationResult& r) {
    double sum = 0;
    for (const auto& t : r.timing) sum += t.candidate.median;
    return sum;
}

} // namespace

// The Nsight Compute kernels of an evaluation's stored profile (none when it
// was never profiled with ncu).
std::vector<profile::NcuKernel> storedNcu(const store::Database& db, std::int64_t evaluationId) {
    std::vector<profile::NcuKernel> out;
    auto stored = store::ProfileStore(db).latest(evaluationId);
    if (!stored || !*stored) return out;
    const auto report = nlohmann::json::parse((*stored)->reportJson, nullptr, false);
    if (report.is_object() && report.contains("ncu") && report["ncu"].is_array())
        for (const auto& k : report["ncu"]) out.push_back(profile::ncuKernelFromJson(k));
    return out;
}

// The longest of the kernels ncu measured, into the row's profile.
void takeLongest(const std::vector<profile::NcuKernel>& kernels, Row::GpuProfile& out) {
    const auto top = std::max_element(kernels.begin(), kernels.end(),
                                      [](const auto& a, const auto& b) { return a.durationNs < b.durationNs; });
    if (top == kernels.end()) return;
    out.kernel = top->name;
    out.kernelUs = top->durationNs / 1e3;
    out.dramPct = top->dramPct;
    out.smPct = top->smPct;
    out.l2Pct = top->l2Pct;
    out.occupancyPct = top->achievedOccupancyPct;
}

// A GPU row's profile: the chosen kernel's (its own re-timing, when that one
// ran ncu; else its node's stored profile) and the search's profiling cost
// (the judge's breakdown and ncu phases of each correct evaluation).
Row::GpuProfile gpuProfileOf(const store::Database& db, const profile::Profiler* profiler, const eval::EvaluationResult& chosen,
                             const store::NodeRecord& node, const std::vector<store::NodeRecord>& nodes) {
    Row::GpuProfile out;
    const bool ranNcu = chosen.profileFiles.count("ncu.csv") > 0 || chosen.profileFiles.count("unavailable-ncu.txt") > 0;
    auto source = store::SearchStore(db).sourceText(node.sourceHash);
    if (ranNcu && profiler && source) {
        const auto report = profiler->profile(chosen, eval::ProfileLevel::Ncu, *source, node.paramsJson);
        for (const auto& name : report.signalNames()) out.diagnosis += (out.diagnosis.empty() ? "" : ",") + name;
        takeLongest(report.ncu, out);
        out.source = "re-timing";
    } else if (auto stored = store::ProfileStore(db).latest(node.evaluationId); stored && *stored) {
        for (const auto& name : (*stored)->diagnosis) out.diagnosis += (out.diagnosis.empty() ? "" : ",") + name;
        takeLongest(storedNcu(db, node.evaluationId), out);
        out.source = "search";
    }
    int counted = 0;
    for (const auto& n : nodes) {
        if (!n.evaluationId || !n.status || *n.status != "ok") continue;
        const auto r = storedResult(db, n.evaluationId);
        if (!r || !r->phaseSeconds.is_object()) continue;
        ++counted;
        out.breakdownS += r->phaseSeconds.value("breakdown", 0.0);
        if (r->phaseSeconds.contains("ncu")) {
            out.ncuS += r->phaseSeconds.value("ncu", 0.0);
            ++out.ncuRuns;
        }
    }
    if (counted) out.breakdownS /= counted;
    if (out.ncuRuns) out.ncuS /= out.ncuRuns;
    return out;
}

// One problem benched: a search, its finalists timed again alone, the
// fastest of them (or the search's own best when every re-timing fails).
Row benchOne(const store::Database& db, eval::Evaluator& evaluator, const problem::ProblemSpec& p,
             const search::SearchConfig& config, const eval::EvalOptions& options,
             const std::shared_ptr<const profile::Profiler>& profiler, int finalistCount) {
    const auto t0 = std::chrono::steady_clock::now();
    Row row;
    row.problem = p.name;
    const auto wall = [&t0] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
    auto id = search::createSearch(db, p, config, "");
    QuietProgress progress(p.name);
    search::SearchLaunch launch;
    launch.searchId = id ? *id : 0;
    launch.sharedEvaluator = &evaluator; // one for every problem, and for re-timing the finalists
    launch.evalOptions = options;
    if (p.backend == problem::Backend::Torch) launch.evalOptions.torchCompileBaseline = false;
    launch.profiler = profiler;
    launch.profileLocalJobs = false;
    auto launched =
        id ? search::launchSearch(db, std::move(launch)) : Result<std::unique_ptr<search::LaunchedSearch>>(id.error());
    auto outcome = launched ? (*launched)->run({}, &progress) : Result<search::SearchOutcome>(launched.error());
    if (!outcome) {
        std::fprintf(stderr, "bench: %s: %s\n", p.name.c_str(), outcome.error().message.c_str());
        row.wallS = wall();
        return row;
    }
    row.evaluations = outcome->evaluations;
    auto loaded = store::SearchStore(db).loadNodes(*id);
    const auto nodes = loaded ? std::move(*loaded) : std::vector<store::NodeRecord>{};
    std::optional<eval::EvaluationResult> chosen;
    store::NodeRecord chosenNode;
    bool first = true;
    for (const auto& n : finalists(nodes, outcome->bestNode, finalistCount)) {
        // The search's best (the first finalist) also runs Nsight Compute, after
        // its timing, in the same job, unless the search already profiled it
        // with ncu: the row's profile (GPU problems, where ncu is).
        eval::EvalOptions retimeOptions = options;
        if (first && problem::runsOnGpu(p.backend) && storedNcu(db, n.evaluationId).empty())
            retimeOptions.profile = eval::ProfileLevel::Ncu;
        first = false;
        auto again = retime(evaluator, db, p, n, retimeOptions);
        if (!again || !again->correct()) {
            std::fprintf(stderr, "bench: %s: timing node %lld again failed: %s\n", p.name.c_str(), static_cast<long long>(n.seq),
                         again ? again->message.c_str() : again.error().message.c_str());
            continue;
        }
        const auto inSearch = storedResult(db, n.evaluationId);
        std::fprintf(stderr, "  %s: finalist node %lld: %s in the search, %s alone\n", p.name.c_str(),
                     static_cast<long long>(n.seq), inSearch ? formatSeconds(totalCandidateSeconds(*inSearch)).c_str() : "?",
                     formatSeconds(totalCandidateSeconds(*again)).c_str());
        if (!chosen || totalCandidateSeconds(*again) < totalCandidateSeconds(*chosen)) {
            chosen = std::move(*again);
            chosenNode = n;
        }
    }
    if (!chosen) {
        const auto best = std::find_if(nodes.begin(), nodes.end(), [&](const auto& n) { return n.id == outcome->bestNode; });
        if (best != nodes.end() && best->evaluationId)
            if (auto stored = storedResult(db, best->evaluationId)) {
                chosen = std::move(*stored);
                chosenNode = *best;
            }
    }
    if (chosen) {
        row.gpu = problem::runsOnGpu(p.backend);
        row.speedup = chosen->speedup.value_or(0);
        row.speedupOverBest = chosen->speedupOverBestBaseline().value_or(0);
        row.params = chosenNode.paramsJson;
        for (const auto& t : chosen->timing) {
            row.bestS += t.candidate.median;
            if (!t.baselines.empty()) row.referenceS += t.baselines[0].median;
            if (t.baselines.size() > 1) {
                row.libraryS += t.baselines[1].median;
                row.library = t.baselines[1].name;
            }
            row.shapes.push_back({t.bytes, t.flops, t.candidate.median, t.gathers});
        }
        row.declaredBound = p.bound;
        if (row.gpu) row.profile = gpuProfileOf(db, profiler.get(), *chosen, chosenNode, nodes);
    }
    row.wallS = wall(); // the finalists' timings included
    return row;
}

// The memory roof is the best the machine has shown: the cached model's
// DRAM figure, a probe taken now, or the rate a memory-bound best kernel
// reached, whichever is highest (a model probed while the machine was slow
// must not flatter the kernels).
void raiseDramRoof(machine::MachineModel& roof, const std::vector<Row>& rows, int coresPerJob) {
    const bool all = coresPerJob >= roof.cores;
    const double now = machine::probeDramBandwidth(all ? roof.cores : 1);
    for (auto& level : roof.bandwidth) {
        if (level.level != "DRAM") continue;
        double& cached = all ? level.gbsAll : level.gbs1;
        std::printf("DRAM roof (%s): %.1f GB/s cached, %.1f GB/s probed after the run; using %.1f\n",
                    all ? "all cores" : "1 core", cached, now, std::max(cached, now));
        cached = std::max(cached, now);
        // A kernel moving its problem's fewest bytes from memory flushed
        // before each call shows a rate the machine has: the probes, on a
        // shared host, may have met a busier moment.
        const char* shownBy = nullptr;
        double shown = 0;
        for (const auto& row : rows) {
            if (row.gpu || row.bestS <= 0 || row.boundOn(roof, coresPerJob) != 'm') continue;
            const double rate = row.bytes() / row.bestS / 1e9;
            if (rate > shown) {
                shown = rate;
                shownBy = row.problem.c_str();
            }
        }
        if (shownBy && shown > cached) {
            std::printf("DRAM roof raised to %.1f GB/s: %s's best kernel moved its bytes that fast\n", shown, shownBy);
            cached = shown;
        }
    }
}

// The table of every problem, and the GPU problems' floors.
Geomeans geomeansOf(const std::vector<Row>& rows) {
    double logSum = 0, logSumBest = 0;
    int counted = 0, countedBest = 0;
    for (const auto& r : rows) {
        if (r.speedup > 0) {
            logSum += std::log(r.speedup);
            ++counted;
        }
        if (r.speedupOverBest > 0) {
            logSumBest += std::log(r.speedupOverBest);
            ++countedBest;
        }
    }
    return {counted ? std::exp(logSum / counted) : 0, countedBest ? std::exp(logSumBest / countedBest) : 0, counted};
}

// Each row's place against the roofs: the CPU roofline of this host's cores
// per job, or the GPU floor (bytes at the copy bandwidth, lookups at the L2
// gather rate, whichever is longer).
void placeOnRoofs(std::vector<Row>& rows, const machine::MachineModel& roof, bool onThisHost, int coresPerJob) {
    for (auto& row : rows) {
        if (row.gpu) {
            row.floorS = 0;
            if (!roof.gpus.empty())
                for (const auto& t : row.shapes) row.floorS += machine::gpuFloorSeconds(roof.gpus.front(), t.bytes, t.gathers);
            row.roofline = row.floorS > 0 && row.bestS > 0 ? row.floorS / row.bestS : 0;
            row.bound = 'm';
            continue;
        }
        double floor = 0;
        for (const auto& t : row.shapes) floor += roof.floorSeconds(t.bytes, t.flops, coresPerJob);
        row.roofline = row.bestS > 0 && onThisHost ? floor / row.bestS : 0;
        row.bound = row.boundOn(roof, coresPerJob);
    }
}

Geomeans printTables(const std::vector<Row>& rows, const machine::MachineModel& roof, bool onThisHost, int coresPerJob) {
    std::printf("\n%-22s %11s %11s %11s %9s %9s %9s %6s %8s\n", "problem", "reference", "library", "best", "speedup", "vs best",
                "roofline", "evals", "wall");
    for (const auto& r : rows) {
        char roofline[32] = "-";
        if (onThisHost) std::snprintf(roofline, sizeof roofline, "%.0f%%%c", r.roofline * 100, r.bound);
        std::printf("%-22s %11s %11s %11s %8.2fx %8.2fx %10s %6d %8s\n", r.problem.c_str(), formatSeconds(r.referenceS).c_str(),
                    r.libraryS > 0 ? formatSeconds(r.libraryS).c_str() : "-", formatSeconds(r.bestS).c_str(), r.speedup,
                    r.speedupOverBest, roofline, r.evaluations, formatSeconds(r.wallS).c_str());
    }
    const Geomeans g = geomeansOf(rows);
    const double geomean = g.overReference, geomeanBest = g.overBest;
    const int counted = g.counted;
    const double copyGBs = roof.gpus.empty() ? 0 : roof.gpus.front().copyGBs;
    if (std::any_of(rows.begin(), rows.end(), [](const Row& r) { return r.gpu; })) {
        if (copyGBs <= 0)
            std::printf("\n(no GPU in this host's machine model: run resources/probe/gpu_probe.cu and `machine import-gpu` for "
                        "the floor)\n");
        const double gather = roof.gpus.empty() ? 0 : roof.gpus.front().l2GatherGps;
        std::printf("\nGPU %s, copy bandwidth %.0f GB/s, L2 gather rate %.1f G/s (the floor: the bytes each problem must move "
                    "at that rate, or its lookups at the gather rate if longer)\n",
                    roof.gpus.empty() ? "?" : roof.gpus.front().name.c_str(), copyGBs, gather);
        std::printf("%-26s %10s %14s %10s %10s %11s %14s %8s\n", "problem", "eager", "torch.compile", "best", "floor",
                    "best/floor", "compile/floor", "beats");
        for (const auto& r : rows) {
            if (!r.gpu) continue;
            const auto ratio = [&](double t) { return r.floorS > 0 && t > 0 ? t / r.floorS : 0.0; };
            std::printf("%-26s %10s %14s %10s %10s %10.2fx %13.2fx %8s\n", r.problem.c_str(), formatSeconds(r.referenceS).c_str(),
                        r.libraryS > 0 ? formatSeconds(r.libraryS).c_str() : "-", formatSeconds(r.bestS).c_str(),
                        formatSeconds(r.floorS).c_str(), ratio(r.bestS), ratio(r.libraryS),
                        r.libraryS > 0 ? (r.bestS < r.libraryS ? "yes" : "no") : "-");
        }
        // The best kernel's profile, and what profiling cost each evaluation.
        std::printf("\n%-26s %-40s %9s %6s %6s %6s %6s %10s %12s\n", "problem", "diagnosis of the best kernel", "ncu kernel",
                    "DRAM%", "SM%", "L2%", "occ%", "breakdown", "ncu (runs)");
        const auto pct = [](double v) { return v < 0 ? std::string("-") : std::to_string(static_cast<int>(std::lround(v))); };
        for (const auto& r : rows) {
            if (!r.gpu) continue;
            const auto& prof = r.profile;
            char ncu[32] = "-";
            if (prof.ncuRuns) std::snprintf(ncu, sizeof ncu, "%.1f s (%d)", prof.ncuS, prof.ncuRuns);
            std::printf("%-26s %-40s %9s %6s %6s %6s %6s %9.2fs %12s\n", r.problem.c_str(),
                        (prof.diagnosis.empty() ? std::string("-") : prof.diagnosis).substr(0, 40).c_str(),
                        prof.kernel.empty() ? "-" : formatSeconds(prof.kernelUs * 1e-6).c_str(), pct(prof.dramPct).c_str(),
                        pct(prof.smPct).c_str(), pct(prof.l2Pct).c_str(), pct(prof.occupancyPct).c_str(), prof.breakdownS, ncu);
        }
    }
    std::printf("\ngeometric-mean speedup over the references: %.2fx, over the best baseline of each shape (vs best): %.2fx (%d "
                "problems); roofline: m = memory-bound, c = compute-bound, l = latency-bound (declared by the problem; %% of the "
                "bandwidth floor shown for reference)",
                geomean, geomeanBest, counted);
    if (std::any_of(rows.begin(), rows.end(), [](const Row& r) { return !r.gpu; }))
        std::printf(", for %d core(s) per evaluation", coresPerJob); // a GPU row's floor is the GPU's, whatever the cores
    std::printf("\n");

    return {geomean, geomeanBest, counted};
}

int runBenchCommand(const std::vector<std::string>& argv, const GlobalOptions& global) {
    std::string error;
    auto args = Args::parse(argv, verb("bench").valued, verb("bench").flags, error, "bench");
    if (!args) {
        std::fprintf(stderr, "bench: %s\n", error.c_str());
        return kExitUsage;
    }
    if (args->has("help")) {
        std::fputs(kBenchHelp, stdout);
        std::fputs(kExecutorHelp, stdout);
        return kExitOk;
    }
    if (args->has("resume") && !args->has("json")) {
        std::fprintf(stderr, "bench: --resume goes on with a run's --json FILE: name it\n");
        return kExitUsage;
    }
    std::vector<std::filesystem::path> dirs;
    if (auto list = args->value("problems")) {
        std::istringstream in(*list);
        std::string name;
        while (std::getline(in, name, ',')) dirs.emplace_back(resolveProblemDir(name));
    } else {
        dirs = problem::findProblemDirs(paths::bundledProblemsDir() / "cpu");
    }
    std::vector<problem::ProblemSpec> problems;
    for (const auto& d : dirs) {
        auto p = problem::loadProblem(d);
        if (!p) {
            std::fprintf(stderr, "bench: invalid problem\n%s\n", p.error().message.c_str());
            return kExitInvalidProblem;
        }
        problems.push_back(*p);
    }
    nlohmann::json cfg{{"policy", args->value("policy").value_or("mcts")}};
    int finalistCount = 3;
    try {
        cfg["max_evaluations"] = std::stoi(args->value("budget").value_or("64"));
        cfg["workers"] = std::stoi(args->value("workers").value_or("0"));
        cfg["seed"] = std::stoull(args->value("seed").value_or("1"));
        finalistCount = std::stoi(args->value("finalists").value_or("3"));
    } catch (const std::exception&) { // the parser checked them (option_types.cpp): out of range of the types here only
        std::fprintf(stderr, "bench: --budget, --workers, --seed and --finalists take numbers\n");
        return kExitUsage;
    }
    auto config = search::configFromJson(cfg);
    if (!config) {
        std::fprintf(stderr, "bench: %s\n", config.error().message.c_str());
        return kExitUsage;
    }
    eval::EvalOptions options;
    options.timeBudgetS = std::stod(args->value("time-budget").value_or("0.5"));

    // GPU problems are measured against the GPU's roofs alone: a model with
    // this host's GPUs (machine import-gpu) serves without probing its CPU.
    const bool gpuOnly = std::all_of(problems.begin(), problems.end(),
                                     [](const problem::ProblemSpec& p) { return problem::runsOnGpu(p.backend); });
    auto machine = machine::localMachine(args->has("reprobe"),
                                         {3, [](const std::string& s) { std::fprintf(stderr, "probing %s...\n", s.c_str()); }},
                                         gpuOnly ? machine::RoofsOf::GpusOnly : machine::RoofsOf::Cpu);
    if (!machine) {
        std::fprintf(stderr, "bench: %s\n", machine.error().message.c_str());
        return kExitError;
    }
    machine::MachineModel roof = *machine;
    if (roof.cpuProbed())
        std::printf(
            "machine %s (probed %s): %d cores, %s; DRAM %.1f GB/s (1 core), %.1f GB/s (all); FMA peak %.0f GFLOP/s (1 core), "
            "%.0f (all)\n",
            roof.host.c_str(), roof.probedAt.c_str(), roof.cores, roof.isa.c_str(), roof.dramGBs(1), roof.dramGBs(roof.cores),
            roof.peakGflops(1), roof.peakGflops(roof.cores));
    else
        std::printf("machine %s: CPU not probed (GPU problems only: their roofs are the GPU's)\n", roof.host.c_str());

    auto db = store::Database::open(global.database.empty() ? paths::defaultDatabase() : std::filesystem::path(global.database));
    if (!db) {
        std::fprintf(stderr, "bench: %s\n", db.error().message.c_str());
        return kExitError;
    }
    auto choice = executorChoice(*args, static_cast<std::size_t>(config->workers));
    if (!choice) {
        std::fprintf(stderr, "bench: %s\n", choice.error().message.c_str());
        return exitCodeFor(choice.error());
    }
    // Lanes: problems benched side by side, each on its own executor. With
    // --gpus naming two or more GPUs, one lane per GPU with that GPU's
    // workers (0,0,1,1: two problems at once, two workers each), so every
    // problem runs as it would on a host of one GPU; otherwise one lane.
    std::vector<eval::ExecutorChoice> laneChoices;
    if (choice->kind == eval::ExecutorKind::Local && problems.size() > 1)
        for (const auto& gpu : choice->local.gpus) {
            auto lane =
                std::find_if(laneChoices.begin(), laneChoices.end(), [&](const auto& c) { return c.local.gpus.front() == gpu; });
            if (lane == laneChoices.end()) {
                laneChoices.push_back(*choice);
                laneChoices.back().local.gpus.clear();
                lane = laneChoices.end() - 1;
            }
            lane->local.gpus.push_back(gpu);
            lane->local.workers = lane->local.gpus.size();
        }
    if (laneChoices.size() < 2) laneChoices = {*choice};
    std::vector<std::unique_ptr<eval::Executor>> lanes;
    for (const auto& c : laneChoices) {
        auto executor = eval::makeExecutor(c);
        if (!executor) {
            std::fprintf(stderr, "bench: %s\n", executor.error().message.c_str());
            return exitCodeFor(executor.error());
        }
        lanes.push_back(std::move(*executor));
    }
    const auto& executor = lanes.front();
    int workers = 0;
    for (const auto& lane : lanes) workers += static_cast<int>(lane->slotCount());
    if (lanes.size() > 1)
        std::fprintf(stderr, "bench: %zu problems at once, one on each GPU (%d workers each)\n", lanes.size(),
                     static_cast<int>(executor->slotCount()));
    {
        const std::string policy = args->value("sandbox").value_or("preferred");
        if (executor->kind() == eval::ExecutorKind::Local) {
            const auto& sandbox = eval::probeSandbox();
            std::fprintf(stderr, "bench: sandbox %s (policy %s)\n",
                         sandbox.available ? ("bubblewrap, " + sandbox.bwrapPath).c_str() : ("none: " + sandbox.reason).c_str(),
                         policy.c_str());
        } else {
            std::fprintf(stderr, "bench: sandbox policy %s on %s (each host is probed for bubblewrap)\n", policy.c_str(),
                         executor->placement().c_str());
        }
    }
    // Each worker owns cores/workers CPUs; the roofline is that share's.
    const int coresPerJob = std::max(1, roof.cores / workers);
    const auto profiler = std::make_shared<const profile::Profiler>(roof, coresPerJob);
    const bool onThisHost = executor->kind() == eval::ExecutorKind::Local; // else this host's roofline is not the jobs'

    const auto jsonFile = args->value("json");
    const auto settings = benchSettings(search::toJson(*config), options.timeBudgetS, finalistCount);
    // Each lane takes the next problem; rows keep the problems' order.
    std::vector<std::optional<Row>> done(problems.size());
    // Rows of the run file for problems this call does not name: a run spread
    // over calls that each name a few problems keeps every row it measured
    // (dropping them lost measured problems from the file).
    std::vector<Row> carried;
    if (args->has("resume")) {
        // A run cut short (a time limit, a lost host) goes on: its rows are
        // kept, and only the problems it lacks run.
        auto kept = readBenchRows(*jsonFile, settings, roof, gpuOnly);
        if (!kept) {
            std::fprintf(stderr, "bench: --resume: %s\n", kept.error().message.c_str());
            return kExitUsage;
        }
        for (std::size_t i = 0; i < problems.size(); ++i)
            if (auto it = kept->find(problems[i].name); it != kept->end()) {
                done[i] = it->second;
                std::fprintf(stderr, "bench: %s: kept from %s (searched and timed before)\n", problems[i].name.c_str(),
                             jsonFile->c_str());
                kept->erase(it);
            }
        for (auto& [name, row] : *kept) {
            std::fprintf(stderr, "bench: %s: kept from %s (not named this time; its row stays in the run)\n", name.c_str(),
                         jsonFile->c_str());
            carried.push_back(std::move(row));
        }
    }
    const std::size_t asked = problems.size() + carried.size();
    std::vector<std::size_t> toRun;
    for (std::size_t i = 0; i < problems.size(); ++i)
        if (!done[i]) toRun.push_back(i);
    std::mutex doneMutex;
    std::atomic<std::size_t> next{0};
    const auto lane = [&](eval::Executor& laneExecutor) {
        eval::Evaluator evaluator(laneExecutor, &*db); // the lane's, for its searches and for re-timing their finalists
        for (std::size_t k; (k = next++) < toRun.size();) {
            const std::size_t i = toRun[k];
            Row row = benchOne(*db, evaluator, problems[i], *config, options, onThisHost ? profiler : nullptr, finalistCount);
            // What finished so far, against the roofs as they are before the run's
            // closing probe: a run cut short (a time limit, a lost host) keeps it.
            std::lock_guard lock(doneMutex);
            done[i] = std::move(row);
            std::vector<Row> finished = carried;
            for (const auto& r : done)
                if (r) finished.push_back(*r);
            placeOnRoofs(finished, roof, onThisHost, coresPerJob);
            const auto& mine =
                *std::find_if(finished.begin(), finished.end(), [&](const Row& r) { return r.problem == problems[i].name; });
            if (mine.gpu && mine.floorS > 0 && mine.bestS > 0)
                std::fprintf(stderr, "  %s: best %s, floor %s (%.2fx the floor)\n", mine.problem.c_str(),
                             formatSeconds(mine.bestS).c_str(), formatSeconds(mine.floorS).c_str(), mine.bestS / mine.floorS);
            if (jsonFile)
                if (auto s = writeBenchJson(*jsonFile, roof, settings, finished, geomeansOf(finished), asked); !s)
                    std::fprintf(stderr, "bench: %s (the run goes on)\n", s.error().message.c_str());
        }
    };
    {
        std::vector<std::jthread> running;
        for (std::size_t l = 1; l < lanes.size(); ++l) running.emplace_back([&, l] { lane(*lanes[l]); });
        lane(*lanes.front());
    }
    std::vector<Row> rows = std::move(carried);
    rows.reserve(rows.size() + done.size());
    for (auto& r : done) rows.push_back(std::move(*r));
    if (onThisHost && !gpuOnly) raiseDramRoof(roof, rows, coresPerJob); // the CPU rows' roof
    placeOnRoofs(rows, roof, onThisHost, coresPerJob);

    const Geomeans g = printTables(rows, roof, onThisHost, coresPerJob);
    if (jsonFile)
        if (auto s = writeBenchJson(*jsonFile, roof, settings, rows, g, asked); !s) {
            std::fprintf(stderr, "bench: %s\n", s.error().message.c_str());
            return kExitError;
        }
    return kExitOk;
}

} // namespace kw::cli
