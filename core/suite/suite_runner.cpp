#include "suite/suite_runner.h"

#include "problem/problem_loader.h"
#include "search/search_launcher.h"
#include "store/search_store.h"
#include "util/log.h"

#include <chrono>
#include <cmath>
#include <set>

namespace ks::suite {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

Entry failedEntry(const std::string& problem, const std::string& status, const std::string& message, double wallS) {
    Entry e;
    e.problem = problem;
    e.status = status;
    e.message = message;
    e.wallS = wallS;
    return e;
}

// The reference against itself: a harness check (a correct judge reads 1.00).
Entry runReference(eval::Evaluator& evaluator, const problem::ProblemSpec& p, const eval::EvalOptions& options) {
    const auto t0 = Clock::now();
    eval::Candidate c;
    c.name = "reference";
    c.source = p.reference.text;
    if (p.backend == problem::Backend::Torch) c.source += "\n\nModelNew = Model\n";
    auto r = evaluator.evaluate(p, c, options);
    if (!r) return failedEntry(p.name, "infra_error", r.error().message, since(t0));
    return entryOf(p.name, *r, since(t0));
}

// Every seed at its default params; the fastest correct one is the problem's.
Entry runSeeds(eval::Evaluator& evaluator, const problem::ProblemSpec& p, const eval::EvalOptions& options) {
    const auto t0 = Clock::now();
    if (p.seeds.empty()) return failedEntry(p.name, "no_seed", "the problem has no seeds", 0);
    std::optional<Entry> best, firstFailure;
    for (const auto& s : p.seeds) {
        auto params = s.params.complete({});
        if (!params) {
            if (!firstFailure) firstFailure = failedEntry(p.name, "invalid_problem", params.error().message, 0);
            continue;
        }
        auto r = evaluator.evaluate(p, eval::Candidate{s.name, s.text, *params}, options);
        if (!r) {
            if (!firstFailure) firstFailure = failedEntry(p.name, "infra_error", r.error().message, 0);
            continue;
        }
        auto e = entryOf(p.name, *r, 0);
        if (!e.correct()) {
            e.message = "seed " + s.name + ": " + e.message;
            if (!firstFailure) firstFailure = e;
        } else if (!best || e.speedup.value_or(0) > best->speedup.value_or(0)) {
            best = e;
        }
    }
    Entry out = best ? *best : *firstFailure;
    out.wallS = since(t0);
    return out;
}

// A search per problem; its best kernel is timed again on its own (torch:
// beside torch.compile of the reference, which the search itself skips).
Entry searchOnce(const store::Database& db, eval::Evaluator& evaluator, const problem::ProblemSpec& p, const RunOptions& options,
                 std::int64_t& searchId) {
    const auto t0 = Clock::now();
    auto id = search::createSearch(db, p, options.search, "");
    if (!id) return failedEntry(p.name, "infra_error", id.error().message, since(t0));
    searchId = *id;
    search::SearchLaunch launch;
    launch.searchId = *id;
    launch.sharedEvaluator = &evaluator;
    launch.evalOptions = options.eval;
    launch.evalOptions.torchCompileBaseline = false;
    launch.profileLocalJobs = false;
    auto launched = search::launchSearch(db, std::move(launch));
    if (!launched) return failedEntry(p.name, "infra_error", launched.error().message, since(t0));
    auto outcome = (*launched)->run();
    if (!outcome) return failedEntry(p.name, "infra_error", outcome.error().message, since(t0));
    store::SearchStore store(db);
    auto nodes = store.loadNodes(*id);
    if (nodes)
        for (const auto& n : *nodes) {
            if (n.id != outcome->bestNode || !n.evaluationId) continue;
            auto source = store.sourceText(n.sourceHash);
            auto params = problem::parseAssignmentJson(n.paramsJson);
            if (!source || !params) break;
            eval::EvalOptions again = options.eval;
            again.useCache = false;
            auto r = evaluator.evaluate(p, eval::Candidate{n.sourceName, *source, *params}, again);
            if (r) return entryOf(p.name, *r, since(t0));
            return failedEntry(p.name, "infra_error", "timing the best kernel again: " + r.error().message, since(t0));
        }
    return failedEntry(p.name, "no_correct_kernel",
                       "the search (" + std::to_string(outcome->evaluations) + " evaluations) found no correct kernel",
                       since(t0));
}

// The search's id goes with its entry: the workbench opens it from the suite's table.
Entry runSearch(const store::Database& db, eval::Evaluator& evaluator, const problem::ProblemSpec& p, const RunOptions& options) {
    std::int64_t searchId = 0;
    auto e = searchOnce(db, evaluator, p, options, searchId);
    e.searchId = searchId;
    return e;
}

} // namespace

Entry entryOf(const std::string& problem, const eval::EvaluationResult& result, double wallS) {
    Entry e;
    e.problem = problem;
    e.status = eval::statusName(result.status);
    e.wallS = wallS;
    if (!result.correct()) {
        e.message = result.message;
        return e;
    }
    e.speedup = result.speedup;
    // Over torch.compile: the geometric mean over the timing shapes that timed it.
    double logSum = 0;
    int n = 0;
    for (const auto& t : result.timing) {
        const double s = t.speedupOver("torch.compile");
        if (s > 0) {
            logSum += std::log(s);
            ++n;
        }
    }
    if (n) e.speedupCompile = std::exp(logSum / n);
    return e;
}

Result<std::vector<Entry>> runSuite(const store::Database& db, eval::Evaluator& evaluator, const Suite& suite,
                                    const RunOptions& options, RunObserver* observer, std::stop_token stop) {
    const auto file = runFile(suite, options.mode);
    auto entries = readRun(file);
    std::set<std::string> finished;
    for (const auto& e : entries) finished.insert(e.problem);
    const int total = static_cast<int>(suite.problems.size());
    int done = 0;
    for (const auto& dir : suite.problems)
        if (finished.count(dir.filename().string())) ++done;
    double spent = 0;
    int ranHere = 0;
    for (const auto& dir : suite.problems) {
        const std::string name = dir.filename().string();
        if (finished.count(name)) continue;
        if (stop.stop_requested()) break;
        const double eta = ranHere ? spent / ranHere * (total - done) : -1;
        if (observer) observer->starting(name, done, total, eta);
        const auto t0 = Clock::now();
        Entry e;
        auto p = problem::loadProblem(dir);
        if (!p) {
            e = failedEntry(name, "invalid_problem", p.error().message, 0);
        } else {
            switch (options.mode) {
            case Mode::Reference:
                e = runReference(evaluator, *p, options.eval);
                break;
            case Mode::Seeds:
                e = runSeeds(evaluator, *p, options.eval);
                break;
            case Mode::Search:
                e = runSearch(db, evaluator, *p, options);
                break;
            }
        }
        e.problem = name; // the folder's name: what suite.json lists and a resumed run skips
        if (auto s = appendRun(file, e); !s) return s.error();
        spent += since(t0);
        ++ranHere;
        ++done;
        log::eval()->info("suite {}: {} {} ({}/{})", suite.name, name, e.status, done, total);
        if (observer) observer->finished(e);
        std::erase_if(entries, [&](const Entry& x) { return x.problem == name; });
        entries.push_back(std::move(e));
    }
    return entries;
}

} // namespace ks::suite
