// Search efficiency and throughput on the bundled problems.
//
// 1. For every bundled problem whose seed spans >= 48 configurations: an
//    exhaustive sweep measures every configuration once (filling the result
//    cache), then MCTS, evolutionary and random search run with 5 seeds each at
//    35% of the sweep's evaluations. Because every configuration is then served
//    from the cache, all policies see the same measured landscape.
//    Prints: evaluations to reach 95% of the exhaustive best, best/exhaustive.
// 2. Throughput with 1 and 2 workers on uncached evaluations.
//
//   bench_search_efficiency [SEEDS] [--skip-throughput] [--db PATH] [--set KEY=JSON ...]
// With --db the workspace is kept: a second run finds the sweep in the
// result cache and only the policies' own work is repeated.
#include "eval/evaluator.h"
#include "eval/local_executor.h"
#include "problem/problem_loader.h"
#include "search/search_config_json.h"
#include "search/search_engine.h"
#include "store/search_store.h"
#include "util/paths.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>

using namespace kw;

namespace {

struct RunResult {
    double best = 0;
    std::vector<double> bestAfter; // best fitness after each evaluation, in finishing order
};

nlohmann::json gOverrides = nlohmann::json::object(); // --set key=value, applied to every policy run

RunResult runSearch(const store::Database& db, eval::Evaluator& evaluator, const problem::ProblemSpec& p, tree::Policy policy,
                    int budget, std::uint64_t seed, const eval::EvalOptions& options) {
    tree::SearchConfig config = *search::configFromJson(gOverrides);
    config.policy = policy;
    config.maxEvaluations = budget;
    config.seed = seed;
    auto id = search::SearchEngine::create(db, p, config);
    search::SearchEngine engine(db, evaluator, options);
    auto outcome = engine.run(*id);
    RunResult r;
    if (!outcome) {
        std::fprintf(stderr, "%s\n", outcome.error().message.c_str());
        return r;
    }
    r.best = outcome->bestSpeedup;
    // Finishing order: node_finished events.
    store::SearchStore store(db);
    auto nodes = store.loadNodes(*id);
    std::map<std::int64_t, double> fitness;
    for (const auto& n : *nodes) fitness[n.id] = n.status && *n.status == "ok" ? n.speedup.value_or(0) : 0;
    auto events = store.eventsAfter(*id, 0, 100000);
    double best = 0;
    for (const auto& e : *events) {
        if (e.kind != "node_finished") continue;
        const auto j = nlohmann::json::parse(e.payload);
        best = std::max(best, fitness[j["node"].get<std::int64_t>()]);
        r.bestAfter.push_back(best);
    }
    return r;
}

double median(std::vector<double> v) {
    if (v.empty()) return NAN;
    std::sort(v.begin(), v.end());
    const auto n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

} // namespace

int main(int argc, char** argv) {
    int seeds = 5;
    bool throughput = true;
    std::filesystem::path dbPath = std::filesystem::temp_directory_path() / "kw-bench-search.db";
    bool keepDb = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--skip-throughput") == 0)
            throughput = false;
        else if (std::strcmp(argv[i], "--db") == 0 && i + 1 < argc) {
            dbPath = argv[++i];
            keepDb = true;
        } else if (std::strcmp(argv[i], "--set") == 0 && i + 1 < argc) {
            const std::string kv = argv[++i];
            const auto eq = kv.find('=');
            gOverrides[kv.substr(0, eq)] = nlohmann::json::parse(kv.substr(eq + 1));
            if (!search::configFromJson(gOverrides)) {
                std::fprintf(stderr, "%s\n", search::configFromJson(gOverrides).error().message.c_str());
                return 2;
            }
        } else
            seeds = std::max(1, std::atoi(argv[i]));
    }
    eval::LocalExecutorConfig config;
    config.workers = 2;
    auto executor = eval::LocalExecutor::create(config);
    if (!executor) return 1;
    if (!keepDb) std::filesystem::remove(dbPath);
    auto db = store::Database::open(dbPath);
    if (!db) return 1;
    eval::Evaluator evaluator(**executor, &*db);
    eval::EvalOptions options;
    options.timeBudgetS = 0.3;

    std::printf("search efficiency (%d seeds per policy; budget = 35%% of the exhaustive sweep)\n\n", seeds);
    std::printf("%-12s %-8s %8s %14s %16s %14s\n", "problem", "policy", "budget", "evals to 95%", "best/exhaustive",
                "reached 95%");
    std::map<std::string, std::map<std::string, double>> medianBest;
    for (const auto& dir : problem::findProblemDirs(paths::bundledProblemsDir() / "cpu")) {
        auto p = problem::loadProblem(dir);
        if (!p || p->seeds.empty() || p->seeds[0].params.size() < 48) continue;
        const int space = static_cast<int>(p->seeds[0].params.size());
        const auto t0 = std::chrono::steady_clock::now();
        const auto sweep = runSearch(*db, evaluator, *p, tree::Policy::Exhaustive, space, 1, options);
        const double sweepSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf("%-12s %-8s %8d %14s %16s %14s   (%.0f s, best %.3gx)\n", p->name.c_str(), "sweep", space, "-", "1.000", "-",
                    sweepSeconds, sweep.best);
        const int budget = static_cast<int>(std::floor(0.35 * space));
        for (auto policy : {tree::Policy::Mcts, tree::Policy::Evolutionary, tree::Policy::Random}) {
            std::vector<double> toTarget, ratio;
            int reached = 0;
            for (int s = 1; s <= seeds; ++s) {
                const auto r = runSearch(*db, evaluator, *p, policy, budget, static_cast<std::uint64_t>(s) * 7919, options);
                ratio.push_back(sweep.best > 0 ? r.best / sweep.best : 0);
                const auto it =
                    std::find_if(r.bestAfter.begin(), r.bestAfter.end(), [&](double b) { return b >= 0.95 * sweep.best; });
                if (it != r.bestAfter.end()) {
                    ++reached;
                    toTarget.push_back(static_cast<double>(it - r.bestAfter.begin() + 1));
                } else {
                    toTarget.push_back(budget + 1); // not reached within the budget
                }
            }
            char evals[32];
            const double m = median(toTarget);
            if (m > budget)
                std::snprintf(evals, sizeof evals, "> %d", budget);
            else
                std::snprintf(evals, sizeof evals, "%.0f (%.0f%%)", m, 100.0 * m / space);
            char reachedText[32];
            std::snprintf(reachedText, sizeof reachedText, "%d/%d", reached, seeds);
            std::printf("%-12s %-8s %8d %14s %16.3f %14s\n", p->name.c_str(), tree::policyName(policy).c_str(), budget, evals,
                        median(ratio), reachedText);
            medianBest[p->name][tree::policyName(policy)] = median(ratio);
        }
    }
    for (const auto& [problem, byPolicy] : medianBest)
        std::printf("%s: median best at equal budget: mcts %.3f, evo %.3f vs random %.3f of the exhaustive best\n",
                    problem.c_str(), byPolicy.at("mcts"), byPolicy.at("evo"), byPolicy.at("random"));

    if (throughput) {
        std::printf("\nthroughput on uncached evaluations (rmsnorm_fwd, greedy, 10 evaluations each)\n");
        auto rms = problem::loadProblem(paths::bundledProblemsDir() / "cpu" / "rmsnorm_fwd");
        eval::EvalOptions uncached = options;
        uncached.useCache = false;
        uncached.timeBudgetS = 0.5;
        double perMinute[3] = {0, 0, 0};
        for (int workers : {1, 2}) {
            eval::LocalExecutorConfig c;
            c.workers = static_cast<std::size_t>(workers);
            auto ex = eval::LocalExecutor::create(c);
            eval::Evaluator ev(**ex, &*db);
            const auto t0 = std::chrono::steady_clock::now();
            runSearch(*db, ev, *rms, tree::Policy::Greedy, 10, 99, uncached);
            const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            perMinute[workers] = 10 / secs * 60;
            std::printf("  %d worker(s): %.1f s, %.1f evaluations/min, %.2f s per evaluation\n", workers, secs,
                        perMinute[workers], secs / 10 * workers);
        }
        std::printf("  2 workers / 1 worker: %.2fx\n", perMinute[2] / perMinute[1]);
    }
    if (!keepDb) std::filesystem::remove(dbPath);
    return 0;
}
