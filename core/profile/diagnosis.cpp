#include "profile/diagnosis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kw::profile {
namespace {

// Rules shared by every source.
constexpr double kBoundFraction = 0.5;     // a roof reached this far limits the kernel
constexpr double kSideBoundFraction = 0.4; // ... or this far on the roof's own side of the ridge
constexpr double kLatencyFraction = 0.4;   // both roofs below this: something else limits it
constexpr double kCpuOverheadSeconds = 10e-6;
constexpr double kGpuOverheadNs = 5000;
constexpr double kLowOccupancyPct = 30;
// Sectors per global load request past which accesses scatter: a warp's
// widest contiguous load (32 threads x 16 B) takes 16 sectors, so a 128-bit
// vectorized kernel at 16 is coalesced (the H100's Triton softmax and RMSNorm).
constexpr double kCoalescedSectors = 16;
constexpr double kVectorInstructionsPerUnit = 0.5; // instructions per fp32 element moved or FMA
constexpr double kDeviceBusyFraction = 0.5;        // of a GPU call's time the device works, below which launches dominate
constexpr int kManyLaunches = 5;
constexpr double kSmallLaunchUs = 10;
constexpr double kDominantShare = 0.8; // of the device time: one kernel this large is the call

std::string fmt(const char* f, double a, double b = 0, double c = 0, double d = 0, double e = 0) {
    char buf[256];
    std::snprintf(buf, sizeof buf, f, a, b, c, d, e);
    return buf;
}

void add(std::vector<Signal>& out, Signal s) {
    if (std::none_of(out.begin(), out.end(), [&](const Signal& x) { return x.name == s.name; })) out.push_back(std::move(s));
}

bool has(const std::vector<Signal>& out, const char* name) {
    return std::any_of(out.begin(), out.end(), [&](const Signal& x) { return x.name == name; });
}

void fromNcu(const std::vector<NcuKernel>& kernels, double near, std::vector<Signal>& out) {
    const NcuKernel* longest = dominantKernel(kernels);
    if (!longest) return;
    const auto& k = *longest;
    const std::string who = " (ncu, " + k.name.substr(0, k.name.find('(')) + ")";
    if (k.dramPct >= 0 && k.smPct >= 0 && std::max(k.dramPct, k.smPct) >= near * 100)
        add(out, {"near_roofline", fmt("%.0f%% of peak DRAM and %.0f%% of peak SM throughput", k.dramPct, k.smPct) + who, "ncu"});
    if (k.dramPct >= 60) add(out, {"memory_bound", fmt("DRAM throughput at %.0f%% of peak", k.dramPct) + who, "ncu"});
    if (k.smPct >= 60) add(out, {"compute_bound", fmt("SM throughput at %.0f%% of peak", k.smPct) + who, "ncu"});
    if (k.achievedOccupancyPct >= 0 && k.achievedOccupancyPct < kLowOccupancyPct)
        add(out, {"low_occupancy",
                  fmt("achieved occupancy %.1f%% (theoretical %.0f%%), %.0f blocks of %.0f threads", k.achievedOccupancyPct,
                      k.theoreticalOccupancyPct, k.gridSize, k.blockSize) +
                      (k.occupancyLimiter().empty() ? "" : ", limited by " + k.occupancyLimiter()) +
                      fmt(" at %.0f registers per thread", k.registersPerThread) + who,
                  "ncu"});
    // What the access pattern costs, where the capture measured it.
    if (k.localBytes > 0)
        add(out,
            {"register_spills",
             fmt("%.0f bytes of local-memory traffic at %.0f registers per thread", k.localBytes, k.registersPerThread) + who,
             "ncu"});
    if (k.sharedBankConflicts > 0 && k.sharedWavefronts > 0 && k.sharedBankConflicts >= 0.1 * k.sharedWavefronts)
        add(out, {"bank_conflicts",
                  fmt("%.0f%% of shared-memory wavefronts are bank conflicts (%.0f of %.0f)",
                      100 * k.sharedBankConflicts / k.sharedWavefronts, k.sharedBankConflicts, k.sharedWavefronts) +
                      who,
                  "ncu"});
    if (k.globalSectorsPerRequest > kCoalescedSectors)
        add(out, {"uncoalesced",
                  fmt("global loads take %.1f sectors per request (at most 16 when a warp reads contiguous memory)",
                      k.globalSectorsPerRequest) +
                      who,
                  "ncu"});
    // Too few blocks for the SMs: the grid's last (or only) wave leaves most of them idle.
    if (k.wavesPerSm > 0 && k.durationNs >= kGpuOverheadNs) {
        const double last = k.wavesPerSm - std::floor(k.wavesPerSm);
        if (k.wavesPerSm < 1)
            add(out, {"tail_effect",
                      fmt("%.2f waves: the grid fills %.0f%% of the SMs once", k.wavesPerSm, 100 * k.wavesPerSm) + who, "ncu"});
        else if (k.wavesPerSm < 4 && last > 0 && last < 0.5)
            add(out, {"tail_effect",
                      fmt("%.2f waves: the last wave keeps %.0f%% of the SMs busy", k.wavesPerSm, 100 * last) + who, "ncu"});
    }
    if (k.durationNs > 0 && k.durationNs < kGpuOverheadNs)
        add(out, {"launch_overhead", fmt("the kernel runs %.1f us, the order of a launch's own cost", k.durationNs / 1e3) + who,
                  "ncu"});
    else if (k.dramPct >= 0 && k.smPct >= 0 && k.dramPct < kLatencyFraction * 100 && k.smPct < kLatencyFraction * 100) {
        std::string top = k.stalls.empty() ? ""
                                           : "; warps mostly stall on " + k.stalls.front().first +
                                                 fmt(" (%.1f per issue)", k.stalls.front().second);
        add(out, {"latency_bound", fmt("DRAM %.0f%% and SM %.0f%% of peak", k.dramPct, k.smPct) + top + who, "ncu"});
    }
}

// Many launches, copies inside the call, or a device idle through most of the
// call: what one fused kernel would save.
void fromBreakdown(const KernelBreakdown& b, double callSeconds, std::vector<Signal>& out) {
    if (b.launches <= 0) return;
    const int copies = b.count("copy") + b.count("memset");
    const std::string extra = copies > 0 ? fmt(", %.0f of them copies or memsets", copies) : "";
    const double callUs = callSeconds * 1e6;
    if (b.launches >= 2 && callUs > 0 && b.deviceUs < kDeviceBusyFraction * callUs)
        add(out, {"launch_overhead",
                  fmt("the device is busy %.1f us of a %.1f us call (%.0f launches", b.deviceUs, callUs, b.launches) + extra +
                      "): launches and host work take the rest (profiler)",
                  "profiler"});
    else if (b.launches >= kManyLaunches && b.deviceUs / b.launches < kSmallLaunchUs)
        add(out, {"launch_overhead",
                  fmt("%.0f launches in one call, %.1f us each on average", b.launches, b.deviceUs / b.launches) + extra +
                      ": fuse them (profiler)",
                  "profiler"});
    else if (b.launches >= 3 && !b.entries.empty() && b.share(b.entries.front()) < kDominantShare)
        add(out, {"launch_overhead",
                  fmt("%.0f launches in one call; the longest (", b.launches) + b.entries.front().name.substr(0, 60) +
                      fmt(") takes %.0f%% of the device time", 100 * b.share(b.entries.front())) + extra +
                      ": fusing them saves the intermediate traffic (profiler)",
                  "profiler"});
}

// Sets are launched while the device runs earlier ones, so a set costs the
// longer of its launch and its device time: a runner slower to launch a set
// than the device is to run it keeps the GPU waiting, whatever the kernel.
void fromHostLaunch(const DiagnosisInput& in, std::vector<Signal>& out) {
    if (in.hostLaunchPerSet <= 0 || in.devicePerSet <= 0 || in.hostLaunchPerSet <= in.devicePerSet) return;
    add(out, {"launch_overhead",
              fmt("the candidate's runner takes %.1f us a call to launch it (Python and launch calls) against %.1f us of "
                  "device time: the host's launch path, not the GPU, bounds the call (fewer launches, less Python per call) "
                  "(judge)",
                  in.hostLaunchPerSet * 1e6, in.devicePerSet * 1e6),
              "judge"});
}

double workUnits(const DiagnosisInput& in) {
    return std::max(in.profiledBytes / 4, in.profiledFlops / 2);
}

void fromInstructions(double instructions, const char* source, const DiagnosisInput& in, std::vector<Signal>& out) {
    const double units = workUnits(in);
    if (instructions <= 0 || units <= 0) return;
    const double perUnit = instructions / units;
    if (perUnit > kVectorInstructionsPerUnit)
        add(out, {"low_vectorization",
                  fmt("%.2f instructions per fp32 element moved or FMA (vectorized code needs under %.1f)", perUnit,
                      kVectorInstructionsPerUnit) +
                      " (" + source + ")",
                  source});
}

void fromRoofline(const RooflineMetrics& r, double near, std::vector<Signal>& out) {
    const ShapeMetrics& t = r.total;
    if (t.seconds <= 0) return;
    const std::string who =
        r.roofs.cores > 0 ? fmt(", %.0f core", r.roofs.cores) + (r.roofs.cores == 1 ? "" : "s") : ", " + r.roofs.device;
    const std::string where = fmt("; intensity %.2f flop/B, ridge %.2f", t.intensity, r.ridge);
    if (t.rooflineFraction >= near)
        add(out, {"near_roofline",
                  fmt("reaches %.0f%% of the roofline bound (%.2g s of a %.2g s floor)", t.rooflineFraction * 100, t.seconds,
                      t.floorSeconds),
                  "roofline"});
    const bool memory = t.bandwidthFraction >= kBoundFraction || (t.memorySide && t.bandwidthFraction >= kSideBoundFraction);
    const bool compute = t.computeFraction >= kBoundFraction || (!t.memorySide && t.computeFraction >= kSideBoundFraction);
    if (memory)
        add(out, {"memory_bound",
                  fmt("%.0f%% of DRAM bandwidth (%.1f of %.1f GB/s", t.bandwidthFraction * 100, t.gbs, r.roofs.bandwidthGBs) +
                      who + ")" + where,
                  "roofline"});
    if (compute)
        add(out, {"compute_bound",
                  fmt("%.0f%% of peak FP32 (%.1f of %.1f GFLOP/s", t.computeFraction * 100, t.gflops, r.roofs.peakGflops) + who +
                      ")" + where,
                  "roofline"});
    if (!memory && !compute && std::max(t.bandwidthFraction, t.computeFraction) < kLatencyFraction)
        add(out, {"latency_bound",
                  fmt("%.0f%% of DRAM bandwidth and %.0f%% of peak FP32: neither roof limits it (dependent loads, branches, too "
                      "little "
                      "parallelism)",
                      t.bandwidthFraction * 100, t.computeFraction * 100),
                  "roofline"});
    for (const auto& s : r.shapes)
        if (s.seconds > 0 && s.seconds < kCpuOverheadSeconds && r.roofs.cores > 0) {
            add(out, {"launch_overhead",
                      "a call on shape " + s.shape +
                          fmt(" takes %.1f us: fixed per-call costs (thread start, allocation) weigh", s.seconds * 1e6),
                      "roofline"});
            break;
        }
}

} // namespace

std::vector<Signal> diagnose(const DiagnosisInput& in) {
    std::vector<Signal> out;
    if (in.ncu) fromNcu(*in.ncu, in.nearRoofline, out);
    fromHostLaunch(in, out);
    if (in.breakdown) fromBreakdown(*in.breakdown, in.breakdownCallSeconds, out);
    if (in.cachegrind) fromInstructions(in.cachegrind->count("Ir"), "cachegrind", in, out);
    if (in.counters && in.counters->available) {
        auto it = in.counters->perCall.find("instructions");
        if (it != in.counters->perCall.end()) fromInstructions(it->second, "counters", in, out);
    }
    // A GPU candidate profiled with ncu needs no second opinion from its timing.
    if (in.roofline && !(in.ncu && !in.ncu->empty())) fromRoofline(*in.roofline, in.nearRoofline, out);
    // Bound by a roof and latency-bound exclude each other; the measured roof wins.
    if ((has(out, "memory_bound") || has(out, "compute_bound")) && has(out, "latency_bound"))
        out.erase(std::remove_if(out.begin(), out.end(), [](const Signal& s) { return s.name == "latency_bound"; }), out.end());
    return out;
}

nlohmann::json toJson(const std::vector<Signal>& diagnosis) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& s : diagnosis) a.push_back({{"signal", s.name}, {"evidence", s.evidence}, {"source", s.source}});
    return a;
}

std::vector<Signal> signalsFromJson(const nlohmann::json& j) {
    std::vector<Signal> out;
    if (!j.is_array()) return out;
    for (const auto& s : j)
        if (s.is_object() && s.contains("signal") && s["signal"].is_string())
            out.push_back({s["signal"].get<std::string>(), s.value("evidence", ""), s.value("source", "")});
    return out;
}

} // namespace kw::profile
