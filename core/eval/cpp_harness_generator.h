#pragma once
// Turns (problem, candidate, options) into a self-contained job dir for the
// `cpp` backend: job.json, run.sh, src/ (harness, reference, baselines,
// candidate, kernel.h). run.sh needs only a C++ compiler on the host that runs it.
#include "eval/eval_options.h"
#include "problem/problem_spec.h"
#include "util/result.h"

#include <filesystem>
#include <string>

namespace kw::eval {

struct JobLimits {
    double compileTimeoutS = 120;
    double runTimeoutS = 300;
    double wallTimeoutS = 0; // the whole run.sh: compiles + run + slack
    // Device allocations and their mappings take host address space (a CUDA
    // process maps tens of GiB it never touches): such a job's memory is
    // bounded by its data segment (RLIMIT_DATA), not its address space.
    bool mapsDeviceMemory = false;
};

struct JobDescription {
    std::filesystem::path dir;
    JobLimits limits;
};

// The judge's and runner's sources every C++ and CUDA job dir gets under
// src/ (embedded templates, by file name).
const std::vector<std::string>& judgeTemplateFiles();

class CppHarnessGenerator {
  public:
    // `params` must already be complete and valid for the candidate's space.
    static Result<JobDescription> write(const problem::ProblemSpec& problem, const Candidate& candidate,
                                        const problem::ParamSpace& space, const EvalOptions& options,
                                        const std::filesystem::path& jobDir);

    // The generated harness_problem.inc (exposed for tests).
    static std::string problemInclude(const problem::ProblemSpec& problem, const EvalOptions& options);
    static std::string kernelHeader(const problem::ProblemSpec& problem);
    // The generated runner_call.inc: how a kernel runner calls the kernel.
    static std::string runnerInclude(const problem::ProblemSpec& problem);
    // job.json: what the job is (problem, candidate, params, stages, limits), for people reading a job dir.
    static std::string jobManifest(const problem::ProblemSpec& problem, const Candidate& candidate, const EvalOptions& options,
                                   const JobLimits& limits);
};

} // namespace kw::eval
