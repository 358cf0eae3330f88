#pragma once
// Evaluates candidates: static rules, the result cache, job generation, the
// executor, and recording. A search uses prepare()/finish() around its own
// submission to keep every executor slot busy; evaluate() is the one-shot path.
#include "eval/evaluation_result.h"
#include "eval/executor.h"
#include "problem/problem_spec.h"
#include "store/database.h"

#include <mutex>
#include <optional>

namespace kw::eval {

struct EvaluatorConfig {
    std::filesystem::path jobsRoot; // default: $TMPDIR/kernelwright-<uid>/jobs
    bool keepJobs = false;          // keep job dirs after they finish (debugging)
    // Build the harness, reference and baselines once per problem and machine
    // in a job that runs no candidate code, and copy them into every job.
    // For executors that run on this host, and for Slurm (its nodes use them
    // only on the CPU they were built on).
    bool prebuild = true;
    // The cuda backend: build each candidate here first (where nvcc exists)
    // when the executor runs jobs elsewhere, so build errors never travel.
    bool cudaCompileCheck = true;
};

struct PreparedJob {
    std::string cacheKey;
    std::string candidateHash;
    problem::ParamAssignment params;          // completed
    std::string compiler;                     // the options' compiler (names this machine's stored model)
    std::optional<EvaluationResult> finished; // decided without running (cache, static rules, bad declarations)
    JobRequest request;
};

class Evaluator {
  public:
    Evaluator(Executor& executor, const store::Database* database, EvaluatorConfig config = {});

    // Errors are the caller's (unknown --param, unwritable job dir); a bad
    // candidate is a result, not an error.
    Result<PreparedJob> prepare(const problem::ProblemSpec& problem, const Candidate& candidate, const EvalOptions& options);
    EvaluationResult finish(const problem::ProblemSpec& problem, PreparedJob& job, const JobOutcome& outcome);
    Result<EvaluationResult> evaluate(const problem::ProblemSpec& problem, const Candidate& candidate, const EvalOptions& options,
                                      std::stop_token stop = {});

    Executor& executor() { return executor_; }

    static std::filesystem::path defaultJobsRoot();

  private:
    // Copies trusted prebuilt harness/reference/baselines into the job's build/,
    // building them first when this problem has none yet. Failures only cost speed.
    void usePrebuilt(const problem::ProblemSpec& problem, const Candidate& candidate, const problem::ParamSpace& space,
                     const EvalOptions& options, const std::filesystem::path& jobDir);
    // Stores the result (one transaction) and returns its row id, 0 without a store.
    std::int64_t record(const problem::ProblemSpec& problem, const PreparedJob& job, const EvaluationResult& result);

    Executor& executor_;
    const store::Database* database_;
    EvaluatorConfig config_;
    std::mutex prebuildMutex_;
};

} // namespace kw::eval
