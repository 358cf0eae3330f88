// kernelwright-cli suite run|show SUITE: every problem of a suite evaluated
// (the reference against itself, the seeds, or a search each), resumable,
// reported in KernelBench's terms.
#include "args.h"
#include "command_table.h"
#include "commands.h"
#include "executor_options.h"
#include "exit_codes.h"
#include "search/search_config_json.h"
#include "store/database.h"
#include "suite/suite_runner.h"
#include "util/format.h"
#include "util/json_text.h"
#include "util/paths.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>

namespace kw::cli {
namespace {

const char* kSuiteHelp = R"(usage: kernelwright-cli suite run SUITE [--mode reference|seeds|search] [--budget N]
                                 [--time-budget S] [--no-compile-baseline] [--max-problems N]
                                 [--json FILE] [executor options]
       kernelwright-cli suite show SUITE [--mode M] [--json FILE]

A suite is a folder of problems (kernelwright-cli problem import DIR makes one).
run evaluates every problem the suite's run file for that mode does not hold yet:
  reference  the reference against itself (a harness check: 1.00x when all is well)
  seeds      every bundled seed at its default params, the fastest correct one counts
  search     a tuner search of --budget evaluations (default 8), its best timed again
Each problem's outcome is appended to SUITE/suite-run-MODE.jsonl as soon as it is
known: a run that is killed continues where it stopped when started again
(--max-problems N stops after N more, in the suite's order). The
report: correctness rate, fast_p (correct and more than p times faster) for
p = 0, 1, 1.5, 2 over eager and over torch.compile, geometric-mean speedups, and
every failure grouped by status. show prints the report of what has run.
Problems run one per executor slot at once: --gpus 0,1,2,3 evaluates four
problems side by side, each on its own GPU (and --ssh-gpus likewise per host).
)";

// A reading's 95 % interval as the progress lines and the report print it.
std::string intervalText(const std::pair<double, double>& i) {
    char b[48];
    std::snprintf(b, sizeof b, "%.3f-%.3f", i.first, i.second);
    return b;
}

class Progress final : public suite::RunObserver {
  public:
    // Several problems can be in flight (one per GPU): each line names its problem.
    void starting(const std::string& problem, int done, int total, double etaS) override {
        if (started_ < 0) started_ = done;
        ++started_;
        std::fprintf(stderr, "[%d/%d] %s%s\n", started_, total, problem.c_str(),
                     etaS >= 0 ? ("  (about " + formatDuration(etaS) + " left)").c_str() : "");
    }
    void finished(const suite::Entry& e) override {
        std::string detail;
        if (!e.correct())
            detail = "  " + e.message.substr(0, 160);
        else if (e.speedup) {
            detail = "  " + formatSpeedup(*e.speedup);
            if (e.interval) detail += " (95 % interval " + intervalText(*e.interval) + ")";
        }
        std::fprintf(stderr, "        %s: %s%s\n", e.problem.c_str(), e.status.c_str(), detail.c_str());
    }
    void retryingAlone(const suite::Entry& e) override {
        std::fprintf(stderr, "        %s: ran out of memory beside other evaluations; again alone after the rest\n",
                     e.problem.c_str());
        --started_; // it starts again: counted once
    }

  private:
    static std::string formatSpeedup(double s) {
        char b[32];
        std::snprintf(b, sizeof b, "%.3fx", s);
        return b;
    }
    int started_ = -1;
};

std::string fastLine(const std::map<double, double>& f) {
    std::string out;
    for (const auto& [p, v] : f) {
        char b[48];
        std::snprintf(b, sizeof b, "%sfast_%g %.1f%%", out.empty() ? "" : "  ", p, 100 * v);
        out += b;
    }
    return out;
}

int report(const suite::Suite& s, suite::Mode mode, const std::vector<suite::Entry>& entries, const Args& args) {
    const auto m = suite::metricsOf(entries);
    std::printf("\n%-36s %-18s %10s %15s %12s\n", "problem", "status", "vs eager", "95 % interval", "vs compile");
    for (const auto& e : entries) {
        char eager[32] = "-", interval[40] = "-", compile[32] = "-";
        if (e.speedup) std::snprintf(eager, sizeof eager, "%.3fx", *e.speedup);
        if (e.interval) std::snprintf(interval, sizeof interval, "%s", intervalText(*e.interval).c_str());
        if (e.speedupCompile) std::snprintf(compile, sizeof compile, "%.3fx", *e.speedupCompile);
        std::printf("%-36s %-18s %10s %15s %12s\n", e.problem.c_str(), e.status.c_str(), eager, interval, compile);
    }
    std::printf("\nsuite %s, mode %s: %d of %zu problems run, %d correct (%.1f%%)\n", s.name.c_str(),
                suite::modeName(mode).c_str(), m.problems, s.problems.size(), m.correct,
                m.problems ? 100.0 * m.correct / m.problems : 0.0);
    std::printf("over eager:         %s", fastLine(m.fastEager).c_str());
    if (m.geomeanEager) std::printf("  geomean %.3fx", *m.geomeanEager);
    std::printf("\nover torch.compile: %s", fastLine(m.fastCompile).c_str());
    if (m.geomeanCompile) std::printf("  geomean %.3fx", *m.geomeanCompile);
    std::printf("  (%d timed against it)\n", m.withCompile);
    const auto self = suite::selfAgreementOf(entries);
    if (mode == suite::Mode::Reference && self.timed) {
        std::printf("the reference against itself: %d of %d within 1.00 +- 0.03, %d within +- 0.01; furthest %s at %.3fx\n",
                    self.within3, self.timed, self.within1, self.worstProblem.c_str(), self.worst);
        if (self.withInterval)
            std::printf("  its 95 %% interval holds 1.00 for %d of the %d with one\n", self.intervalHoldsOne, self.withInterval);
    }
    for (const auto& [status, list] : m.failures) {
        std::printf("%s: %zu\n", status.c_str(), list.size());
        for (const auto& x : list) std::printf("  %s\n", x.substr(0, 200).c_str());
    }
    if (auto file = args.value("json")) {
        nlohmann::json j{{"suite", s.name}, {"mode", suite::modeName(mode)}, {"metrics", suite::toJson(m)}};
        if (mode == suite::Mode::Reference) j["metrics"]["self_agreement"] = suite::toJson(self);
        j["problems"] = nlohmann::json::array();
        for (const auto& e : entries) j["problems"].push_back(suite::toJson(e));
        std::ofstream out(*file);
        out << jsonText(j, 2) << "\n";
        if (!out) {
            std::fprintf(stderr, "suite: cannot write %s\n", file->c_str());
            return kExitError;
        }
    }
    return kExitOk;
}

} // namespace

int runSuiteCommand(const std::vector<std::string>& argv, const GlobalOptions& global) {
    std::string error;
    auto args = Args::parse(argv, verb("suite").valued, verb("suite").flags, error, "suite");
    if (!args) {
        std::fprintf(stderr, "suite: %s\n", error.c_str());
        return kExitUsage;
    }
    const auto& pos = args->positional();
    const bool known = !pos.empty() && (pos[0] == "run" || pos[0] == "show");
    if (args->has("help") || pos.size() != 2 || !known) {
        // What was wrong, before the usage: a suite folder alone, a verb
        // that is not one, a verb without its folder.
        if (!args->has("help") && !pos.empty()) {
            if (known)
                std::fprintf(stderr, "suite: %s takes one suite folder (what problem import DIR made)\n\n", pos[0].c_str());
            else if (pos.size() == 1)
                std::fprintf(stderr, "suite: run or show? kernelwright-cli suite run %s (or suite show %s)\n\n", pos[0].c_str(),
                             pos[0].c_str());
            else
                std::fprintf(stderr, "suite: unknown command '%s' (run or show)\n\n", pos[0].c_str());
        }
        std::fputs(kSuiteHelp, args->has("help") ? stdout : stderr);
        if (args->has("help")) std::fputs(kExecutorHelp, stdout);
        return args->has("help") ? kExitOk : kExitUsage;
    }
    const auto mode = suite::parseMode(args->value("mode").value_or("reference"));
    if (!mode) {
        std::fprintf(stderr, "suite: --mode is reference, seeds or search\n");
        return kExitUsage;
    }
    auto s = suite::loadSuite(pos[1]);
    if (!s) {
        std::fprintf(stderr, "suite: %s\n", s.error().message.c_str());
        return kExitError;
    }
    if (pos[0] == "show") return report(*s, *mode, suite::readRun(suite::runFile(*s, *mode)), *args);

    suite::RunOptions options;
    options.mode = *mode;
    options.eval.timeBudgetS = std::stod(args->value("time-budget").value_or("1"));
    options.eval.torchCompileBaseline = !args->has("no-compile-baseline");
    auto config = search::configFromJson(
        nlohmann::json{{"max_evaluations", std::stoi(args->value("budget").value_or("8"))}, {"workers", 1}});
    if (!config) {
        std::fprintf(stderr, "suite: %s\n", config.error().message.c_str());
        return kExitUsage;
    }
    options.search = *config;
    auto db = store::Database::open(global.database.empty() ? paths::defaultDatabase() : std::filesystem::path(global.database));
    if (!db) {
        std::fprintf(stderr, "suite: %s\n", db.error().message.c_str());
        return kExitError;
    }
    auto executor = makeExecutor(*args, 1);
    if (!executor) {
        std::fprintf(stderr, "suite: %s\n", executor.error().message.c_str());
        return exitCodeFor(executor.error());
    }
    eval::Evaluator evaluator(**executor, &*db);
    options.parallel = static_cast<int>((*executor)->slotCount());
    options.maxProblems = std::stoi(args->value("max-problems").value_or("0")); // checked by the parser
    Progress progress;
    auto entries = suite::runSuite(*db, evaluator, *s, options, &progress);
    if (!entries) {
        std::fprintf(stderr, "suite: %s\n", entries.error().message.c_str());
        return kExitError;
    }
    return report(*s, *mode, *entries, *args);
}

} // namespace kw::cli
