#include "suite/suite_runner.h"

#include "eval/out_of_memory.h"
#include "eval/reference_candidate.h"
#include "problem/problem_loader.h"
#include "search/search_launcher.h"
#include "store/search_store.h"
#include "util/log.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

namespace kw::suite {
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
    auto r = evaluator.evaluate(p, eval::referenceCandidate(p), eval::referenceOptions(options));
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
    auto config = options.search;
    if (auto it = options.budgets.find(p.name); it != options.budgets.end()) config.maxEvaluations = it->second;
    auto id = search::createSearch(db, p, config, "");
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
    // Why, in the words of its last verdict: a search whose every candidate
    // failed alike (no device, a rule) says so, not just that it found nothing.
    std::string last;
    if (nodes)
        for (const auto& n : *nodes)
            if (n.status && !n.message.empty()) last = n.sourceName + ": " + *n.status + ": " + n.message.substr(0, 300);
    return failedEntry(p.name, "no_correct_kernel",
                       "the search (" + std::to_string(outcome->evaluations) + " evaluations) found no correct kernel" +
                           (last.empty() ? "" : "; the last said " + last),
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
    if (result.timing.size() == 1 && result.timing[0].speedupInterval.second > 0) e.interval = result.timing[0].speedupInterval;
    return e;
}

namespace {

// What the workers share: which problems are left, the run file, the entries.
struct Shared {
    std::mutex mutex;
    std::vector<std::filesystem::path> left;
    std::vector<std::filesystem::path> again; // ran out of memory beside others: run alone after the rest
    std::vector<Entry> entries;
    std::optional<Error> error;
    int done = 0, total = 0, ranHere = 0;
    int planned = 0; // problems this run finishes (what --max-problems leaves for the next run not counted)
    double spent = 0;
};

Entry runOne(const store::Database& db, eval::Evaluator& evaluator, const std::filesystem::path& dir, const RunOptions& options) {
    const std::string name = dir.filename().string();
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
    return e;
}

// A reference or seed evaluation that ran out of memory while other problems'
// evaluations shared the device (or host) may fit with it to itself; a search
// is not run twice for it.
bool runsAgainAlone(const Entry& e, Mode mode) {
    return mode != Mode::Search && !e.correct() && (e.status == "oom" || eval::mentionsOutOfMemory(e.message));
}

void worker(const store::Database& db, eval::Evaluator& evaluator, const Suite& suite, const RunOptions& options,
            const std::filesystem::path& file, Shared& shared, RunObserver* observer, std::stop_token stop, int parallel) {
    for (;;) {
        std::filesystem::path dir;
        {
            std::lock_guard lock(shared.mutex);
            if (shared.left.empty() || shared.error || stop.stop_requested()) return;
            dir = shared.left.front();
            shared.left.erase(shared.left.begin());
            // What this run has left (the one starting and those in flight
            // included, not the problems a --max-problems run leaves for the
            // next), at the mean per problem so far, `parallel` at a time.
            const int left = shared.planned - shared.ranHere;
            const double eta = shared.ranHere ? shared.spent / shared.ranHere * left / std::max(1, std::min(parallel, left)) : -1;
            if (observer) observer->starting(dir.filename().string(), shared.done, shared.total, eta);
        }
        const auto t0 = Clock::now();
        Entry e = runOne(db, evaluator, dir, options);
        std::lock_guard lock(shared.mutex);
        if (parallel > 1 && runsAgainAlone(e, options.mode)) {
            // Not written to the run file: a run killed before the retry runs it again.
            shared.again.push_back(dir); // still in `planned`: it finishes later, alone
            log::eval()->info("suite {}: {} ran out of memory beside other evaluations; again alone after the rest", suite.name,
                              e.problem);
            if (observer) observer->retryingAlone(e);
            continue;
        }
        if (auto s = appendRun(file, e); !s) {
            shared.error = s.error();
            return;
        }
        shared.spent += since(t0);
        ++shared.ranHere;
        ++shared.done;
        log::eval()->info("suite {}: {} {} ({}/{})", suite.name, e.problem, e.status, shared.done, shared.total);
        if (observer) observer->finished(e);
        std::erase_if(shared.entries, [&](const Entry& x) { return x.problem == e.problem; });
        shared.entries.push_back(std::move(e));
    }
}

} // namespace

Result<std::vector<Entry>> runSuite(const store::Database& db, eval::Evaluator& evaluator, const Suite& suite,
                                    const RunOptions& options, RunObserver* observer, std::stop_token stop) {
    const auto file = runFile(suite, options.mode);
    Shared shared;
    shared.entries = readRun(file);
    std::set<std::string> finished;
    for (const auto& e : shared.entries) finished.insert(e.problem);
    shared.total = static_cast<int>(suite.problems.size());
    for (const auto& dir : suite.problems) {
        if (finished.count(dir.filename().string()))
            ++shared.done;
        else
            shared.left.push_back(dir);
    }
    if (options.maxProblems > 0 && static_cast<int>(shared.left.size()) > options.maxProblems)
        shared.left.resize(static_cast<std::size_t>(options.maxProblems));
    shared.planned = static_cast<int>(shared.left.size());
    const int parallel = std::max(1, std::min(options.parallel, static_cast<int>(shared.left.size())));
    {
        std::vector<std::jthread> workers;
        for (int i = 0; i < parallel; ++i)
            workers.emplace_back([&] { worker(db, evaluator, suite, options, file, shared, observer, stop, parallel); });
    }
    // Every other evaluation has finished: each of these now has the device alone.
    if (!shared.error && !shared.again.empty() && !stop.stop_requested()) {
        shared.left = std::move(shared.again);
        shared.again.clear();
        worker(db, evaluator, suite, options, file, shared, observer, stop, 1);
    }
    if (shared.error) return *shared.error;
    // In the suite's order, whichever worker finished first.
    std::map<std::string, std::size_t> order;
    for (std::size_t i = 0; i < suite.problems.size(); ++i) order[suite.problems[i].filename().string()] = i;
    std::stable_sort(shared.entries.begin(), shared.entries.end(), [&](const Entry& a, const Entry& b) {
        auto ia = order.find(a.problem), ib = order.find(b.problem);
        return (ia == order.end() ? order.size() : ia->second) < (ib == order.end() ? order.size() : ib->second);
    });
    return shared.entries;
}

} // namespace kw::suite
