#include "inspect/progress_curves.h"

#include "eval/evaluation_result.h"

#include <algorithm>

namespace kw::inspect {

ProgressCurve progressCurve(const store::SearchRecord& search, const std::vector<store::NodeRecord>& nodes) {
    ProgressCurve curve;
    curve.searchId = search.id;
    curve.name = search.label.empty() ? "search " + std::to_string(search.id) + " · " + search.problem : search.label;
    std::vector<const store::NodeRecord*> finished;
    for (const auto& n : nodes)
        if (!n.finishedAt.empty()) finished.push_back(&n);
    // ISO 8601 times order as text; nodes finished in one millisecond by their number.
    std::sort(finished.begin(), finished.end(), [](const auto* a, const auto* b) {
        return a->finishedAt != b->finishedAt ? a->finishedAt < b->finishedAt : a->seq < b->seq;
    });
    const std::string ok = eval::statusName(eval::EvalStatus::Ok);
    double best = 0;
    for (const auto* n : finished) {
        if (n->status == ok && n->speedup && *n->speedup > 0 && !n->flagged) best = std::max(best, *n->speedup);
        curve.evals.push_back(static_cast<int>(curve.evals.size()) + 1);
        curve.best.push_back(best);
    }
    return curve;
}

} // namespace kw::inspect
