#include "model_tables.h"

#include "machine/machine_cache.h"
#include "util/format.h"

#include <cstdio>
#include <unistd.h>

namespace kw::cli {
namespace {

// Seconds per byte at this host's bandwidth, 0 when it was never probed.
double secondsPerByte(const std::string& device) {
    char host[256] = {0};
    gethostname(host, sizeof host - 1);
    auto machine = machine::loadMachine(host);
    if (!machine) return 0;
    if (device == "cuda") return machine->gpus.empty() || machine->gpus[0].copyGBs <= 0 ? 0 : 1e-9 / machine->gpus[0].copyGBs;
    const double gbs = machine->dramGBs(machine->cores);
    return gbs > 0 ? 1e-9 / gbs : 0;
}

} // namespace

std::string speedupText(double speedup) {
    char b[32];
    std::snprintf(b, sizeof b, "%.2fx", speedup);
    return b;
}

nlohmann::json profileJson(const model::ModelProfile& p) {
    const double perByte = secondsPerByte(p.device);
    nlohmann::json j{{"device", p.device}, {"steps", p.steps}, {"step_s", p.stepSeconds}};
    j["regions"] = nlohmann::json::array();
    for (const auto& r : p.regions)
        j["regions"].push_back({{"name", r.name},
                                {"kind", r.kind},
                                {"calls", r.calls},
                                {"time_s", r.seconds},
                                {"device_s", r.deviceSeconds},
                                {"host_s", r.hostSeconds},
                                {"share", r.share},
                                {"bytes", r.bytes},
                                {"floor_s", perByte > 0 ? nlohmann::json(perByte * static_cast<double>(r.bytes)) : nullptr}});
    j["ops"] = nlohmann::json::array();
    for (const auto& o : p.ops)
        j["ops"].push_back(
            {{"name", o.name}, {"calls", o.calls}, {"time_s", o.seconds}, {"share", o.share}, {"shapes", o.shapes}});
    return j;
}

void printProfile(const std::string& file, const model::ModelProfile& p, int top) {
    const double perByte = secondsPerByte(p.device);
    const bool gpu = p.device == "cuda";
    std::printf("%s: a step takes %s on the %s (median of %d)\n\n", file.c_str(), formatSeconds(p.stepSeconds).c_str(),
                gpu ? "GPU" : "CPU", p.steps);
    std::printf("%-28s %-18s %10s %10s %6s %5s %10s %10s %8s\n", "region", "kind", gpu ? "device" : "time", gpu ? "host" : "",
                "share", "calls", "bytes", "floor", "x floor");
    for (std::size_t i = 0; i < p.regions.size() && static_cast<int>(i) < top; ++i) {
        const auto& r = p.regions[i];
        const double floor = perByte * static_cast<double>(r.bytes);
        std::printf("%-28s %-18s %10s %10s %5.1f%% %5d %10lld %10s %8s\n", r.name.substr(0, 28).c_str(),
                    r.kind.substr(0, 18).c_str(), formatSeconds(r.seconds).c_str(),
                    gpu ? formatSeconds(r.deviceSeconds).c_str() : "", 100 * r.share, r.calls, static_cast<long long>(r.bytes),
                    floor > 0 ? formatSeconds(floor).c_str() : "-",
                    floor > 0 ? (std::to_string(static_cast<int>(r.seconds / floor + 0.5)) + "x").c_str() : "-");
    }
    std::printf("\n%-28s %10s %6s %5s  %s\n", "op (own time)", "time", "share", "calls", "input shapes");
    for (std::size_t i = 0; i < p.ops.size() && static_cast<int>(i) < top; ++i) {
        const auto& o = p.ops[i];
        std::string shapes;
        for (const auto& s : o.shapes) shapes += (shapes.empty() ? "" : " ") + s;
        std::printf("%-28s %10s %5.1f%% %5d  %s\n", o.name.substr(0, 28).c_str(), formatSeconds(o.seconds).c_str(), 100 * o.share,
                    o.calls, shapes.c_str());
    }
    std::printf("\ntime: each region's forward, synchronised, without the profiler (its cost to a step)%s\n",
                gpu ? "; device: under the profiler, the span of its kernels" : "");
    if (perByte <= 0) std::printf("\nno floor: this host was never probed (kernelwright-cli machine probe)\n");
}

void printExtract(const std::string& dir, const model::ExtractReport& r) {
    std::printf("%s: a step takes %s on the %s; %zu regions into %s\n\n", r.modelName.c_str(),
                formatSeconds(r.stepSeconds).c_str(), r.device == "cuda" ? "GPU" : "CPU", r.regions.size(), dir.c_str());
    std::printf("%-20s %-18s %6s  %-28s %s\n", "region", "kind", "share", "problem", "from");
    for (const auto& g : r.regions)
        std::printf("%-20s %-18s %5.1f%%  %-28s %s\n", g.name.substr(0, 20).c_str(), g.kind.substr(0, 18).c_str(), 100 * g.share,
                    g.problem.empty() ? "-" : g.problem.c_str(),
                    !g.skipped.empty()  ? ("skipped: " + g.skipped).c_str()
                    : !g.sameAs.empty() ? ("same as " + g.sameAs + ": its problem and kernel").c_str()
                    : g.matched.empty() ? (r.device == "cuda" ? "its own torch problem (no bundled problem computes it)"
                                                              : "its own torch problem (no bundled problem computes it; "
                                                                "the torch judge runs on a GPU host)")
                                        : ("bundled " + g.matched + ", matched by behaviour").c_str());
    std::printf("\nnext: kernelwright-cli model search %s\n", dir.c_str());
}

void printSearch(const model::ExtractReport& r, const std::vector<suite::Entry>& entries,
                 const std::map<std::string, int>& budgets) {
    std::printf("\n%-20s %-28s %7s %-18s %9s %8s\n", "region", "problem", "budget", "status", "speedup", "search");
    for (const auto& g : r.regions) {
        if (g.problem.empty() || !g.sameAs.empty()) continue;
        const suite::Entry* e = nullptr;
        for (const auto& x : entries)
            if (x.problem == g.problem) e = &x;
        std::printf("%-20s %-28s %7d %-18s %9s %8s\n", g.name.substr(0, 20).c_str(), g.problem.substr(0, 28).c_str(),
                    budgets.count(g.problem) ? budgets.at(g.problem) : 0, e ? e->status.c_str() : "not run",
                    e && e->speedup ? speedupText(*e->speedup).c_str() : "-",
                    e && e->searchId ? std::to_string(e->searchId).c_str() : "-");
    }
}

void printApply(const model::ApplyReport& r) {
    std::printf("%-20s %-28s %8s %9s  %s\n", "region", "problem", "search", "kernel", "in the model");
    for (const auto& c : r.regions)
        std::printf("%-20s %-28s %8s %9s  %s\n", c.region.substr(0, 20).c_str(), c.problem.substr(0, 28).c_str(),
                    c.searchId ? std::to_string(c.searchId).c_str() : "-",
                    c.kernelSpeedup ? speedupText(*c.kernelSpeedup).c_str() : "-",
                    !c.swapped ? ("kept: " + c.why).c_str()
                    : c.ok     ? "swapped, output checked"
                               : ("WRONG: " + c.why).c_str());
    bool any = false;
    for (const auto& c : r.regions) any |= c.swapped;
    if (!any)
        std::printf("\nnothing swapped: the model is its own (no region has a kernel faster than its module)\n");
    else if (r.modelOk)
        std::printf("\nthe whole model's output matches the original's on fresh inputs (rtol = atol = %g)\n", r.tolerance);
    else
        std::printf("\nthe whole model's output DIFFERS from the original's: %s\n", r.modelWhy.c_str());
}

void printAb(const model::AbReport& r) {
    std::printf("A/B on the %s: %d interleaved rounds of %d steps, order shuffled each round\n\n",
                r.device == "cuda" ? "GPU" : "CPU", r.rounds, r.stepsPerRound);
    std::printf("%-28s %12s %9s %19s  %s\n", "variant", "median step", "speedup", "95 % interval", "over");
    for (const auto& row : r.rows) {
        char interval[48];
        std::snprintf(interval, sizeof interval, "%.3f-%.3f", row.low, row.high);
        std::printf("%-28s %12s %9s %19s  %s%s\n", row.variant.substr(0, 28).c_str(), formatSeconds(row.medianSeconds).c_str(),
                    speedupText(row.speedup).c_str(), interval, row.over.c_str(),
                    row.slowerInModel ? ("  SLOWER IN THE MODEL though " + speedupText(*row.kernelSpeedup) + " alone").c_str()
                                      : "");
    }
    if (!r.regions.empty()) {
        // The waterfall: what each region costs a step before and after.
        std::printf("\n%-28s %12s %12s %12s\n", "region (its forward)", "before", "after", "saved");
        for (const auto& g : r.regions)
            std::printf("%-28s %12s %12s %12s\n", g.name.substr(0, 28).c_str(), formatSeconds(g.beforeSeconds).c_str(),
                        formatSeconds(g.afterSeconds).c_str(),
                        (g.afterSeconds > g.beforeSeconds ? "-" + formatSeconds(g.afterSeconds - g.beforeSeconds)
                                                          : formatSeconds(g.beforeSeconds - g.afterSeconds))
                            .c_str());
    }
    for (const auto& n : r.notes) std::printf("\nnote: %s\n", n.c_str());
}

} // namespace kw::cli
