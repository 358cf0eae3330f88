#pragma once
// Searches side by side: each one's best speedup so far against the
// evaluations it had finished, as the tools that overlay runs draw them
// (TensorBoard's scalars, optuna-dashboard's history). A node counts once
// it has a result, in the order results came; only correct, timed nodes
// that are not flagged as implausibly fast raise the best (as a search's
// own best is chosen).
#include "store/search_store.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kw::inspect {

struct ProgressCurve {
    std::int64_t searchId = 0;
    std::string name;         // the search's name, or "search N · problem" when it has none
    std::vector<int> evals;   // 1, 2, ... : evaluations finished
    std::vector<double> best; // the best speedup after that many (0 before the first correct one)
};

ProgressCurve progressCurve(const store::SearchRecord& search, const std::vector<store::NodeRecord>& nodes);

} // namespace kw::inspect
