#pragma once
// The search's evaluations under way: one per executor slot, each
// cancellable alone (its subtree pruned, the search paused on a cluster)
// and all by the search's stop token.
#include "eval/evaluator.h"
#include "search/tree_names.h"

#include <functional>
#include <future>
#include <memory>
#include <stop_token>
#include <vector>

namespace kw::search {

class EvaluationSlots {
  public:
    EvaluationSlots(eval::Executor& executor, std::stop_token searchStop) : executor_(executor), searchStop_(searchStop) {}

    // Submits a prepared job (one finished as it was prepared is only kept
    // for collection).
    void submit(NodeId node, eval::PreparedJob job);

    struct Ended {
        NodeId node = 0;
        eval::PreparedJob job;
        eval::JobOutcome outcome;
        bool requeue = false; // cancelled by a pause: to run again first
    };
    // The jobs that ended since the last look (cancelled ones have outcome.stopped).
    std::vector<Ended> ended();

    // A pause on a cluster: every job is taken back, to run again on resume.
    void cancelAllForRequeue();
    void cancelIf(const std::function<bool(NodeId)>& unwanted);

    std::size_t size() const { return jobs_.size(); }
    bool empty() const { return jobs_.empty(); }

  private:
    struct Job {
        NodeId node = 0;
        eval::PreparedJob job;
        std::future<eval::JobOutcome> outcome;
        std::stop_source cancel;
        // The search's stop token reaches this job's through the link.
        std::unique_ptr<std::stop_callback<std::function<void()>>> link;
        bool requeue = false;
    };
    eval::Executor& executor_;
    std::stop_token searchStop_;
    std::vector<Job> jobs_;
};

} // namespace kw::search
