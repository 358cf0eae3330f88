#pragma once
// Turns (problem, candidate, options) into a self-contained job dir for the
// `torch` backend: run.sh, the judge and its kernel runner (src/torch_judge.py,
// src/torch_runner.py, src/torch_cuda.py, src/torch_rules.py), src/reference.py,
// src/candidate.py, src/kw_params.py (the candidate's params) and
// src/torch_job.json (shapes, seeds, tolerances, timing, forbidden ops). run.sh
// needs only a Python with PyTorch and a CUDA device on the host that runs it
// (KW_PYTHON picks the interpreter).
#include "eval/cpp_harness_generator.h"

namespace kw::eval {

class TorchHarnessGenerator {
  public:
    static Result<JobDescription> write(const problem::ProblemSpec& problem, const Candidate& candidate,
                                        const problem::ParamSpace& space, const EvalOptions& options,
                                        const std::filesystem::path& jobDir);

    // The generated kw_params.py and torch_job.json (exposed for tests).
    static std::string paramsModule(const problem::ParamSpace& space, const problem::ParamAssignment& params);
    static Result<std::string> jobConfig(const problem::ProblemSpec& problem, const EvalOptions& options);
};

} // namespace kw::eval
