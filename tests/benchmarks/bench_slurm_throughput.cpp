// Throughput through Slurm against the local executor, two jobs at once each,
// on a single-node cluster this benchmark starts (tests/support/slurm_cluster.h;
// root, slurm-wlm and munge). Two workloads:
//   fixed:  jobs whose run.sh sleeps S seconds (the executors' own overhead),
//   eval:   real evaluations of a bundled CPU problem through the Evaluator,
//           one candidate per param assignment (prebuilt harness on both).
// Prints evaluations per minute for each executor and their ratio; the issue's
// acceptance asks for Slurm within 1.5x of local for evaluations of >= 1 s.
// The cluster binds jobs to their CPUs (task/affinity), as local workers are
// pinned to theirs. SLURM_JOBS above the node's 2 CPUs keeps jobs waiting in
// Slurm's queue, which hides its scheduling latency (about a second a job).
//   bench_slurm_throughput [JOBS=16] [SLEEP_S=1.5] [PROBLEM=mapid] [SLURM_JOBS=2]
// KW_BENCH_DEBUG=1 prints the executors' debug log (submissions, hand-overs).
#include "slurm_cluster.h"

#include "eval/evaluator.h"
#include "eval/local_executor.h"
#include "eval/slurm_executor.h"
#include "problem/problem_loader.h"
#include "util/files.h"
#include "util/log.h"
#include "util/paths.h"

#include <QtCore/QTemporaryDir>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace kw;
using Clock = std::chrono::steady_clock;

namespace {

struct Measured {
    double perMinute = 0;
    double meanJobS = 0; // the jobs' own run time (run.sh), as the executor saw it
    int failed = 0;
};

// Every assignment of the space (the product of its domains), in order.
std::vector<problem::ParamAssignment> allAssignments(const problem::ParamSpace& space) {
    std::vector<problem::ParamAssignment> all{{}};
    for (const auto& domain : space.params) {
        std::vector<problem::ParamAssignment> next;
        for (const auto& partial : all)
            for (const auto& value : domain.values()) {
                next.push_back(partial);
                next.back()[domain.name] = value;
            }
        all = std::move(next);
    }
    return all;
}

double since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

Measured fixedJobs(eval::Executor& executor, const std::filesystem::path& root, int jobs, double sleepS) {
    std::vector<std::future<eval::JobOutcome>> futures;
    const auto start = Clock::now();
    for (int i = 0; i < jobs; ++i) {
        const auto dir = root / (executor.name() + "-" + std::to_string(i));
        std::filesystem::create_directories(dir / "build");
        (void)writeFileAtomic(dir / "run.sh",
                              "sleep " + std::to_string(sleepS) + "; echo '{\"status\": \"ok\"}' > result.json\n");
        eval::JobRequest r;
        r.dir = dir;
        r.limits.wallTimeoutS = 60;
        r.key = executor.name() + "-fixed-" + std::to_string(i);
        futures.push_back(executor.submit(r));
    }
    Measured m;
    for (auto& f : futures) {
        const auto o = f.get();
        if (!o.resultJson && !m.failed++) std::fprintf(stderr, "%s: %s\n", executor.name().c_str(), o.infraError.c_str());
        m.meanJobS += o.wallSeconds / jobs;
    }
    m.perMinute = jobs / since(start) * 60;
    return m;
}

Measured evaluations(eval::Executor& executor, const std::filesystem::path& root, const problem::ProblemSpec& problem, int jobs) {
    eval::EvaluatorConfig config;
    config.jobsRoot = root / (executor.name() + "-eval-jobs");
    eval::Evaluator evaluator(executor, nullptr, config);
    eval::EvalOptions options;
    options.useCache = false;
    options.timeBudgetS = 0.2;
    const auto& seed = problem.seeds.front();
    auto space = problem::parseParamDeclarations(seed.text, seed.name);
    std::vector<problem::ParamAssignment> assignments;
    if (space) assignments = allAssignments(*space);
    if (assignments.size() < static_cast<std::size_t>(jobs) + 1) {
        std::fprintf(stderr, "%s has fewer than %d param assignments\n", problem.name.c_str(), jobs + 1);
        std::exit(1);
    }
    // The first builds the prebuilt harness and reference; it is not counted.
    (void)evaluator.evaluate(problem, {seed.name, seed.text, assignments.back()}, options);
    Measured m;
    std::vector<eval::PreparedJob> prepared;
    std::vector<std::future<eval::JobOutcome>> futures;
    const auto start = Clock::now();
    for (int i = 0; i < jobs; ++i) {
        auto job = evaluator.prepare(problem, {seed.name, seed.text, assignments[static_cast<std::size_t>(i)]}, options);
        if (!job || job->finished) {
            ++m.failed;
            continue;
        }
        futures.push_back(executor.submit(job->request));
        prepared.push_back(std::move(*job));
    }
    for (std::size_t i = 0; i < futures.size(); ++i) {
        const auto o = futures[i].get();
        const auto r = evaluator.finish(problem, prepared[i], o);
        if (r.status != eval::EvalStatus::Ok && !m.failed++)
            std::fprintf(stderr, "%s: %s: %s\n", executor.name().c_str(), eval::statusName(r.status).c_str(), r.message.c_str());
        m.meanJobS += o.wallSeconds / jobs;
    }
    m.perMinute = jobs / since(start) * 60;
    return m;
}

void row(const char* workload, const Measured& local, const Measured& slurm) {
    std::printf("| %-34s | %9.1f | %9.1f | %5.2fx | %9.2f s / %6.2f s | %6d / %d |\n", workload, local.perMinute, slurm.perMinute,
                local.perMinute / slurm.perMinute, local.meanJobS, slurm.meanJobS, local.failed, slurm.failed);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
    const int jobs = argc > 1 ? std::max(2, std::atoi(argv[1])) : 16;
    const double sleepS = argc > 2 ? std::atof(argv[2]) : 1.5;
    const std::string problemName = argc > 3 ? argv[3] : "mapid";
    const int slurmJobs = argc > 4 ? std::max(1, std::atoi(argv[4])) : 2;
    if (const auto why = test::SlurmCluster::unavailableReason(); !why.empty()) {
        std::fprintf(stderr, "bench_slurm_throughput: %s\n", why.c_str());
        return 2;
    }
    if (std::getenv("KW_BENCH_DEBUG")) kw::log::setLevel(spdlog::level::debug);
    QTemporaryDir tmp;
    const std::filesystem::path root = tmp.path().toStdString();
    // As root the local executor runs jobs as other users, who must reach the job dirs.
    std::filesystem::permissions(root, std::filesystem::perms::owner_all | std::filesystem::perms::group_exec |
                                           std::filesystem::perms::others_exec);
    auto cluster = std::make_unique<test::SlurmCluster>(root / "cluster");
    if (const auto error = cluster->start(2, true); !error.empty()) {
        std::fprintf(stderr, "bench_slurm_throughput: the cluster did not start: %s\n", error.c_str());
        return 1;
    }
    auto problem = problem::loadProblem(paths::bundledProblemsDir() / "cpu" / problemName);
    if (!problem) {
        std::fprintf(stderr, "bench_slurm_throughput: %s\n", problem.error().message.c_str());
        return 1;
    }
    eval::LocalExecutorConfig localConfig;
    localConfig.workers = 2;
    auto local = eval::LocalExecutor::create(localConfig);
    eval::SlurmExecutorConfig slurmConfig;
    slurmConfig.sharedDir = root / "shared";
    slurmConfig.maxJobs = static_cast<std::size_t>(slurmJobs);
    auto slurm = eval::SlurmExecutor::create(slurmConfig);
    if (!local || !slurm) {
        std::fprintf(stderr, "bench_slurm_throughput: %s\n", (!local ? local.error() : slurm.error()).message.c_str());
        return 1;
    }
    std::printf("%d jobs per workload; local: 2 workers; Slurm: %d jobs at once on a 2-CPU node of this host (%u cores)\n\n",
                jobs, slurmJobs, std::thread::hardware_concurrency());
    std::printf("| %-34s | local/min | slurm/min | ratio | mean job local / slurm | failed l / s |\n", "workload");
    std::printf("|%s|----------:|----------:|------:|-----------------------:|-------------:|\n", std::string(36, '-').c_str());
    const std::string fixed = "fixed run.sh, sleep " + std::to_string(sleepS).substr(0, 4) + " s";
    row(fixed.c_str(), fixedJobs(**local, root / "fixed", jobs, sleepS), fixedJobs(**slurm, root / "fixed", jobs, sleepS));
    const std::string evals = problem->name + " evaluations (timed)";
    row(evals.c_str(), evaluations(**local, root, *problem, jobs), evaluations(**slurm, root, *problem, jobs));
    slurm->reset(); // before the cluster goes
    cluster.reset();
    return 0;
}
