#pragma once
// The contract with executors (ARCHITECTURE.md, "Jobs"): put a job dir
// somewhere, run its run.sh under limits, bring result.json back.
#include "eval/cpp_harness_generator.h"

#include <cstddef>
#include <future>
#include <map>
#include <optional>
#include <stop_token>
#include <string>

namespace kw::eval {

struct JobRequest {
    std::filesystem::path dir;
    JobLimits limits;
    std::stop_token stop;
    // The job's identity across runs (the evaluation's cache key): executors
    // that leave jobs running elsewhere (Slurm) find them again by it after a
    // restart. Empty: the job has none.
    std::string key;
};

struct JobOutcome {
    std::optional<std::string> resultJson; // result.json's text when the job wrote one
    bool timedOut = false;                 // the executor's wall limit killed the job
    bool stopped = false;                  // cancelled through the stop token
    std::string infraError;                // the executor could not run the job at all
    std::string logTail;                   // run.sh's stderr, last part
    double wallSeconds = 0;
    std::map<std::string, std::string> profileFiles; // the job's profile/ dir: file name -> text
};

// Where an executor runs jobs: this machine, ssh hosts, a Slurm cluster.
enum class ExecutorKind { Local, Ssh, Slurm };

class Executor {
  public:
    virtual ~Executor() = default;
    virtual ExecutorKind kind() const = 0;
    virtual std::string name() const = 0; // "local", "ssh", "slurm": for messages and cache keys
    virtual std::size_t slotCount() const = 0;
    // Where jobs run, as far as their measurements go: part of the result
    // cache's key, so that one host's timings never stand in for another's.
    // This machine (the key already holds its identity) unless overridden.
    virtual std::string placement() const { return "local"; }
    // Never blocks on the job itself; the future becomes ready when it ends.
    virtual std::future<JobOutcome> submit(JobRequest request) = 0;
    // Whether a paused search should cancel its jobs in flight (and run them
    // again on resume) rather than let them finish: true where jobs wait in a
    // queue that others share, a cluster's.
    virtual bool cancelsOnPause() const { return false; }
};

} // namespace kw::eval
