#pragma once
// Which tunable params matter, from a search's correct evaluations: for
// each param, the share of the speedup's variance (of its logarithm) that
// its value explains (eta squared: between-group over total sum of squares),
// as optuna's importance panel answers the same question. Also each param's
// values in order, for parallel coordinates.
#include <map>
#include <string>
#include <vector>

namespace kw::inspect {

struct ParamSample {
    std::map<std::string, std::string> params;
    double speedup = 0; // > 0
};

struct ParamImportance {
    std::string name;
    double importance = 0;           // 0..1
    std::vector<std::string> values; // the values seen, numbers ascending, then text
};

// Params with fewer than two distinct values are left out; most important first.
std::vector<ParamImportance> paramImportance(const std::vector<ParamSample>& samples);

} // namespace kw::inspect
