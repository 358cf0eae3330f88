#include "profile/plausibility.h"

#include <cstdio>

namespace ks::profile {

bool flagBelowFloor(eval::EvaluationResult& result, const MachineModel& machine) {
    if (!result.correct()) return false;
    for (const auto& t : result.timing) {
        if (t.candidate.median <= 0 || (t.bytes <= 0 && t.flops <= 0)) continue;
        const double floor = machine.floorSeconds(t.bytes, t.flops, machine.cores);
        if (floor <= 0 || t.candidate.median >= kFloorMargin * floor) continue;
        char text[320];
        std::snprintf(text, sizeof text,
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

} // namespace ks::profile
