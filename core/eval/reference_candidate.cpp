#include "eval/reference_candidate.h"

namespace kw::eval {

Candidate referenceCandidate(const problem::ProblemSpec& problem) {
    Candidate c;
    c.name = "reference";
    c.source = problem.reference.text;
    if (problem.backend == problem::Backend::Torch) c.source += "\n\nModelNew = Model\n";
    return c;
}

EvalOptions referenceOptions(EvalOptions options) {
    options.staticRules = false;
    options.forbiddenOpsRecorded = false;
    return options;
}

} // namespace kw::eval
