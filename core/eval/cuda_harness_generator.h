#pragma once
// Turns (problem, candidate, options) into a self-contained job dir for the
// `cuda` backend: the C++ harness built with -DKW_CUDA and its device side
// (src/device_mirror.cu), and the reference, baselines and candidate as CUDA
// sources whose extern "C" launcher takes device pointers. run.sh needs only
// nvcc (KW_NVCC picks it) and a CUDA device on the host that runs it; it
// compiles for the problem's arch (KW_CUDA_ARCH there overrides it).
//
// `bash run.sh compile-only` builds the candidate and nothing else: the stage
// that catches build errors on any machine with nvcc, before a job travels to
// a GPU host. It exits 0 when the candidate built, 1 with the log in
// build/candidate.log when it did not.
#include "eval/cpp_harness_generator.h"

namespace kw::eval {

class CudaHarnessGenerator {
  public:
    static Result<JobDescription> write(const problem::ProblemSpec& problem, const Candidate& candidate,
                                        const problem::ParamSpace& space, const EvalOptions& options,
                                        const std::filesystem::path& jobDir);

    // The generated run.sh (exposed for tests).
    static std::string runScript(const problem::ProblemSpec& problem, const Candidate& candidate,
                                 const problem::ParamSpace& space, const EvalOptions& options, const JobLimits& limits);
};

} // namespace kw::eval
