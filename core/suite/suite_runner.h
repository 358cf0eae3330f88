#pragma once
// Runs every problem of a suite that its run file does not hold yet: the
// reference against itself, the bundled seeds, or a search per problem. Each
// outcome is appended to the run file as soon as it is known (suite.h).
#include "eval/evaluator.h"
#include "store/database.h"
#include "suite/suite.h"
#include "tree/tree_types.h"

#include <map>
#include <stop_token>
#include <string>

namespace kw::suite {

struct RunOptions {
    Mode mode = Mode::Reference;
    eval::EvalOptions eval;    // for reference and seeds runs, and re-timing a search's best
    tree::SearchConfig search; // for search runs (maxEvaluations is the budget per problem)
    // Budgets of their own, by problem name (a model's regions: by headroom).
    std::map<std::string, int> budgets;
    // Problems evaluated at once: one per executor slot (per GPU with --gpus),
    // each evaluation's timing still serialised per GPU by the executor.
    int parallel = 1;
    // At most this many problems in this call (0: all); the next call goes on.
    int maxProblems = 0;
};

class RunObserver {
  public:
    virtual ~RunObserver() = default;
    // `done` of `total` finished (this run and earlier ones); etaS < 0 until one finished in this run.
    virtual void starting(const std::string& problem, int done, int total, double etaS) = 0;
    virtual void finished(const Entry& entry) = 0;
    // `entry` ran out of memory beside other evaluations: it runs again, alone, after the rest.
    virtual void retryingAlone(const Entry& entry) { (void)entry; }
};

// The whole run's entries, the earlier ones included, in the suite's order.
// Stops between problems when `stop` fires (what finished is kept).
Result<std::vector<Entry>> runSuite(const store::Database& db, eval::Evaluator& evaluator, const Suite& suite,
                                    const RunOptions& options, RunObserver* observer = nullptr, std::stop_token stop = {});

// The entry for one evaluation result of `problem`.
Entry entryOf(const std::string& problem, const eval::EvaluationResult& result, double wallS);

} // namespace kw::suite
