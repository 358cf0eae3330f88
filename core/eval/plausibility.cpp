#include "eval/plausibility.h"

#include <cstdio>

namespace kw::eval {

bool flagBelowFloor(eval::EvaluationResult& result, const machine::MachineModel& machine) {
    if (!result.correct()) return false;
    for (const auto& t : result.timing) {
        if (t.candidate.median <= 0 || (t.bytes <= 0 && t.flops <= 0)) continue;
        const double floor = machine.floorSeconds(t.bytes, t.flops, machine.cores);
        if (floor <= 0 || t.candidate.median >= kFloorMargin * floor) continue;
        char text[320];
        std::snprintf(
            text, sizeof text,
            " (flagged: on shape %s it took %.3g us, under this machine's floor of %.3g us for %.3g bytes and %.3g flops at "
            "%.1f GB/s and %.1f GFLOP/s; review before trusting it)",
            t.shape.c_str(), t.candidate.median * 1e6, floor * 1e6, t.bytes, t.flops, machine.dramGBs(machine.cores),
            machine.peakGflops(machine.cores));
        result.implausibleSpeedup = true;
        result.message += text;
        return true;
    }
    return false;
}

bool flagBelowGpuFloor(eval::EvaluationResult& result, const machine::MachineModel& machine) {
    if (!result.correct() || machine.gpus.empty()) return false;
    const std::string ran = result.env.is_object() && result.env.contains("gpu") && result.env["gpu"].is_string()
                                ? result.env["gpu"].get<std::string>()
                                : "";
    const machine::GpuModel* gpu = &machine.gpus.front();
    for (const auto& g : machine.gpus)
        if (!ran.empty() && !g.name.empty() && ran.rfind(g.name, 0) == 0) gpu = &g;
    if (gpu->copyGBs <= 0) return false;
    for (const auto& t : result.timing) {
        if (t.candidate.median <= 0 || (t.bytes <= 0 && t.gathers <= 0)) continue;
        const double floor = machine::gpuFloorSeconds(*gpu, t.bytes, t.gathers);
        if (t.candidate.median >= kFloorMargin * floor) continue;
        char lookups[96] = "";
        if (t.gathers > 0 && gpu->l2GatherGps > 0)
            std::snprintf(lookups, sizeof lookups, " and %.3g lookups at %.3g G/s", t.gathers, gpu->l2GatherGps);
        char text[400];
        std::snprintf(text, sizeof text,
                      " (flagged: on shape %s it took %.3g us, under the GPU's floor of %.3g us for %.3g bytes at %.0f GB/s%s "
                      "measured on %s; review before trusting it)",
                      t.shape.c_str(), t.candidate.median * 1e6, floor * 1e6, t.bytes, gpu->copyGBs, lookups, gpu->name.c_str());
        result.implausibleSpeedup = true;
        result.message += text;
        return true;
    }
    return false;
}

} // namespace kw::eval
