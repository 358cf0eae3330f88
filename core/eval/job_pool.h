#pragma once
// The queue and worker threads every executor shares: one thread per slot,
// each running one job at a time through the executor's own function.
#include "eval/executor.h"

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace kw::eval {

class JobPool {
  public:
    using RunJob = std::function<JobOutcome(std::size_t slot, const JobRequest& request)>;

    JobPool(std::size_t slots, RunJob run);
    // Lets running jobs finish; queued ones end with an infra error.
    ~JobPool();
    JobPool(const JobPool&) = delete;
    JobPool& operator=(const JobPool&) = delete;

    std::size_t size() const { return workers_.size(); }
    std::future<JobOutcome> submit(JobRequest request);

  private:
    void workerLoop(std::size_t slot);

    struct Pending {
        JobRequest request;
        std::promise<JobOutcome> promise;
    };

    RunJob run_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Pending> queue_;
    bool stopping_ = false;
    std::vector<std::thread> workers_;
};

} // namespace kw::eval
