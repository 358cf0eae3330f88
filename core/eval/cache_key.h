#pragma once
#include "eval/eval_options.h"
#include "problem/problem_spec.h"

#include <string>

namespace kw::eval {

// Content address of an evaluation: everything its verdict depends on
// (harness version, problem, candidate source and params, compiler, flags,
// machine, seeds and stages). Equal keys never need to be run twice.
// `placement`: Executor::placement() of the executor that runs the job.
std::string evaluationCacheKey(const problem::ProblemSpec& problem, const Candidate& candidate, const EvalOptions& options,
                               const std::string& placement);
std::string candidateHash(const Candidate& candidate);

} // namespace kw::eval
