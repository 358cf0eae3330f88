#include "search/node_profiling.h"

#include "util/json_text.h"
#include "util/log.h"

#include <nlohmann/json.hpp>

namespace kw::search {

std::vector<profile::Signal> NodeProfiling::signalsOf(const Node& n) {
    if (auto it = signals_.find(n.id); it != signals_.end()) return it->second;
    return signals_[n.id] = profile::storedDiagnosis(db_, n.evaluationId);
}

void NodeProfiling::profile(const Node& n, const eval::EvaluationResult& result, const std::string& source,
                            eval::ProfileLevel level) {
    if (!profiler_ || !result.correct() || result.timing.empty()) return;
    // A result from the cache brought no profile files: the report stored with
    // its first evaluation (breakdown, ncu) stays the one that counts.
    if (result.cached)
        if (auto stored = profile::storedSignals(db_, n.evaluationId)) {
            signals_[n.id] = std::move(*stored);
            return;
        }
    const auto report = profiler_->profile(result, level, source, jsonText(nlohmann::json(n.params)));
    signals_[n.id] = report.diagnosis;
    if (auto saved = profiler_->store(db_, n.evaluationId, report); !saved)
        log::search()->warn("node {}: profile not stored: {}", n.id, saved.error().message);
    if (stopNearRoofline_ > 0 && report.roofline && report.roofline->total.rooflineFraction >= stopNearRoofline_) {
        log::search()->info("node {} reaches {:.0f}% of its roofline bound", n.id, report.roofline->total.rooflineFraction * 100);
        nearRoofline_ = true;
    }
}

} // namespace kw::search
