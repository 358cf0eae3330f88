// kernelwright-cli eval --problem DIR --candidate FILE [--param K=V ...] [--json]
#include "args.h"
#include "command_table.h"
#include "commands.h"
#include "executor_options.h"
#include "exit_codes.h"
#include "profile_printer.h"
#include "util/json_text.h"
#include "verdict_printer.h"

#include "eval/evaluator.h"
#include "eval/reference_candidate.h"
#include "machine/machine_cache.h"
#include "problem/problem_loader.h"
#include "profile/profiler.h"
#include "store/database.h"
#include "util/files.h"
#include "util/paths.h"

#include <cstdio>
#include <sstream>

namespace kw::cli {
namespace {

const char* kEvalHelp = R"(usage: kernelwright-cli eval --problem DIR|NAME (--candidate FILE | --seed NAME | --reference)
                          [--param K=V ...] [--json] [options]

Builds the candidate with the problem's harness, checks it against the reference
on every check shape and seed, and times it interleaved with the baselines.

  --problem DIR|NAME     a problem folder, or a bundled problem's name (mbdt)
  --candidate FILE       the candidate's source (C++, or Python defining ModelNew for a torch problem)
  --seed NAME            evaluate one of the problem's seed candidates
  --reference            evaluate the reference against itself (a harness check)
  --param K=V            a value for a declared @kw-param (repeatable)
  --json                 print the result as JSON instead of a verdict
  --check-only           correctness only, no timing
  --seeds 1,2,3          input seeds for the check cases
  --input-secret N       reproduce a recorded result's inputs (its input_secret)
                         instead of drawing a secret: the inputs are then
                         predictable, so use it to re-check, not to judge
  --time-budget S        seconds of timed calls per timing shape (default 1)
  --reps MIN:MAX         bounds on timed repetitions (default 10:2000; past the
                         planned ones only while the speedup's 95 % interval
                         is wider than +-1 %, within three time budgets)
  --call-timeout S       limit for one kernel call (default: the problem's)
  --run-timeout S        limit for the whole check and timing run
  --compile-timeout S    limit for one compiler run (torch: what a kernel's
                         first call on a shape may add, as Triton compiles it)
  --profile LEVEL        none (default) | roofline | counters | cachegrind | ncu:
                         roofline adds GB/s, GFLOP/s and % of the machine's
                         roofline; counters adds perf_event_open counters of the
                         timed calls; cachegrind adds one call under valgrind's
                         cachegrind; ncu applies to GPU backends. Each level
                         adds a diagnosis (memory_bound, ...). Stored with the
                         evaluation (profile show --evaluation ID)
  --no-cache             rerun even when an identical evaluation is stored
  --no-static-rules      do not reject forbidden constructs before building
  --no-compile-baseline  torch problems: time the eager reference only, not
                         torch.compile of it (saves its compile time)
  --sandbox POLICY       required | preferred (default) | off
  --keep-job             keep the job dir (its path is printed)
  --jobs-dir DIR         where job dirs are created
)";

const char* kEvalExitCodes = R"(
Exit codes: 0 correct, 3 wrong_answer, 4 compile_error, 5 runtime_error,
6 timeout, 7 oom, 8 sandbox_violation, 9 infra_error, 10 invalid problem,
2 usage, 1 other errors.
)";

void printHelp(std::FILE* out) {
    std::fputs(kEvalHelp, out);
    std::fputs(kExecutorHelp, out);
    std::fputs(kEvalExitCodes, out);
}

bool parseDouble(const std::string& text, double& out) {
    try {
        std::size_t used = 0;
        out = std::stod(text, &used);
        return used == text.size() && out > 0;
    } catch (const std::exception&) {
        return false;
    }
}

// The evaluation's options from the command line; false (said on stderr)
// when one is malformed or does not fit the problem.
bool readEvalOptions(const Args& args, const problem::ProblemSpec& problem, eval::EvalOptions& options) {
    options.checkOnly = args.has("check-only");
    options.useCache = !args.has("no-cache");
    options.staticRules = !args.has("no-static-rules");
    if (args.has("reference")) options = eval::referenceOptions(options);
    if (args.has("no-compile-baseline")) options.torchCompileBaseline = false;
    if (auto seeds = args.value("seeds")) {
        options.seeds.clear();
        std::istringstream in(*seeds);
        std::string item;
        while (std::getline(in, item, ',')) {
            try {
                options.seeds.push_back(std::stoull(item));
            } catch (const std::exception&) {
                std::fprintf(stderr, "eval: --seeds expects numbers like 1,2,3, got '%s'\n", seeds->c_str());
                return false;
            }
        }
        if (options.seeds.empty()) {
            std::fprintf(stderr, "eval: --seeds needs at least one seed\n");
            return false;
        }
    }
    if (auto secret = args.value("input-secret")) {
        try {
            std::size_t used = 0;
            options.inputSecret = std::stoull(*secret, &used);
            if (used != secret->size() || secret->front() == '-') throw std::invalid_argument(*secret);
        } catch (const std::exception&) {
            std::fprintf(stderr,
                         "eval: --input-secret expects the unsigned number a result.json records as input_secret, got '%s'\n",
                         secret->c_str());
            return false;
        }
    }
    for (const auto& [key, target] : {std::pair<const char*, std::optional<double>*>{"call-timeout", &options.callTimeoutS},
                                      {"run-timeout", &options.runTimeoutS},
                                      {"compile-timeout", &options.compileTimeoutS}}) {
        if (auto v = args.value(key)) {
            double d = 0;
            if (!parseDouble(*v, d)) {
                std::fprintf(stderr, "eval: --%s expects a positive number of seconds, got '%s'\n", key, v->c_str());
                return false;
            }
            *target = d;
        }
    }
    if (auto v = args.value("time-budget"); v && !parseDouble(*v, options.timeBudgetS)) {
        std::fprintf(stderr, "eval: --time-budget expects a positive number of seconds, got '%s'\n", v->c_str());
        return false;
    }
    if (auto v = args.value("reps")) {
        if (std::sscanf(v->c_str(), "%d:%d", &options.minReps, &options.maxReps) != 2 || options.minReps < 1 ||
            options.maxReps < options.minReps) {
            std::fprintf(stderr, "eval: --reps expects MIN:MAX with 1 <= MIN <= MAX, got '%s'\n", v->c_str());
            return false;
        }
    }

    if (auto level = args.value("profile")) {
        auto parsed = eval::parseProfileLevel(*level);
        if (!parsed) {
            std::fprintf(stderr, "eval: --profile expects none, roofline, counters, cachegrind or ncu, got '%s'\n",
                         level->c_str());
            return false;
        }
        if (*parsed == eval::ProfileLevel::Ncu && problem.backend == problem::Backend::Cpp) {
            std::fprintf(stderr,
                         "eval: --profile ncu profiles GPU kernels; problem %s uses the cpp backend (use counters or cachegrind; "
                         "`profile ncu FILE.csv` reads a captured ncu CSV)\n",
                         problem.name.c_str());
            return false;
        }
        if (*parsed != eval::ProfileLevel::None && options.checkOnly) {
            std::fprintf(stderr, "eval: --profile needs timing; drop --check-only\n");
            return false;
        }
        options.profile = *parsed;
    }

    return true;
}

// A profile of the evaluation at the asked level, stored with it.
std::optional<profile::ProfileReport> profileEvaluation(const store::Database& db, eval::Executor& executor,
                                                        const problem::ProblemSpec& problem, const eval::EvalOptions& options,
                                                        const eval::EvaluationResult& result, const eval::Candidate& candidate,
                                                        const problem::ParamAssignment& params) {
    std::optional<profile::ProfileReport> report;
    if (options.profile != eval::ProfileLevel::None) {
        // This host's roofline says nothing about a job that ran on another.
        std::optional<machine::MachineModel> machine;
        if (executor.kind() == eval::ExecutorKind::Local) {
            // A GPU problem's roofs are the GPU's: a model with this host's GPUs serves unprobed.
            const auto need = problem::runsOnGpu(problem.backend) ? machine::RoofsOf::GpusOnly : machine::RoofsOf::Cpu;
            auto probed = machine::localMachine(
                false,
                {1, [](const std::string& s) { std::fprintf(stderr, "first profile on this host: probing %s...\n", s.c_str()); }},
                need);
            if (probed) machine = *probed;
        }
        const int cores = machine ? machine->cores : 1;
        profile::Profiler profiler(machine, cores);
        report = profiler.profile(result, options.profile, candidate.source, jsonText(nlohmann::json(params)));
        if (auto saved = profiler.store(db, result.recordId, *report); !saved)
            std::fprintf(stderr, "eval: the profile was not stored: %s\n", saved.error().message.c_str());
    }

    return report;
}

} // namespace

int runEvalCommand(const std::vector<std::string>& argv, const GlobalOptions& global) {
    std::string error;
    auto args = Args::parse(argv, verb("eval").valued, verb("eval").flags, error, "eval");
    if (!args) {
        std::fprintf(stderr, "eval: %s\n", error.c_str());
        return kExitUsage;
    }
    if (args->has("help")) {
        printHelp(stdout);
        return kExitOk;
    }
    const int sources = (args->has("candidate") ? 1 : 0) + (args->has("seed") ? 1 : 0) + (args->has("reference") ? 1 : 0);
    if (!args->has("problem") || sources != 1 || !args->positional().empty()) {
        std::fprintf(stderr, "eval: give --problem and exactly one of --candidate FILE, --seed NAME, --reference\n\n");
        printHelp(stderr);
        return kExitUsage;
    }
    auto problem = problem::loadProblem(resolveProblemDir(*args->value("problem")));
    if (!problem) {
        std::fprintf(stderr, "eval: invalid problem\n%s\n", problem.error().message.c_str());
        return kExitInvalidProblem;
    }

    eval::Candidate candidate;
    std::string candidateLabel;
    if (auto file = args->value("candidate")) {
        // Kernels are kilobytes; the static rules refuse sources over 1 MiB,
        // and nothing larger than this is read at all (a device never ends).
        auto text = readTextFile(*file, 16u << 20);
        if (!text) {
            std::fprintf(stderr, "eval: %s\n", text.error().message.c_str());
            return kExitUsage;
        }
        candidate.source = *text;
        candidate.name = std::filesystem::path(*file).filename().string();
    } else if (auto seed = args->value("seed")) {
        const auto* s = problem->findSeed(*seed);
        if (!s) {
            std::string known;
            for (const auto& x : problem->seeds) known += (known.empty() ? "" : ", ") + x.name;
            std::fprintf(stderr, "eval: problem %s has no seed '%s' (seeds: %s)\n", problem->name.c_str(), seed->c_str(),
                         known.empty() ? "none" : known.c_str());
            return kExitUsage;
        }
        candidate.source = s->text;
        candidate.name = s->name;
    } else {
        candidate = eval::referenceCandidate(*problem);
    }
    for (const auto& kv : args->all("param")) {
        const auto eq = kv.find('=');
        if (eq == std::string::npos || eq == 0) {
            std::fprintf(stderr, "eval: --param expects NAME=VALUE, got '%s'\n", kv.c_str());
            return kExitUsage;
        }
        candidate.params[kv.substr(0, eq)] = kv.substr(eq + 1);
    }

    eval::EvalOptions options;
    if (!readEvalOptions(*args, *problem, options)) return kExitUsage;

    auto executor = makeExecutor(*args, 1);
    if (!executor) {
        std::fprintf(stderr, "eval: %s\n", executor.error().message.c_str());
        return exitCodeFor(executor.error());
    }
    const std::filesystem::path dbPath =
        global.database.empty() ? paths::defaultDatabase() : std::filesystem::path(global.database);
    auto db = store::Database::open(dbPath);
    if (!db) {
        std::fprintf(stderr, "eval: %s\n", db.error().message.c_str());
        return kExitError;
    }
    eval::EvaluatorConfig evalConfig;
    evalConfig.keepJobs = args->has("keep-job");
    if (auto dir = args->value("jobs-dir")) evalConfig.jobsRoot = std::filesystem::absolute(*dir);
    eval::Evaluator evaluator(**executor, &*db, evalConfig);

    auto prepared = evaluator.prepare(*problem, candidate, options);
    if (!prepared) {
        std::fprintf(stderr, "eval: %s\n", prepared.error().message.c_str());
        return kExitUsage;
    }
    eval::JobOutcome outcome;
    if (!prepared->finished) outcome = (*executor)->submit(prepared->request).get();
    const auto result = evaluator.finish(*problem, *prepared, outcome);
    if (evalConfig.keepJobs && !prepared->finished) std::fprintf(stderr, "job dir kept: %s\n", prepared->request.dir.c_str());

    const auto report = profileEvaluation(*db, **executor, *problem, options, result, candidate, prepared->params);

    if (args->has("json")) {
        auto j = eval::toJson(result);
        if (report) j["profile"] = profile::toJson(*report);
        j["problem"] = problem->name;
        j["candidate"] = candidate.name;
        j["params"] = prepared->params;
        j["evaluation_id"] = result.recordId;
        std::printf("%s\n", jsonText(j, 2).c_str());
    } else {
        std::string title = problem->name + ": " + candidate.name;
        if (!prepared->params.empty()) title += " (" + problem::formatAssignment(prepared->params) + ")";
        printVerdict(stdout, title, result);
        if (report) printProfile(stdout, *report);
    }
    return exitCodeFor(result.status);
}

} // namespace kw::cli
