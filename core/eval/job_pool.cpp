#include "eval/job_pool.h"

namespace kw::eval {

JobPool::JobPool(std::size_t slots, RunJob run) : run_(std::move(run)) {
    for (std::size_t i = 0; i < slots; ++i) workers_.emplace_back([this, i] { workerLoop(i); });
}

JobPool::~JobPool() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (auto& w : workers_) w.join();
    for (auto& p : queue_) {
        JobOutcome o;
        o.infraError = "the executor shut down before the job ran";
        p.promise.set_value(o);
    }
}

std::future<JobOutcome> JobPool::submit(JobRequest request) {
    Pending p{std::move(request), {}};
    auto future = p.promise.get_future();
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(std::move(p));
    }
    wake_.notify_one();
    return future;
}

void JobPool::workerLoop(std::size_t slot) {
    for (;;) {
        Pending job;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (stopping_) return;
            job = std::move(queue_.front());
            queue_.pop_front();
        }
        job.promise.set_value(run_(slot, job.request));
    }
}

} // namespace kw::eval
