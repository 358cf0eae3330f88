#pragma once
// Nsight Compute metrics per kernel launch, parsed from `ncu --csv` output:
// the "raw" page (one row per launch, one column per metric, a units row) or
// the default "details" page (one row per metric). Lines ncu or the program
// print before the header are skipped.
#include "util/result.h"

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace kw::profile {

struct NcuKernel {
    std::string name;
    double durationNs = 0;
    double dramPct = -1, smPct = -1; // of peak sustained; -1 when absent
    double achievedOccupancyPct = -1, theoreticalOccupancyPct = -1;
    double gridSize = 0, blockSize = 0, registersPerThread = 0, wavesPerSm = -1;
    // Memory access quality; -1 when absent (older captures, the details page):
    double localBytes = -1;              // local-memory loads and stores (register spills, mostly)
    double sharedBankConflicts = -1;     // extra shared-memory wavefronts from bank conflicts
    double sharedWavefronts = -1;        // all shared-memory wavefronts
    double globalSectorsPerRequest = -1; // global loads: 32-byte sectors per request (4 when 32 threads read 4 bytes each)
    double l2Pct = -1;                   // L2 throughput, % of peak sustained
    double l1HitPct = -1, l2HitPct = -1; // sector hit rates
    // Blocks per SM each resource allows (launch__occupancy_limit_*); the
    // smallest is what limits occupancy. -1 when absent.
    double limitRegisters = -1, limitSharedMem = -1, limitBlocks = -1, limitWarps = -1;
    std::vector<std::pair<std::string, double>> stalls; // reason -> warps stalled per issue, largest first

    // "registers", "shared memory", "blocks per SM" or "block size" (warps):
    // the resource allowing the fewest blocks per SM; "" when not measured.
    std::string occupancyLimiter() const;
};

Result<std::vector<NcuKernel>> parseNcuCsv(const std::string& text);
nlohmann::json toJson(const NcuKernel& kernel);
// The stored form back (toJson's keys; a missing one keeps its default).
NcuKernel ncuKernelFromJson(const nlohmann::json& j);
// The launch that took longest, which speaks for the candidate; null when none.
const NcuKernel* dominantKernel(const std::vector<NcuKernel>& kernels);

} // namespace kw::profile
