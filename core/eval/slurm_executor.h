#pragma once
// Runs jobs on a Slurm cluster (ARCHITECTURE.md, "Jobs"): each job dir is
// copied into a directory the compute nodes share, submitted with sbatch (a
// job array when several wait at once), followed by one poller for all jobs,
// and read back from the shared dir. Nodes need bash, coreutils and the job's
// toolchain; nothing of ours. Candidates run there as the user, in
// bubblewrap where the node has it (remote_sandbox.h, SlurmExecutorConfig::sandbox).
#include "eval/executor.h"
#include "eval/sandbox.h"
#include "eval/slurm_commands.h"
#include "util/result.h"

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <list>
#include <memory>
#include <mutex>
#include <thread>

namespace kw::eval {

struct SlurmExecutorConfig {
    // Job dirs go to <sharedDir>/<job>/; every compute node must see it at this path.
    std::filesystem::path sharedDir;
    SlurmSubmitOptions submit;    // partition, account, QoS, gres, time limit, extra sbatch arguments
    std::size_t maxJobs = 4;      // jobs queued or running at once: the executor's slots
    int requeueAttempts = 2;      // resubmissions of a job the cluster lost (node failure, preemption, ...)
    double pollIntervalS = 1;     // squeue; the interval doubles while nothing changes ...
    double maxPollIntervalS = 15; // ... up to this
    // Slurm may report a job ended a moment before its run record is visible
    // on a network file system; it counts as lost only after this.
    double lostGraceS = 3;
    double batchWindowS = 0.05; // jobs submitted this close together go as one job array
    // After its job, an allocation waits this long for another one, which
    // then runs in it at once instead of waiting for Slurm to schedule a new
    // job (about a second each, however short the evaluation). 0: one job per
    // allocation. Allocations never outlive their Slurm time limit for it.
    double lingerS = 3;
    int submitAttempts = 3; // sbatch failures (controller unreachable) are retried ...
    double retryBaseS = 1;  // ... after base, 2 base, 4 base seconds
    // Candidates run in bubblewrap on nodes that have it (remote_sandbox.h);
    // Required refuses nodes without it, Off never uses it.
    SandboxPolicy sandbox = SandboxPolicy::Preferred;
};

// Ends of jobs follow Slurm's: a job that run.sh finished is reported exactly
// as LocalExecutor reports it (the candidate's failures are the candidate's);
// a job Slurm ended before run.sh did (node failure, preemption, Slurm's time
// limit, OOM kill, an outside scancel) is resubmitted up to requeueAttempts
// times and then reported as JobOutcome::infraError with Slurm's state and
// reason. A job whose stop token fires is scancelled.
//
// Re-attaching: a job's shared dir is named by JobRequest::key and records
// its Slurm job id; another executor (a resumed search) submitting the same
// key while that job is queued, running or finished collects it instead of
// submitting it again.
class SlurmExecutor final : public Executor {
  public:
    // Checks the config, that sbatch, squeue and scancel are on PATH and that
    // the shared dir is writable; it does not contact the controller.
    static Result<std::unique_ptr<SlurmExecutor>> create(SlurmExecutorConfig config);
    // Jobs still on the cluster stay there (a resumed search re-attaches);
    // their futures end with an infra error.
    ~SlurmExecutor() override;

    ExecutorKind kind() const override { return ExecutorKind::Slurm; }
    std::string name() const override { return "slurm"; }
    // "slurm:PARTITION:GRES:ACCOUNT:QOS": jobs land on any node of the partition.
    std::string placement() const override {
        const auto& s = config_.submit;
        return "slurm:" + s.partition + ":" + s.gres + ":" + s.account + ":" + s.qos;
    }
    std::size_t slotCount() const override { return config_.maxJobs; }
    std::future<JobOutcome> submit(JobRequest request) override;
    bool cancelsOnPause() const override { return true; }

    const SlurmExecutorConfig& config() const { return config_; }

  private:
    using Clock = std::chrono::steady_clock;
    struct Tracked;

    SlurmExecutor(SlurmExecutorConfig config, std::filesystem::path script, std::filesystem::path scratch);
    void manage();
    void adopt(std::list<Tracked>& arrived);
    bool cancelStopped();
    bool collectFinished();
    bool startWaiting();
    bool poll();
    bool attach(Tracked& job);
    bool handOver(Tracked& job);
    bool prepareEntry(Tracked& job);
    std::filesystem::path runnersDir() const { return config_.sharedDir / ".kernelwright" / "runners"; }
    void submitBatch(const std::vector<Tracked*>& batch);
    void lost(Tracked& job, const SlurmJobState& state);
    void finish(Tracked& job, JobOutcome outcome);
    struct Run {
        bool ok = false;
        std::string out, error; // error: why it failed, for messages
    };
    Run runCommand(const std::vector<std::string>& argv, double timeoutS) const;

    SlurmExecutorConfig config_;
    std::filesystem::path script_;  // the batch script in the shared dir
    std::filesystem::path scratch_; // here: the Slurm commands' output
    std::list<Tracked> jobs_;       // the manager thread's alone
    // Allocations whose job ended a moment ago and that linger for another.
    struct IdleRunner {
        std::string slurmId;
        Clock::time_point since; // its run record seen
        Clock::time_point ends;  // Slurm's time limit ends it no earlier than this
    };
    std::vector<IdleRunner> idle_; // the manager thread's alone

    std::mutex mutex_;
    std::condition_variable wake_;
    std::list<Tracked> arrived_;
    bool stopping_ = false;
    std::thread manager_; // last: it stops before the members it uses go
};

} // namespace kw::eval
