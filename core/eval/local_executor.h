#pragma once
#include "eval/executor.h"
#include "eval/job_pool.h"
#include "eval/sandbox.h"

#include <memory>

namespace kw::eval {

struct LocalExecutorConfig {
    std::size_t workers = 0; // 0: one per core
    SandboxPolicy sandbox = SandboxPolicy::Preferred;
    std::uint64_t memoryLimitBytes = 0; // 0: half the RAM shared by the workers (at least 2 GiB)
    std::uint64_t fileSizeLimitBytes = 1ull << 30;
    // Tasks a job may add to its user's count: extraProcesses, plus
    // tasksPerCore for each CPU the job may run on. A Python job's processes
    // each start a thread per CPU they see (OpenMP, torch.compile's pool of up
    // to 32 workers): on a 64-core host four such processes passed a flat 256,
    // and CUDA then failed to start its own threads ("Error 304: OS call
    // failed", "busy or unavailable") in evaluations that were not pinned.
    std::uint64_t extraProcesses = 256;
    std::uint64_t tasksPerCore = 16;
    // As root, jobs run as users of their own: each executor (each CLI or
    // workbench session) claims a block of 64 uids from base (a lock file held
    // while it lives), and worker i runs as block start + i, so no two
    // sessions' jobs share a process limit.
    unsigned sandboxUidBase = 64000;
    // Worker i owns CPUs [i*k, (i+1)*k) with k = cores / workers, so that
    // concurrent jobs never time each other's threads. Off when workers > cores.
    bool pinCpus = true;
    // Timing phases run one at a time (checks and builds still overlap): jobs
    // timed side by side share memory bandwidth and caches, which would make
    // every memory-bound kernel look slower than it is. Serialized through an
    // flock on timingLockFile (default: <tmp>/kernelwright-<uid>/timing.lock),
    // so separate processes on this machine (two CLI searches) also take turns.
    bool exclusiveTiming = true;
    std::filesystem::path timingLockFile;
    // One GPU per worker (CUDA device ids): worker i's jobs see only gpus[i]
    // (CUDA_VISIBLE_DEVICES), and timing phases take turns per GPU, not
    // across GPUs (a lock file per GPU next to timingLockFile). Non-empty
    // sets the worker count.
    std::vector<std::string> gpus;
};

// Tasks (threads included) a job may start beyond those its user already
// runs, when it may use `cpus` CPUs.
inline std::uint64_t jobTaskBudget(const LocalExecutorConfig& c, std::size_t cpus) {
    return c.extraProcesses + c.tasksPerCore * cpus;
}

// A pool of worker threads, each running one job at a time as a sandboxed
// process group.
class LocalExecutor final : public Executor {
  public:
    // Fails when the policy is Required and no sandbox can be built here.
    static Result<std::unique_ptr<LocalExecutor>> create(LocalExecutorConfig config);
    ~LocalExecutor() override;
    // The uid worker `slot` runs jobs as (root only).
    unsigned sandboxUid(std::size_t slot) const { return uidBlockStart_ + static_cast<unsigned>(slot); }

    ExecutorKind kind() const override { return ExecutorKind::Local; }
    std::string name() const override { return "local"; }
    std::size_t slotCount() const override { return pool_->size(); }
    std::future<JobOutcome> submit(JobRequest request) override;

    bool sandboxed() const { return sandbox_.available; }
    // The timing lock of worker `slot`'s jobs: the GPU's with gpus, else the host's.
    std::filesystem::path timingLockOf(std::size_t slot) const;
    const LocalExecutorConfig& config() const { return config_; }

  private:
    LocalExecutor(LocalExecutorConfig config, SandboxStatus sandbox);
    JobOutcome runJob(std::size_t slot, const JobRequest& request) const;

    LocalExecutorConfig config_;
    SandboxStatus sandbox_;
    unsigned uidBlockStart_ = 0;    // the first uid of this executor's block (root only)
    int uidBlockLock_ = -1;         // held while this executor lives
    std::unique_ptr<JobPool> pool_; // last: its threads stop before the members they use go
};

} // namespace kw::eval
