#pragma once
#include "eval/profile_level.h"
#include "problem/tunable_params.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kw::eval {

// A candidate kernel: its source text and one assignment of its declared params.
struct Candidate {
    std::string name = "candidate";
    std::string source;
    problem::ParamAssignment params; // partial; completed with the declared defaults
};

// How to evaluate: what the job runs and measures.
struct EvalOptions {
    std::vector<std::uint64_t> seeds{1, 2, 3}; // every check shape runs once per seed
    std::uint64_t timeSeed = 7;
    bool checkOnly = false;   // skip timing
    double timeBudgetS = 1.0; // per timing shape, all kernels together
    int minReps = 10;
    // Rounds of a microsecond kernel cost little: 200 of them left most of a
    // 1 s budget unused, and on a busy 2-core host a reference against itself
    // read 0.93-1.01x there; 2000 read 0.993-1.013x.
    int maxReps = 2000;
    int minWarmup = 2;
    double warmupS = 0.05;
    std::optional<double> callTimeoutS; // overrides the problem's limits
    std::optional<double> runTimeoutS;
    std::optional<double> compileTimeoutS;
    bool staticRules = true; // reject forbidden constructs before building
    // torch: the judge records one check call and refuses a candidate that
    // ran an op the problem forbids (by behaviour, whatever the names). Off
    // only for the reference judged against itself.
    bool forbiddenOpsRecorded = true;
    bool useCache = true; // serve identical evaluations from the store
    std::string compiler = "g++";
    bool torchCompileBaseline = true; // torch backend: time torch.compile of the reference too
    std::string cudaArch;             // cuda backend: nvcc -arch for the target (empty: the problem's)
    // Counters and cachegrind add a step after the run when the candidate is
    // correct; its files come back in JobOutcome::profileFiles.
    ProfileLevel profile = ProfileLevel::None;
    // The judge's input secret (cpp, cuda), given instead of drawn: every
    // input of the job is then known in advance, to anyone who reads the job
    // dir, a candidate too. For reproducing a recorded result (its
    // input_secret) and for tests that must not depend on luck; a search
    // never sets it.
    std::optional<std::uint64_t> inputSecret;
};

} // namespace kw::eval
