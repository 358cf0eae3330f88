#include "inspect/param_importance.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>

namespace kw::inspect {
namespace {

bool number(const std::string& s, double& out) {
    if (s.empty()) return false;
    char* end = nullptr;
    out = std::strtod(s.c_str(), &end);
    return end && *end == '\0';
}

// Numbers by value, then the rest as text.
bool before(const std::string& a, const std::string& b) {
    double x = 0, y = 0;
    const bool nx = number(a, x), ny = number(b, y);
    if (nx != ny) return nx;
    return nx ? x < y : a < b;
}

} // namespace

std::vector<ParamImportance> paramImportance(const std::vector<ParamSample>& samples) {
    std::set<std::string> names;
    double mean = 0;
    int n = 0;
    for (const auto& s : samples) {
        if (s.speedup <= 0) continue;
        for (const auto& [k, _] : s.params) names.insert(k);
        mean += std::log(s.speedup);
        ++n;
    }
    std::vector<ParamImportance> out;
    if (n < 2) return out;
    mean /= n;
    double total = 0;
    for (const auto& s : samples)
        if (s.speedup > 0) total += std::pow(std::log(s.speedup) - mean, 2);
    for (const auto& name : names) {
        std::map<std::string, std::pair<double, int>> groups; // value -> (sum of log speedups, count)
        for (const auto& s : samples) {
            if (s.speedup <= 0) continue;
            auto it = s.params.find(name);
            auto& g = groups[it == s.params.end() ? std::string("(unset)") : it->second];
            g.first += std::log(s.speedup);
            ++g.second;
        }
        if (groups.size() < 2) continue;
        double between = 0;
        ParamImportance p;
        p.name = name;
        for (const auto& [value, g] : groups) {
            between += g.second * std::pow(g.first / g.second - mean, 2);
            p.values.push_back(value);
        }
        p.importance = total > 0 ? std::clamp(between / total, 0.0, 1.0) : 0.0;
        std::sort(p.values.begin(), p.values.end(), before);
        out.push_back(std::move(p));
    }
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.importance > b.importance; });
    return out;
}

} // namespace kw::inspect
