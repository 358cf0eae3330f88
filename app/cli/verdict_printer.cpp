#include "verdict_printer.h"

#include <map>
#include <set>

namespace kw::cli {

namespace {
std::string sizesText(const nlohmann::json& sizes) {
    std::string s;
    for (auto it = sizes.begin(); it != sizes.end(); ++it) s += (s.empty() ? "" : ", ") + it.key() + "=" + it->dump();
    return s;
}
} // namespace

void printVerdict(std::FILE* out, const std::string& title, const eval::EvaluationResult& r) {
    std::fprintf(out, "%s\n", title.c_str());
    std::fprintf(out, "  status    %s%s\n", eval::statusName(r.status).c_str(),
                 r.cached ? " (cached result; --no-cache to rerun)" : "");
    if (!r.message.empty()) std::fprintf(out, "  verdict   %s\n", r.message.c_str());

    if (!r.checks.empty()) {
        std::size_t passed = 0;
        std::set<std::string> shapes;
        std::set<std::uint64_t> seeds;
        for (const auto& c : r.checks) {
            passed += c.passed ? 1 : 0;
            shapes.insert(c.shape);
            seeds.insert(c.seed);
        }
        std::fprintf(out, "  checks    %zu of %zu passed (%zu shapes x %zu seeds)\n", passed, r.checks.size(), shapes.size(),
                     seeds.size());
        int shown = 0;
        for (const auto& c : r.checks) {
            if (c.passed) continue;
            if (++shown > 8) {
                std::fprintf(out, "            ... and %zu more failing cases\n", r.checks.size() - passed - 8);
                break;
            }
            std::fprintf(out, "    FAIL    %s [%s] seed %llu, %s: %s", c.shape.c_str(), sizesText(c.sizes).c_str(),
                         static_cast<unsigned long long>(c.seed), c.output.c_str(), c.kind.c_str());
            if (c.kind == "mismatch" || c.kind == "nan")
                std::fprintf(out, ", %lld of %lld wrong, max abs err %.3g", c.mismatches, c.elements, c.maxAbsError);
            if (c.kind == "unwritten") std::fprintf(out, ", %lld of %lld never written", c.unwritten, c.elements);
            if (c.kind == "nondeterministic") std::fprintf(out, ", %lld elements differ between calls", c.nondeterministic);
            if (c.firstIndex)
                std::fprintf(out, "; first at [%lld]: expected %.9g, got %.9g", *c.firstIndex, c.firstExpected, c.firstActual);
            if (!c.detail.empty()) std::fprintf(out, " (%s)", c.detail.c_str());
            std::fprintf(out, "\n");
        }
    }

    for (const auto& t : r.timing) {
        std::fprintf(out, "  timing    shape %s [%s], %d warm-up rounds, %d interleaved reps, cold caches\n", t.shape.c_str(),
                     sizesText(t.sizes).c_str(), t.warmup, t.reps);
        std::fprintf(out, "            %-14s %10s %10s %10s %7s\n", "kernel", "median", "p10", "p90", "CV");
        auto row = [&](const eval::TimingStats& s) {
            std::fprintf(out, "            %-14s %10s %10s %10s %6.1f%%\n", s.name.c_str(), formatSeconds(s.median).c_str(),
                         formatSeconds(s.p10).c_str(), formatSeconds(s.p90).c_str(), s.cv * 100);
        };
        row(t.candidate);
        for (const auto& b : t.baselines) row(b);
        std::fprintf(out, "            speedup %.3gx over the reference", t.speedup);
        if (const auto [lo, hi] = t.speedupInterval; hi > 0) std::fprintf(out, " (95 %% interval %.3g-%.3gx)", lo, hi);
        for (std::size_t i = 1; i < t.baselines.size(); ++i)
            if (const double s = t.speedupOver(t.baselines[i].name); s > 0)
                std::fprintf(out, ", %.3gx over %s", s, t.baselines[i].name.c_str());
        if (t.bytes > 0 && t.candidate.median > 0) std::fprintf(out, "; %.3g GB/s", t.bytes / t.candidate.median / 1e9);
        if (t.flops > 0 && t.candidate.median > 0) std::fprintf(out, ", %.3g GFLOP/s", t.flops / t.candidate.median / 1e9);
        std::fprintf(out, "\n");
    }
    if (r.speedup)
        std::fprintf(out, "  speedup   %.3gx (geometric mean over timing shapes)%s\n", *r.speedup,
                     r.implausibleSpeedup ? "  ** implausible: review before trusting **" : "");
    if (const auto best = r.speedupOverBestBaseline();
        r.speedup && best && !r.timing.empty() && r.timing.front().baselines.size() > 1)
        std::fprintf(out, "            %.3gx over the best baseline of each shape (mostly %s)\n", *best,
                     r.bestBaselineName().c_str());
    if (!r.buildLog.empty() && (r.status == eval::EvalStatus::CompileError || r.status == eval::EvalStatus::InfraError ||
                                r.status == eval::EvalStatus::RuntimeError)) {
        std::fprintf(out, "  log\n");
        std::string line;
        for (char ch : r.buildLog) {
            if (ch == '\n') {
                std::fprintf(out, "    | %s\n", line.c_str());
                line.clear();
            } else {
                line += ch;
            }
        }
        if (!line.empty()) std::fprintf(out, "    | %s\n", line.c_str());
    }
    if (!r.cached)
        std::fprintf(out, "  cost      %s compiling, %s in all\n", formatSeconds(r.compileSeconds).c_str(),
                     formatSeconds(r.wallSeconds).c_str());
}

} // namespace kw::cli
