#pragma once
// The reference as a candidate: how `eval --reference` and a suite's
// reference run judge the reference against itself. One definition, so the
// harness check means the same everywhere.
#include "eval/eval_options.h"
#include "problem/problem_spec.h"

namespace kw::eval {

// The reference's own text; a torch reference is renamed to the ModelNew a
// candidate module defines and runs in the candidate's runner.
Candidate referenceCandidate(const problem::ProblemSpec& problem);

// `options` for judging the reference: the static rules and the record of
// the ops it runs are off, since the reference may call what candidates may
// not (the problem's forbidden ops).
EvalOptions referenceOptions(EvalOptions options);

} // namespace kw::eval
