#include "option_types.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

namespace kw::cli {
namespace {

using K = NumericOption::Kind;
constexpr double kHuge = 1e18;

std::string bound(double v) {
    char text[40];
    std::snprintf(text, sizeof text, "%.15g", v);
    return text;
}

} // namespace

const std::vector<NumericOption>& numericOptions() {
    static const std::vector<NumericOption> table{
        {"budget", K::Integer, 1, 1e9, false, "a number of evaluations"},
        {"workers", K::Integer, 0, 4096, false, "a number of parallel evaluations (0: one per core)"},
        {"seed", K::Unsigned, 0, 0, false, "a random seed", "bench search"}, // eval --seed names a seed kernel
        {"finalists", K::Integer, 1, 1000, false, "a number of kernels timed again (the search's best always is)"},
        {"time-budget", K::Number, 0, 3600, true, "a number of seconds"},
        {"call-timeout", K::Number, 0, 86400, true, "a number of seconds"},
        {"run-timeout", K::Number, 0, 7 * 86400, true, "a number of seconds"},
        {"compile-timeout", K::Number, 0, 86400, true, "a number of seconds"},
        {"input-secret", K::Unsigned, 0, 0, false, "the unsigned number a result.json records as input_secret"},
        {"limit", K::Integer, 1, 1e6, false, "a number of results"},
        {"jobs", K::Integer, 1, 4096, false, "a number of files imported at once"},
        {"max-problems", K::Integer, 1, 1e6, false, "a number of problems"},
        {"min-speedup", K::Number, 0, kHuge, false, "a speedup"},
        {"dram-probes", K::Integer, 1, 1000, false, "a number of probes"},
        {"evaluation", K::Integer, 1, 9.2e18, false, "an evaluation id"},
        {"node", K::Integer, 1, 9.2e18, false, "a node id"},
        {"target", K::Number, 0, kHuge, true, "a speedup"},
        {"stall", K::Integer, 1, 1e9, false, "a number of evaluations"},
        {"time", K::Number, 0, kHuge, true, "a number of seconds"},
        {"exploration", K::Number, 0, 1e6, false, "an exploration constant"},
        {"max-tokens", K::Integer, 1, 1e9, false, "a number of tokens"},
        {"max-cost", K::Number, 0, kHuge, false, "a cost in US dollars"},
        {"llm-concurrency", K::Integer, 1, 1024, false, "a number of LLM requests at once"},
        {"stop-near-roofline", K::Number, 0, 1, true, "a fraction of the roofline (0 to 1)"},
        {"polish", K::Integer, 0, 1e6, false, "a number of polishing steps"},
        {"steps", K::Integer, 1, 1e6, false, "a number of forward passes"},
        {"top", K::Integer, 1, 1e6, false, "a number of rows"},
        {"ssh-slots", K::Integer, 1, 4096, false, "a number of jobs per host"},
        {"slurm-jobs", K::Integer, 1, 1e6, false, "a number of jobs at once"},
        {"slurm-requeue", K::Integer, 0, 1000, false, "a number of resubmissions"},
        {"slurm-linger", K::Number, 0, 3600, false, "a number of seconds (0: one evaluation per Slurm job)"},
    };
    return table;
}

const NumericOption* findNumericOption(const std::string& verb, const std::string& name) {
    for (const auto& o : numericOptions()) {
        if (name != o.name) continue;
        if (!o.verbs) return &o;
        const std::string verbs = std::string(" ") + o.verbs + " ";
        return verbs.find(" " + verb + " ") != std::string::npos ? &o : nullptr;
    }
    return nullptr;
}

std::string checkNumericOption(const NumericOption& o, const std::string& value) {
    const auto fail = [&](const std::string& expected) {
        return "--" + std::string(o.name) + " expects " + expected + ", got '" + value + "'";
    };
    const char* begin = value.data();
    const char* end = value.data() + value.size();
    switch (o.kind) {
    case K::Unsigned: {
        unsigned long long v = 0;
        const auto [p, ec] = std::from_chars(begin, end, v);
        if (value.empty() || ec != std::errc() || p != end)
            return fail(std::string(o.meaning) + " (a whole number from 0 to 18446744073709551615)");
        return {};
    }
    case K::Integer: {
        long long v = 0;
        const auto [p, ec] = std::from_chars(begin, end, v);
        const std::string range = "a whole number from " + bound(o.min) + " to " + bound(o.max);
        if (value.empty() || ec != std::errc() || p != end || static_cast<double>(v) < o.min || static_cast<double>(v) > o.max)
            return fail(std::string(o.meaning) + " (" + range + ")");
        return {};
    }
    case K::Number: {
        double v = 0;
        const auto [p, ec] = std::from_chars(begin, end, v);
        const std::string range =
            (o.minExclusive ? "above " : "at least ") + bound(o.min) + (o.max < kHuge ? ", at most " + bound(o.max) : "");
        if (value.empty() || ec != std::errc() || p != end || !std::isfinite(v) || v < o.min || (o.minExclusive && v <= o.min) ||
            v > o.max)
            return fail(std::string(o.meaning) + " (" + range + ")");
        return {};
    }
    }
    return {};
}

} // namespace kw::cli
