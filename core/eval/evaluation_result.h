#pragma once
// The parsed form of a job's result.json (see docs/result-format.md).
#include "util/result.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kw::eval {

// SynthError: the synthesizer produced no candidate (an LLM call failed or its
// reply held no usable kernel); such a node is never evaluated.
enum class EvalStatus { Ok, CompileError, RuntimeError, Timeout, WrongAnswer, Oom, SandboxViolation, InfraError, SynthError };

std::string statusName(EvalStatus status);
std::optional<EvalStatus> parseStatus(const std::string& name);

struct CheckCase {
    std::string shape, output, kind, detail;
    nlohmann::json sizes;
    std::uint64_t seed = 0;
    bool passed = false;
    long long elements = 0, mismatches = 0, unwritten = 0, nondeterministic = 0;
    double maxAbsError = 0, maxRelError = 0;
    std::optional<long long> firstIndex;
    double firstExpected = 0, firstActual = 0;
};

struct TimingStats {
    std::string name;
    double median = 0, p10 = 0, p90 = 0, mean = 0, cv = 0, min = 0, max = 0;
    std::vector<double> samples;
};

struct TimingCase {
    std::string shape;
    nlohmann::json sizes;
    double bytes = 0, flops = 0, speedup = 0;
    double gathers = 0; // dependent random lookups the operator needs (the problem's "gathers"; 0 when it declares none)
    int warmup = 0, reps = 0;
    TimingStats candidate;
    std::vector<TimingStats> baselines; // the reference first
    // The candidate's speedup over each baseline by name (the judge's median of
    // per-round ratios where it reports one, else the ratio of medians).
    std::map<std::string, double> speedups;
    // The 95 % interval of the speedup over the reference (the median of the
    // paired ratios) where the judge reports one; {0, 0} in results from before it did.
    std::pair<double, double> speedupInterval{0, 0};
    // How the judge's clock took the calls (batch, input sets, hand-off, empty
    // call, call overhead, cache, where each runner's calls went): kept as the
    // judge wrote it, for judging the judge later; never read for a score.
    nlohmann::json clock = nlohmann::json::object();
    double speedupOver(const std::string& baseline) const;
};

struct EvaluationResult {
    EvalStatus status = EvalStatus::InfraError;
    std::string message;
    std::optional<double> speedup;
    bool implausibleSpeedup = false;
    std::string buildLog;
    std::vector<CheckCase> checks;
    std::vector<TimingCase> timing;
    nlohmann::json env = nlohmann::json::object();
    std::string inputSecret; // the judge's, told after the run: eval --input-secret reproduces the inputs
    nlohmann::json phaseSeconds = nlohmann::json::object();
    double compileSeconds = 0; // measured by run.sh
    double wallSeconds = 0;    // the executor's view of the whole job
    bool cached = false;       // served from the result cache
    std::int64_t recordId = 0; // the workspace row holding this result (new or cached); 0 without a store
    // What the job's profiling step wrote (profile/<name> -> text); not part of
    // result.json nor stored with it: profile::buildProfile reads it.
    std::map<std::string, std::string> profileFiles;

    bool correct() const { return status == EvalStatus::Ok; }
    // The geometric mean over timing shapes of the speedup over the fastest
    // baseline of each shape (the reference, a library, torch.compile): what
    // a candidate adds beyond what is already there. Empty without timings.
    std::optional<double> speedupOverBestBaseline() const;
    // The name of the fastest baseline on most shapes ("" without timings).
    std::string bestBaselineName() const;
};

EvaluationResult failedResult(EvalStatus status, std::string message);
Result<EvaluationResult> parseResultJson(const std::string& text);
nlohmann::json toJson(const EvaluationResult& result);

} // namespace kw::eval
