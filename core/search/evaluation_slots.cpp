#include "search/evaluation_slots.h"

namespace kw::search {

void EvaluationSlots::submit(NodeId node, eval::PreparedJob prepared) {
    Job j;
    j.node = node;
    j.job = std::move(prepared);
    if (!j.job.finished) {
        j.link = std::make_unique<std::stop_callback<std::function<void()>>>(searchStop_,
                                                                             [s = j.cancel]() mutable { s.request_stop(); });
        j.job.request.stop = j.cancel.get_token();
        j.outcome = executor_.submit(j.job.request);
    }
    jobs_.push_back(std::move(j));
}

std::vector<EvaluationSlots::Ended> EvaluationSlots::ended() {
    std::vector<Ended> out;
    for (auto it = jobs_.begin(); it != jobs_.end();) {
        const bool ready =
            !it->outcome.valid() || it->outcome.wait_for(std::chrono::milliseconds(0)) == std::future_status::ready;
        if (!ready) {
            ++it;
            continue;
        }
        Ended e;
        e.node = it->node;
        e.job = std::move(it->job);
        if (it->outcome.valid()) e.outcome = it->outcome.get();
        e.requeue = it->requeue;
        out.push_back(std::move(e));
        it = jobs_.erase(it);
    }
    return out;
}

void EvaluationSlots::cancelAllForRequeue() {
    for (auto& j : jobs_) {
        j.requeue = true;
        j.cancel.request_stop();
    }
}

void EvaluationSlots::cancelIf(const std::function<bool(NodeId)>& unwanted) {
    for (auto& j : jobs_)
        if (unwanted(j.node)) j.cancel.request_stop();
}

} // namespace kw::search
