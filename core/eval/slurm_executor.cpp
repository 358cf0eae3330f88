#include "eval/slurm_executor.h"

#include "eval/job_files.h"
#include "eval/process_runner.h"
#include "eval/remote_sandbox.h"
#include "util/files.h"
#include "util/hash.h"
#include "util/log.h"
#include "util/text.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <sstream>

namespace kw::eval {
namespace {

std::string uniqueTag() {
    static std::atomic<unsigned> counter{0};
    return std::to_string(getpid()) + "-" + std::to_string(counter++);
}

std::string describeExit(int rc) {
    return "exit " + std::to_string(rc) + (rc > 128 ? ", signal " + std::to_string(rc - 128) : "");
}

// Removes a submission's link and, once it is the last, its batch dir.
void removeLink(const std::filesystem::path& link) {
    if (link.empty()) return;
    std::error_code ec;
    std::filesystem::remove(link, ec);
    std::filesystem::remove(link.parent_path(), ec); // fails while other tasks' links remain
}

// A prebuild job's products (harness, reference and baselines, and the CPU
// they were built for) go back to the client, which copies them into later jobs.
void adoptPrebuilt(const std::filesystem::path& jobBuild, const std::filesystem::path& localBuild) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(jobBuild, ec)) {
        const auto name = entry.path().filename();
        if ((name == "harness" || name == "prebuilt-on" || name.extension() == ".so") && entry.is_regular_file(ec) &&
            !entry.is_symlink(ec))
            std::filesystem::copy_file(entry.path(), localBuild / name, std::filesystem::copy_options::overwrite_existing, ec);
    }
}

} // namespace

struct SlurmExecutor::Tracked {
    JobRequest request;
    std::promise<JobOutcome> promise;
    std::filesystem::path entry; // <sharedDir>/<name>: job/ (the copy), limit, submission, rc
    std::string slurmId;         // queued or running on the cluster; empty: waiting to be submitted
    std::filesystem::path link;  // <batch dir>/<task> -> entry, while submitted
    bool mayAttach = true;       // the shared dir was not looked at yet: it may hold an earlier client's job
    int submitFailures = 0;
    Clock::time_point notBefore{};               // after an sbatch failure
    std::vector<std::string> lostRuns;           // how Slurm ended earlier attempts
    std::optional<Clock::time_point> endedSince; // Slurm says it ended; its run record not seen yet
    Clock::time_point runnerEnds{};              // its allocation lives at least until then ({}: unknown)
    bool handedOver = false;                     // runs in an allocation an earlier job had
    bool copied = false;                         // entry holds a fresh copy for this attempt
    bool done = false;
};

Result<std::unique_ptr<SlurmExecutor>> SlurmExecutor::create(SlurmExecutorConfig config) {
    const auto invalid = [](const std::string& m) { return makeError(ErrorCode::InvalidArgument, m); };
    if (config.sharedDir.empty())
        return invalid("the Slurm executor needs a shared dir that the compute nodes see (--slurm-dir DIR)");
    if (!config.sharedDir.is_absolute())
        return invalid("the Slurm shared dir '" + config.sharedDir.string() +
                       "' must be an absolute path, the same on the compute nodes (--slurm-dir DIR)");
    if (config.maxJobs == 0) return invalid("slurm: the number of jobs at once must be at least 1 (--slurm-jobs N)");
    if (config.requeueAttempts < 0) return invalid("slurm: requeue attempts must not be negative");
    if (config.submitAttempts < 1) return invalid("slurm: submit attempts must be at least 1");
    if (!(config.pollIntervalS > 0) || config.maxPollIntervalS < config.pollIntervalS || config.retryBaseS < 0 ||
        config.batchWindowS < 0 || config.lostGraceS < 0 || config.lingerS < 0)
        return invalid("slurm: the poll interval must be positive and at most its maximum; delays must not be negative");
    auto& s = config.submit;
    if (s.jobName.empty()) s.jobName = "kernelwright";
    for (const auto* field : {&s.partition, &s.account, &s.qos, &s.gres, &s.timeLimit, &s.jobName})
        if (field->find_first_of("\n\r") != std::string::npos) return invalid("slurm: an sbatch option holds a line break");
    for (const char* tool : {"sbatch", "squeue", "scancel"})
        if (findExecutable(tool).empty())
            return makeError(ErrorCode::NotFound, std::string("the Slurm executor needs `") + tool +
                                                      "` on PATH here: install slurm-client, or load the cluster's Slurm module");

    std::error_code ec;
    const auto own = config.sharedDir / ".kernelwright";
    std::filesystem::create_directories(own / "batches", ec);
    if (!ec) std::filesystem::create_directories(own / "runners", ec);
    if (ec)
        return makeError(ErrorCode::Io, "cannot create " + (own / "batches").string() + ": " + ec.message() +
                                            " (--slurm-dir must be a writable dir on the shared file system)");
    // Named by its content: clients of other versions sharing the dir keep their own.
    const auto script = own / ("run-job-" + sha256Hex(kSlurmBatchScript).substr(0, 12) + ".sh");
    if (!std::filesystem::exists(script, ec)) {
        if (auto w = writeFileAtomic(script, kSlurmBatchScript); !w)
            return makeError(ErrorCode::Io, "cannot write the batch script: " + w.error().message);
    }
    std::filesystem::permissions(script,
                                 std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
                                     std::filesystem::perms::group_exec | std::filesystem::perms::others_read |
                                     std::filesystem::perms::others_exec,
                                 ec);
    const auto scratch =
        std::filesystem::temp_directory_path() / ("kernelwright-" + std::to_string(getuid())) / ("slurm-" + uniqueTag());
    std::filesystem::create_directories(scratch, ec);
    if (ec)
        return makeError(ErrorCode::Io,
                         "cannot create " + scratch.string() + ": " + ec.message() + " (set TMPDIR to a writable dir)");
    return std::unique_ptr<SlurmExecutor>(new SlurmExecutor(std::move(config), script, scratch));
}

SlurmExecutor::SlurmExecutor(SlurmExecutorConfig config, std::filesystem::path script, std::filesystem::path scratch)
    : config_(std::move(config)), script_(std::move(script)), scratch_(std::move(scratch)) {
    manager_ = std::thread([this] { manage(); });
}

SlurmExecutor::~SlurmExecutor() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    manager_.join();
    std::error_code ec;
    std::filesystem::remove_all(scratch_, ec);
}

std::future<JobOutcome> SlurmExecutor::submit(JobRequest request) {
    std::list<Tracked> one(1);
    one.front().request = std::move(request);
    auto future = one.front().promise.get_future();
    {
        std::lock_guard lock(mutex_);
        arrived_.splice(arrived_.end(), one);
    }
    wake_.notify_all();
    return future;
}

SlurmExecutor::Run SlurmExecutor::runCommand(const std::vector<std::string>& argv, double timeoutS) const {
    ProcessSpec spec;
    spec.argv = argv;
    spec.workDir = scratch_;
    spec.stdoutFile = scratch_ / "cmd.out";
    spec.stderrFile = scratch_ / "cmd.err";
    spec.limits.wallSeconds = timeoutS;
    const auto p = runProcess(spec);
    Run r;
    if (!p.started) {
        r.error = "cannot start " + argv[0] + ": " + p.startError;
        return r;
    }
    auto out = readTextFile(spec.stdoutFile);
    r.out = out ? *out : std::string();
    if (p.timedOut)
        r.error = argv[0] + " gave no answer within " + std::to_string(static_cast<int>(timeoutS)) + " s";
    else if (p.exitCode != 0) {
        r.error = lastLineOf(spec.stderrFile);
        if (r.error.empty()) r.error = argv[0] + " ended with " + describeExit(p.exitCode);
    }
    r.ok = r.error.empty();
    return r;
}

void SlurmExecutor::manage() {
    auto nextPoll = Clock::now();
    double interval = config_.pollIntervalS;
    for (;;) {
        std::list<Tracked> arrived;
        {
            std::unique_lock lock(mutex_);
            // Run records are looked for on each round: often while jobs are out,
            // since a lingering allocation waits for the next job meanwhile.
            const bool out =
                std::any_of(jobs_.begin(), jobs_.end(), [](const Tracked& j) { return !j.done && !j.slurmId.empty(); });
            wake_.wait_for(lock, std::chrono::milliseconds(out ? 25 : 100), [this] { return stopping_ || !arrived_.empty(); });
            if (stopping_) break;
            if (!arrived_.empty() && config_.batchWindowS > 0) {
                // Jobs submitted together (a search filling its slots) go as one job array.
                lock.unlock();
                std::this_thread::sleep_for(std::chrono::duration<double>(config_.batchWindowS));
                lock.lock();
            }
            arrived.splice(arrived.end(), arrived_);
        }
        adopt(arrived);
        bool changed = cancelStopped();
        changed = collectFinished() || changed;
        changed = startWaiting() || changed;
        const auto now = Clock::now();
        if (changed) {
            interval = config_.pollIntervalS;
            nextPoll =
                std::min(nextPoll, now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(interval)));
        }
        const bool anySubmitted =
            std::any_of(jobs_.begin(), jobs_.end(), [](const Tracked& j) { return !j.done && !j.slurmId.empty(); });
        if (anySubmitted && now >= nextPoll) {
            const bool moved = poll();
            const bool ending =
                std::any_of(jobs_.begin(), jobs_.end(), [](const Tracked& j) { return j.endedSince.has_value(); });
            interval = moved || ending ? config_.pollIntervalS : std::min(interval * 2, config_.maxPollIntervalS);
            nextPoll = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(interval));
        }
        jobs_.remove_if([](const Tracked& j) { return j.done; });
    }
    // Jobs on the cluster keep running: a resumed search re-attaches to them.
    std::lock_guard lock(mutex_);
    jobs_.splice(jobs_.end(), arrived_);
    for (auto& job : jobs_) {
        JobOutcome o;
        o.infraError = "the Slurm executor shut down before the job ended" +
                       (job.slurmId.empty() ? std::string()
                                            : " (Slurm job " + job.slurmId + " stays; resuming the search re-attaches to it)");
        job.promise.set_value(o);
    }
    jobs_.clear();
}

void SlurmExecutor::adopt(std::list<Tracked>& arrived) {
    for (auto& job : arrived) {
        const auto& r = job.request;
        std::string name =
            r.key.empty() ? fileSafeName(std::filesystem::absolute(r.dir).filename().string()) : "job-" + fileSafeName(r.key);
        job.entry = config_.sharedDir / name;
        // The same job twice in this client: the second gets a dir of its own
        // instead of taking over the first one's.
        for (int n = 2;
             std::any_of(jobs_.begin(), jobs_.end(), [&](const Tracked& t) { return !t.done && t.entry == job.entry; }); ++n) {
            job.entry = config_.sharedDir / (name + "-" + std::to_string(n));
            job.mayAttach = false;
        }
        jobs_.push_back(std::move(job));
    }
}

bool SlurmExecutor::cancelStopped() {
    std::vector<std::string> ids;
    std::vector<Tracked*> stopped;
    for (auto& job : jobs_) {
        if (job.done || !job.request.stop.stop_requested()) continue;
        if (!job.slurmId.empty()) ids.push_back(job.slurmId);
        stopped.push_back(&job);
    }
    if (stopped.empty()) return false;
    if (!ids.empty()) {
        const auto r = runCommand(scancelCommand(ids), 60);
        if (!r.ok)
            log::eval()->warn("slurm: scancel {} failed: {}", joinComma(ids), r.error);
        else
            log::eval()->debug("slurm: cancelled {}", joinComma(ids));
    }
    for (auto* job : stopped) {
        std::error_code ec;
        if (!job->slurmId.empty()) std::filesystem::remove_all(runnersDir() / job->slurmId, ec);
        JobOutcome o;
        o.stopped = true;
        finish(*job, o);
    }
    return true;
}

bool SlurmExecutor::collectFinished() {
    bool any = false;
    std::error_code ec;
    for (auto& job : jobs_) {
        if (job.done || job.slurmId.empty() || !std::filesystem::exists(job.entry / "rc", ec)) continue;
        auto text = readTextFile(job.entry / "rc");
        const auto record = parseRunRecord(text ? *text : std::string());
        JobOutcome o;
        const int rc = record ? record->exitCode : -1;
        o.wallSeconds = record ? record->wallSeconds : 0;
        const double limit = job.request.limits.wallTimeoutS;
        // timeout(1) ends with 124 when TERM stopped run.sh, 137 when it needed KILL.
        o.timedOut = limit > 0 && (rc == 124 || (rc == 137 && o.wallSeconds >= limit));
        const auto dir = std::filesystem::absolute(job.request.dir);
        copyJobOutputs(job.entry / "job", dir);
        if (std::filesystem::exists(dir / "build" / "prebuild-only", ec))
            adoptPrebuilt(job.entry / "job" / "build", dir / "build");
        if (rc == kNoSandboxExit && refusedForNoSandbox(dir))
            o.infraError = "slurm: " + noSandboxMessage(dir, record && !record->host.empty() ? record->host : "a node");
        else
            readJobOutputs(dir, describeExit(rc) + (record && !record->host.empty() ? " on " + record->host : ""), o);
        log::eval()->debug("slurm: job {} ({}) ended, {:.2f} s", job.slurmId, job.entry.filename().string(), o.wallSeconds);
        if (config_.lingerS > 0 && job.runnerEnds != Clock::time_point{})
            idle_.push_back({job.slurmId, Clock::now(), job.runnerEnds});
        finish(job, o);
        any = true;
    }
    return any;
}

bool SlurmExecutor::startWaiting() {
    const auto now = Clock::now();
    // A runner stops lingering lingerS after its run record, which was
    // written before it was seen here; one handed a job after that finds no
    // inbox (handOver tries the next), so this only spares the attempt.
    const auto stale = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(config_.lingerS * 0.8));
    std::erase_if(idle_, [&](const IdleRunner& r) { return now - r.since > stale; });
    std::size_t active = 0;
    for (const auto& job : jobs_) active += !job.done && !job.slurmId.empty();
    bool changed = false;
    std::vector<Tracked*> batch;
    for (auto& job : jobs_) {
        if (job.done || !job.slurmId.empty() || now < job.notBefore) continue;
        if (job.mayAttach) {
            job.mayAttach = false;
            if (attach(job)) {
                ++active;
                changed = true;
                continue;
            }
        }
        if (handOver(job)) {
            // An idle allocation became this job's (or the job ended with an infra error).
            active += !job.done;
            changed = true;
            continue;
        }
        // Lingering allocations count: they are the cluster's until they go.
        if (active + idle_.size() + batch.size() >= config_.maxJobs) continue;
        batch.push_back(&job);
    }
    if (!batch.empty()) {
        submitBatch(batch);
        changed = true;
    }
    return changed;
}

bool SlurmExecutor::handOver(Tracked& job) {
    const double limit = job.request.limits.wallTimeoutS;
    if (idle_.empty() || limit <= 0) return false;
    const auto runners = runnersDir();
    // Its whole wall limit, and the script's own seconds around run.sh, must fit in what the allocation has left.
    const auto needed = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limit + 10));
    while (!idle_.empty()) {
        const IdleRunner runner = idle_.back(); // the newest has the most of its linger left
        idle_.pop_back();
        if (runner.ends - Clock::now() < needed) continue;
        if (!job.copied && !prepareEntry(job)) return true; // finished with an infra error
        if (auto w = writeFileAtomic(job.entry / "submission", runner.slurmId + "\n\n"); !w) {
            log::eval()->warn("slurm: cannot record job {} in {}: {}", runner.slurmId, job.entry.string(), w.error().message);
            continue;
        }
        std::error_code ec;
        const auto handed = runners / (runner.slurmId + ".handover-" + uniqueTag());
        std::filesystem::create_directory_symlink(job.entry, handed, ec);
        // Atomic: the runner either sees it in its inbox, or has already
        // renamed the inbox away and the rename fails here.
        if (!ec) std::filesystem::rename(handed, runners / runner.slurmId / "next", ec);
        if (ec) {
            std::error_code ignored;
            std::filesystem::remove(handed, ignored);
            log::eval()->debug("slurm: allocation {} had stopped lingering: {}", runner.slurmId, ec.message());
            continue;
        }
        job.slurmId = runner.slurmId;
        job.runnerEnds = runner.ends;
        job.handedOver = true;
        job.link.clear();
        job.submitFailures = 0;
        log::eval()->debug("slurm: {} runs in allocation {}", job.entry.filename().string(), runner.slurmId);
        return true;
    }
    return false;
}

bool SlurmExecutor::attach(Tracked& job) {
    auto text = readTextFile(job.entry / "submission");
    if (!text) return false;
    std::istringstream in(*text);
    std::string id, link;
    std::getline(in, id);
    std::getline(in, link);
    id = trim(id);
    if (id.empty()) return false;
    job.slurmId = id;
    job.link = trim(link);
    log::eval()->info("slurm: re-attached to job {} ({}), submitted by an earlier run", id, job.entry.filename().string());
    return true;
}

void SlurmExecutor::submitBatch(const std::vector<Tracked*>& batch) {
    std::vector<Tracked*> ready;
    double wallLimit = 0;
    for (auto* job : batch) {
        // A copy made for a hand-over that found no allocation is still unused.
        if (!job->copied && !prepareEntry(*job)) continue;
        wallLimit = std::max(wallLimit, job->request.limits.wallTimeoutS);
        ready.push_back(job);
    }
    if (ready.empty()) return;

    SlurmBatch b;
    b.script = script_;
    b.batchDir = config_.sharedDir / ".kernelwright" / "batches" / uniqueTag();
    b.tasks = ready.size();
    b.wallLimitS = wallLimit;
    b.lingerS = config_.lingerS;
    b.runnersDir = runnersDir();
    // The allocations' Slurm time limit, counted from now (they start later).
    const auto submittedAt = Clock::now();
    std::optional<double> slurmLimitS;
    if (!config_.submit.timeLimit.empty())
        slurmLimitS = parseSlurmTimeLimit(config_.submit.timeLimit);
    else if (wallLimit > 0)
        slurmLimitS = wallLimit + 60;
    const bool reusable = slurmLimitS && *slurmLimitS < 1e9;
    std::error_code ec;
    std::filesystem::create_directories(b.batchDir, ec);
    for (std::size_t i = 0; i < ready.size(); ++i)
        std::filesystem::create_directory_symlink(ready[i]->entry, b.batchDir / std::to_string(i), ec);
    Run r = ec ? Run{false, {}, "cannot link the jobs into " + b.batchDir.string() + ": " + ec.message()}
               : runCommand(sbatchCommand(config_.submit, b), 60);
    Result<std::vector<std::string>> ids =
        r.ok ? parseSbatchOutput(r.out, b.tasks) : Result<std::vector<std::string>>(makeError(ErrorCode::Io, r.error));
    if (!ids) {
        std::filesystem::remove_all(b.batchDir, ec);
        for (auto* job : ready) {
            ++job->submitFailures;
            if (job->submitFailures >= config_.submitAttempts) {
                JobOutcome o;
                o.infraError = "sbatch failed: " + ids.error().message + " (after " + std::to_string(job->submitFailures) +
                               (job->submitFailures == 1 ? " attempt)" : " attempts)");
                finish(*job, o);
                continue;
            }
            const double delay = config_.retryBaseS * std::pow(2.0, job->submitFailures - 1);
            job->notBefore = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(delay));
        }
        log::eval()->warn("slurm: sbatch failed: {}; retrying in {:.1f} s", ids.error().message, config_.retryBaseS);
        return;
    }
    for (std::size_t i = 0; i < ready.size(); ++i) {
        auto& job = *ready[i];
        job.slurmId = (*ids)[i];
        job.link = b.batchDir / std::to_string(i);
        job.submitFailures = 0;
        job.handedOver = false;
        job.runnerEnds =
            reusable ? submittedAt + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(*slurmLimitS))
                     : Clock::time_point{};
        // What a later client needs to re-attach. A client killed between
        // sbatch and this write leaves a job it cannot find; that job only
        // costs its node time.
        if (auto w = writeFileAtomic(job.entry / "submission", job.slurmId + "\n" + job.link.string() + "\n"); !w)
            log::eval()->warn("slurm: cannot record job {} in {}: {}", job.slurmId, job.entry.string(), w.error().message);
    }
    log::eval()->debug("slurm: submitted {} job(s) as {}", ready.size(), (*ids)[0]);
}

bool SlurmExecutor::prepareEntry(Tracked& job) {
    // A fresh copy every attempt: an earlier one may have left half a run behind.
    std::error_code ec;
    std::filesystem::remove_all(job.entry, ec);
    std::filesystem::create_directories(job.entry, ec);
    if (!ec)
        std::filesystem::copy(job.request.dir, job.entry / "job",
                              std::filesystem::copy_options::recursive | std::filesystem::copy_options::copy_symlinks, ec);
    const double limit = job.request.limits.wallTimeoutS;
    Status written = ec ? Status(makeError(ErrorCode::Io, ec.message()))
                        : writeFileAtomic(job.entry / "limit", std::to_string(static_cast<long long>(std::ceil(limit))) + "\n");
    if (written) written = writeFileAtomic(job.entry / "sandbox", std::string(sandboxPolicyName(config_.sandbox)) + "\n");
    if (written) written = writeRemoteSandbox(job.entry / "job");
    if (!written) {
        JobOutcome o;
        o.infraError = "cannot copy the job dir into the Slurm shared dir " + job.entry.string() + ": " + written.error().message;
        finish(job, o);
        return false;
    }
    job.copied = true;
    return true;
}

bool SlurmExecutor::poll() {
    const auto r = runCommand(squeueCommand(config_.submit.jobName), 60);
    if (!r.ok) {
        // The controller may be restarting: the jobs keep their state until it answers.
        log::eval()->warn("slurm: squeue failed: {}; polling again later", r.error);
        return false;
    }
    const auto states = parseSqueueOutput(r.out);
    const auto now = Clock::now();
    bool moved = false;
    std::error_code ec;
    for (auto& job : jobs_) {
        if (job.done || job.slurmId.empty()) continue;
        const auto it = states.find(job.slurmId);
        if (it != states.end() && !slurmStateIsFinal(it->second.state)) {
            job.endedSince.reset();
            continue;
        }
        if (std::filesystem::exists(job.entry / "rc", ec)) continue; // collected on the next round
        if (!job.endedSince) {
            job.endedSince = now;
            moved = true;
            continue;
        }
        if (std::chrono::duration<double>(now - *job.endedSince).count() < config_.lostGraceS) continue;
        SlurmJobState state{job.slurmId, {}, {}, {}, {}};
        if (it != states.end())
            state = it->second;
        else
            // Gone from slurmctld's memory: ask the accounting, or the job completion log.
            for (bool completionLog : {false, true}) {
                const auto acct = runCommand(sacctCommand({job.slurmId}, completionLog), 60);
                const auto found = acct.ok ? parseSacctOutput(acct.out) : std::map<std::string, SlurmJobState>{};
                if (auto f = found.find(job.slurmId); f != found.end()) {
                    state = f->second;
                    break;
                }
            }
        lost(job, state);
        moved = true;
    }
    return moved;
}

void SlurmExecutor::lost(Tracked& job, const SlurmJobState& state) {
    std::error_code ec;
    // Its allocation has ended: an inbox it left (killed while lingering or running) goes too.
    std::filesystem::remove_all(runnersDir() / job.slurmId, ec);
    job.copied = false; // the next attempt starts from a fresh copy
    if (job.handedOver && !std::filesystem::exists(job.entry / "claimed", ec)) {
        // The allocation went before it took the job (it ended its linger, or
        // was cancelled, at that moment): nothing of the job ran, no attempt
        // spent. A lingering allocation ending is routine; one cancelled from
        // outside is worth a word.
        if (state.state.rfind("CANCELLED", 0) == 0)
            log::eval()->warn("slurm: allocation {} was cancelled before it took {}; resubmitting it (no attempt spent)",
                              job.slurmId, job.entry.filename().string());
        else
            log::eval()->debug("slurm: allocation {} ended before it took {}; submitting it", job.slurmId,
                               job.entry.filename().string());
        job.slurmId.clear();
        job.handedOver = false;
        job.endedSince.reset();
        return;
    }
    std::string what = "Slurm job " + job.slurmId + " " + describeLostJob(state);
    if (const auto log = lastLineOf(job.entry / "slurm.out"); !log.empty()) what += " [its log: " + log + "]";
    job.lostRuns.push_back(what);
    removeLink(job.link);
    job.link.clear();
    job.slurmId.clear();
    job.endedSince.reset();
    const int attempts = static_cast<int>(job.lostRuns.size());
    if (attempts > config_.requeueAttempts) {
        JobOutcome o;
        o.infraError = attempts == 1 ? what : "the cluster lost the job " + std::to_string(attempts) + " times: ";
        if (attempts > 1)
            for (std::size_t i = 0; i < job.lostRuns.size(); ++i) o.infraError += (i ? "; " : "") + job.lostRuns[i];
        log::eval()->warn("slurm: {}: {}", job.entry.filename().string(), o.infraError);
        finish(job, o);
        return;
    }
    log::eval()->warn("slurm: {}; resubmitting (attempt {}/{})", what, attempts + 1, config_.requeueAttempts + 1);
}

void SlurmExecutor::finish(Tracked& job, JobOutcome outcome) {
    removeLink(job.link);
    std::error_code ec;
    std::filesystem::remove_all(job.entry, ec);
    job.done = true;
    job.promise.set_value(std::move(outcome));
}

} // namespace kw::eval
