#include "eval/evaluator.h"
#include "util/json_text.h"

#include "eval/cache_key.h"
#include "eval/cpp_harness_generator.h"
#include "eval/crash_classifier.h"
#include "eval/cuda_compile_check.h"
#include "eval/cuda_harness_generator.h"
#include "eval/plausibility.h"
#include "eval/static_rules.h"
#include "eval/torch_harness_generator.h"
#include "machine/machine_cache.h"
#include "machine/machine_info.h"
#include "store/evaluation_store.h"
#include "util/files.h"
#include "util/hash.h"
#include "util/log.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <sstream>

namespace kw::eval {
namespace {

std::string uniqueSuffix() {
    static std::atomic<unsigned> counter{0};
    const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
    return std::to_string(getpid()) + "-" + std::to_string(now % 1000000000) + "-" + std::to_string(counter++);
}

// run.sh appends a timestamp before building, after building, and after running.
double compileSecondsFrom(const std::filesystem::path& jobDir) {
    auto text = readTextFile(jobDir / "build" / "times");
    if (!text) return 0;
    std::istringstream in(*text);
    std::vector<double> stamps;
    double v;
    while (in >> v) stamps.push_back(v);
    return stamps.size() >= 2 ? stamps[1] - stamps[0] : 0;
}

} // namespace

Evaluator::Evaluator(Executor& executor, const store::Database* database, EvaluatorConfig config)
    : executor_(executor), database_(database), config_(std::move(config)) {
    if (config_.jobsRoot.empty()) config_.jobsRoot = defaultJobsRoot();
}

std::filesystem::path Evaluator::defaultJobsRoot() {
    return std::filesystem::temp_directory_path() / ("kernelwright-" + std::to_string(getuid())) / "jobs";
}

Result<PreparedJob> Evaluator::prepare(const problem::ProblemSpec& problem, const Candidate& candidate,
                                       const EvalOptions& options) {
    const bool torch = problem.backend == problem::Backend::Torch, cuda = problem.backend == problem::Backend::Cuda;
    PreparedJob job;
    auto space = problem::parseParamDeclarations(candidate.source, candidate.name);
    if (!space) {
        job.finished = failedResult(EvalStatus::CompileError, "bad parameter declaration: " + space.error().message);
        return job;
    }
    auto params = space->complete(candidate.params);
    if (!params) return params.error();
    job.params = *params;
    job.compiler = options.compiler;
    Candidate complete = candidate;
    complete.params = job.params;
    job.candidateHash = candidateHash(complete);
    job.cacheKey = evaluationCacheKey(problem, complete, options, executor_.placement());

    if (options.staticRules) {
        const auto violations = torch  ? checkPythonRules(candidate.source, problem.forbidden)
                                : cuda ? checkCudaRules(candidate.source, problem.forbidden)
                                       : checkStaticRules(candidate.source);
        if (!violations.empty()) {
            job.finished = failedResult(EvalStatus::SandboxViolation, describeViolations(violations));
            return job;
        }
    }
    // A profiling step must run, so a stored result cannot stand in for it.
    if (options.useCache && database_ && !profileRunsInJob(options.profile)) {
        auto cached = store::EvaluationStore(*database_).findCached(job.cacheKey);
        if (!cached) return cached.error();
        if (*cached) {
            auto parsed = parseResultJson((*cached)->resultJson);
            if (parsed) {
                parsed->cached = true;
                parsed->recordId = (*cached)->id;
                job.finished = *parsed;
                log::eval()->info("cache hit for {} ({})", candidate.name, job.cacheKey.substr(0, 12));
                return job;
            }
            log::eval()->warn("ignoring unreadable cached result {}: {}", (*cached)->id, parsed.error().message);
        }
    }

    std::error_code ec;
    std::filesystem::create_directories(config_.jobsRoot, ec);
    // Sandbox users of other uids must traverse (not list) the jobs folders.
    for (auto dir = config_.jobsRoot; dir != dir.parent_path() && dir.string().find("kernelwright") != std::string::npos;
         dir = dir.parent_path())
        std::filesystem::permissions(
            dir, std::filesystem::perms::owner_all | std::filesystem::perms::group_exec | std::filesystem::perms::others_exec,
            ec);
    const auto dir = config_.jobsRoot / (problem.name + "-" + job.cacheKey.substr(0, 12) + "-" + uniqueSuffix());
    auto written = torch  ? TorchHarnessGenerator::write(problem, complete, *space, options, dir)
                   : cuda ? CudaHarnessGenerator::write(problem, complete, *space, options, dir)
                          : CppHarnessGenerator::write(problem, complete, *space, options, dir);
    if (!written) {
        std::filesystem::remove_all(dir, ec); // whatever was written before the failure
        return written.error();
    }
    job.request.dir = written->dir;
    job.request.limits = written->limits;
    job.request.key = job.cacheKey;
    const bool runsHere = executor_.kind() == ExecutorKind::Local;
    // A build error found here never travels to a GPU host (a local job finds it itself).
    if (cuda && !runsHere && config_.cudaCompileCheck) {
        const auto check = compileCudaCandidate(dir, written->limits.compileTimeoutS);
        if (!check.ran) {
            log::eval()->debug("compile-only stage skipped: {}", check.note);
        } else if (!check.built) {
            job.finished =
                failedResult(EvalStatus::CompileError,
                             "the candidate did not build with nvcc (found by the compile-only stage on this machine)");
            job.finished->buildLog = check.log;
            job.finished->compileSeconds = check.seconds;
            if (!config_.keepJobs) std::filesystem::remove_all(dir, ec);
            return job;
        }
    }
    // Slurm jobs use them on nodes of the CPU they were built on (slurm_executor.cpp).
    if (!torch && config_.prebuild && (runsHere || executor_.kind() == ExecutorKind::Slurm))
        usePrebuilt(problem, complete, *space, options, dir);
    return job;
}

void Evaluator::usePrebuilt(const problem::ProblemSpec& problem, const Candidate& candidate, const problem::ParamSpace& space,
                            const EvalOptions& options, const std::filesystem::path& jobDir) {
    // Everything the prebuilt files depend on: the job's sources other than the
    // candidate, the problem's flags, the compiler and this machine.
    const bool cuda = problem.backend == problem::Backend::Cuda;
    Sha256 h;
    std::vector<std::string> sources{
        "src/runner_call.inc", "src/harness_problem.inc", "src/kernel.h",         "src/reference.cpp",
        "src/fill.cpp",        "src/reference.cu",        "src/device_mirror.cu", "src/driver_api.h"};
    for (const auto& name : judgeTemplateFiles()) sources.push_back("src/" + name);
    for (const auto& rel : sources) {
        auto text = readTextFile(jobDir / rel);
        h.addField(rel).addField(text ? *text : std::string());
    }
    for (const auto& b : problem.baselines) h.addField(b.name).addField(b.text);
    for (const auto& f : problem.compileFlags) h.addField(f);
    const auto& machine = machine::machineInfo(options.compiler);
    h.addField(machine.compilerVersion).addField(machine.host).addField(machine.cpu);
    // Jobs that run elsewhere (Slurm) get files built there, in a job of theirs.
    if (executor_.kind() != ExecutorKind::Local) h.addField(executor_.name());
    // The build commands too: a run.sh for no candidate in particular holds them all.
    if (cuda) h.addField(findNvcc().string()).addField(CudaHarnessGenerator::runScript(problem, {}, {}, options, {}));
    const auto cacheDir = config_.jobsRoot.parent_path() / "prebuilt" / h.hexDigest().substr(0, 32);

    std::vector<std::string> files{"harness", "runner", "reference.so"};
    for (const auto& b : problem.baselines) files.push_back("baseline_" + b.name + ".so");
    // Where jobs run on other machines, the prebuild job records the CPU the
    // files were built for; those jobs use them only on that CPU.
    const auto withCpuRecord = [](std::vector<std::string> names, const std::filesystem::path& dir) {
        std::error_code missing;
        if (std::filesystem::exists(dir / "prebuilt-on", missing)) names.push_back("prebuilt-on");
        return names;
    };
    std::error_code ec;
    std::lock_guard lock(prebuildMutex_);
    if (!std::filesystem::exists(cacheDir / "complete", ec)) {
        const auto buildDir = config_.jobsRoot / (problem.name + "-prebuild-" + uniqueSuffix());
        auto written = cuda ? CudaHarnessGenerator::write(problem, candidate, space, options, buildDir)
                            : CppHarnessGenerator::write(problem, candidate, space, options, buildDir);
        if (!written || !writeFileAtomic(buildDir / "build" / "prebuild-only", "\n")) {
            std::filesystem::remove_all(buildDir, ec); // the job then builds everything itself
            return;
        }
        JobRequest request{buildDir, written->limits, {}, {}};
        const auto outcome = executor_.submit(request).get();
        bool built = !outcome.resultJson; // a result means the problem's own code failed to build
        for (const auto& f : files) built = built && std::filesystem::exists(buildDir / "build" / f, ec);
        if (built) {
            const auto temp = cacheDir.string() + ".tmp-" + uniqueSuffix();
            std::filesystem::create_directories(temp, ec);
            for (const auto& f : withCpuRecord(files, buildDir / "build"))
                std::filesystem::copy_file(buildDir / "build" / f, std::filesystem::path(temp) / f, ec);
            if (!ec) (void)writeFileAtomic(std::filesystem::path(temp) / "complete", "\n");
            std::filesystem::rename(temp, cacheDir, ec);
            if (ec) std::filesystem::remove_all(temp, ec);
            log::eval()->info("prebuilt harness and reference of {} in {:.1f} s", problem.name, outcome.wallSeconds);
        }
        std::filesystem::remove_all(buildDir, ec);
        if (!built) return;
    }
    for (const auto& f : withCpuRecord(files, cacheDir))
        std::filesystem::copy_file(cacheDir / f, jobDir / "build" / f, std::filesystem::copy_options::overwrite_existing, ec);
}

EvaluationResult Evaluator::finish(const problem::ProblemSpec& problem, PreparedJob& job, const JobOutcome& outcome) {
    if (job.finished) {
        if (!job.finished->cached) job.finished->recordId = record(problem, job, *job.finished);
        return *job.finished;
    }
    EvaluationResult result;
    if (outcome.resultJson) {
        auto parsed = parseResultJson(*outcome.resultJson);
        result = parsed ? *parsed : failedResult(EvalStatus::InfraError, parsed.error().message);
    } else if (outcome.timedOut) {
        result = failedResult(EvalStatus::Timeout, "the job exceeded its wall-clock limit of " +
                                                       std::to_string(static_cast<int>(job.request.limits.wallTimeoutS)) +
                                                       " s and was killed");
    } else if (outcome.stopped) {
        result = failedResult(EvalStatus::InfraError, "cancelled before it finished");
    } else if (auto evidence = readCrashEvidence(job.request.dir); evidence && !outcome.stopped) {
        result = classifyCrash(*evidence);
        if (outcome.timedOut)
            result = failedResult(EvalStatus::Timeout, "the job exceeded its wall-clock limit and was killed; " + result.message);
    } else {
        result =
            failedResult(EvalStatus::InfraError, outcome.infraError.empty() ? "the job produced no result" : outcome.infraError);
        if (!outcome.logTail.empty()) result.buildLog = outcome.logTail;
    }
    // Faster than this machine can move the operator's bytes: flagged for review
    // (CPU jobs run here, against this host's stored model; never a probe here).
    if (result.correct() && problem.backend == problem::Backend::Cpp && executor_.kind() == ExecutorKind::Local) {
        if (auto machine = machine::loadMachine(machine::machineInfo(job.compiler).host); machine)
            if (eval::flagBelowFloor(result, *machine)) log::eval()->warn("{}: {}", problem.name, result.message);
    }
    // On a GPU: the host the judge says it ran on, with the GPU measured there
    // (machine import-gpu); without a measurement nothing is flagged.
    if (result.correct() && problem::runsOnGpu(problem.backend) && result.env.is_object() && result.env.contains("host") &&
        result.env["host"].is_string()) {
        if (auto machine = machine::loadMachine(result.env["host"].get<std::string>()); machine)
            if (eval::flagBelowGpuFloor(result, *machine)) log::eval()->warn("{}: {}", problem.name, result.message);
    }
    result.wallSeconds = outcome.wallSeconds;
    result.profileFiles = outcome.profileFiles;
    result.compileSeconds = compileSecondsFrom(job.request.dir);
    if (!outcome.stopped) result.recordId = record(problem, job, result);
    std::error_code ec;
    if (!config_.keepJobs) std::filesystem::remove_all(job.request.dir, ec);
    return result;
}

Result<EvaluationResult> Evaluator::evaluate(const problem::ProblemSpec& problem, const Candidate& candidate,
                                             const EvalOptions& options, std::stop_token stop) {
    auto job = prepare(problem, candidate, options);
    if (!job) return job.error();
    JobOutcome outcome;
    if (!job->finished) {
        job->request.stop = stop;
        outcome = executor_.submit(job->request).get();
    }
    return finish(problem, *job, outcome);
}

std::int64_t Evaluator::record(const problem::ProblemSpec& problem, const PreparedJob& job, const EvaluationResult& result) {
    if (!database_) return 0;
    store::EvaluationRecord rec;
    rec.cacheKey = job.cacheKey;
    rec.problem = problem.name;
    rec.problemHash = problem.contentHash;
    rec.candidateHash = job.candidateHash;
    rec.paramsJson = nlohmann::json(job.params).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    rec.status = statusName(result.status);
    rec.speedup = result.speedup;
    rec.resultJson = jsonText(toJson(result));
    auto id = store::EvaluationStore(*database_).insert(rec);
    if (!id) {
        log::eval()->error("could not record the evaluation: {}", id.error().message);
        return 0;
    }
    return *id;
}

} // namespace kw::eval
