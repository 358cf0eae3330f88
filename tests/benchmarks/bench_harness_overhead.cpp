// Prints what one evaluation costs besides compiling and the kernels' own
// runs: writing the job dir, starting the sandbox, loading, filling inputs,
// checking, the timing protocol (cache flushes, output poisoning, verifying
// every timed output), parsing and recording. Also prints the speedup of each
// problem's reference against itself, which should be 1.
//
//   bench_harness_overhead [REPEATS] [PROBLEM_DIR...]
#include "eval/evaluator.h"
#include "eval/local_executor.h"
#include "problem/problem_loader.h"
#include "store/database.h"
#include "util/paths.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <vector>

using namespace kw;

namespace {
double since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}
double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}
double num(const nlohmann::json& j, const char* key) {
    return j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0;
}
} // namespace

int main(int argc, char** argv) {
    const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
    std::vector<std::filesystem::path> dirs;
    for (int i = 2; i < argc; ++i) dirs.emplace_back(argv[i]);
    if (dirs.empty()) {
        dirs.push_back(std::filesystem::path(KW_TEST_DATA_DIR) / "problems" / "saxpy");
        for (const auto& d : problem::findProblemDirs(paths::bundledProblemsDir() / "cpu")) dirs.push_back(d);
    }
    eval::LocalExecutorConfig config;
    config.workers = 1;
    auto executor = eval::LocalExecutor::create(config);
    if (!executor) {
        std::fprintf(stderr, "%s\n", executor.error().message.c_str());
        return 1;
    }
    const auto tmp = std::filesystem::temp_directory_path() / "kw-bench-overhead.db";
    std::filesystem::remove(tmp);
    auto db = store::Database::open(tmp);
    if (!db) return 1;
    eval::Evaluator evaluator(**executor, &*db);
    eval::EvalOptions options;
    options.useCache = false;

    std::printf("harness overhead per evaluation (median of %d; reference against itself; sandbox: %s)\n\n", repeats,
                (*executor)->sandboxed() ? "bubblewrap" : "none");
    std::printf("%-14s %8s %8s %8s | %9s %9s %9s %9s | %9s %8s\n", "problem", "wall s", "compile", "kernels", "fixed ms",
                "check ms", "protocol", "total ms", "ref/ref", "reps");
    for (const auto& dir : dirs) {
        auto spec = problem::loadProblem(dir);
        if (!spec) {
            std::fprintf(stderr, "%s\n", spec.error().message.c_str());
            continue;
        }
        std::vector<double> wall, compile, kernel, fixed, check, protocol, total, speedup, reps;
        for (int i = 0; i < repeats; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            auto job = evaluator.prepare(*spec, eval::Candidate{"reference", spec->reference.text, {}}, options);
            if (!job) return 1;
            const auto outcome = (*executor)->submit(job->request).get();
            const auto r = evaluator.finish(*spec, *job, outcome);
            const double all = since(t0);
            if (!r.correct()) {
                std::fprintf(stderr, "%s: %s\n", spec->name.c_str(), r.message.c_str());
                break;
            }
            const auto& p = r.phaseSeconds;
            const double kernels = num(p, "kernel");
            const double checkPhase = num(p, "check");
            const double timePhase = num(p, "time");
            const double flushPoisonVerify = num(p, "flush") + num(p, "poison") + num(p, "verify");
            // Everything that is neither compiling nor the check/time phases.
            const double outside = all - r.compileSeconds - checkPhase - timePhase;
            wall.push_back(all);
            compile.push_back(r.compileSeconds);
            kernel.push_back(kernels);
            fixed.push_back(outside * 1e3);
            check.push_back((checkPhase + timePhase - kernels - flushPoisonVerify) * 1e3);
            protocol.push_back(flushPoisonVerify * 1e3);
            total.push_back((all - r.compileSeconds - kernels) * 1e3);
            speedup.push_back(r.speedup.value_or(0));
            reps.push_back(r.timing.empty() ? 0 : r.timing[0].reps);
        }
        std::printf("%-14s %8.2f %8.2f %8.3f | %9.1f %9.1f %9.1f %9.1f | %9.3f %8.0f\n", spec->name.c_str(), median(wall),
                    median(compile), median(kernel), median(fixed), median(check), median(protocol), median(total),
                    median(speedup), median(reps));
    }
    std::printf("\nfixed: job dir, sandbox and process start, loading, parsing, recording (outside the harness phases)\n"
                "check: input generation, reference runs, comparisons and bookkeeping inside the phases\n"
                "protocol: cache flushes, output poisoning and verification of every timed call\n"
                "total: wall - compile - kernels (target < 100 ms for the fixed part)\n");
    std::filesystem::remove(tmp);
    return 0;
}
