#pragma once
// Per-candidate roofline metrics from the problem's byte and flop formulas
// and the measured median times: achieved GB/s and GFLOP/s, arithmetic
// intensity, and the fraction of the roofline bound reached. The harness
// flushes caches before every timed call, so the memory roof is the DRAM one.
#include "eval/evaluation_result.h"
#include "machine/machine_model.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace kw::profile {

struct Roofs {
    double bandwidthGBs = 0; // the memory roof
    double peakGflops = 0;   // the compute roof
    int cores = 1;           // how many cores (CPU) the roofs are for; 0 for a GPU
    std::string device;      // "cpu" or the GPU's name
    double gatherGps = 0;    // GPU: random L2 reads per second (billions); lookups at this rate bound a floor too
};

// The roofs of `cores` cores of this CPU.
Roofs cpuRoofs(const machine::MachineModel& machine, int cores);
// The roofs of one GPU: copy bandwidth and FP32 FMA peak.
Roofs gpuRoofs(const machine::GpuModel& gpu);

struct ShapeMetrics {
    std::string shape;
    double seconds = 0, bytes = 0, flops = 0, gathers = 0;
    double gbs = 0, gflops = 0, intensity = 0; // intensity: flops per byte (0 when no bytes)
    double floorSeconds = 0;
    double rooflineFraction = 0;  // floorSeconds / seconds
    double bandwidthFraction = 0; // gbs / memory roof
    double computeFraction = 0;   // gflops / compute roof
    bool memorySide = true;       // the intensity lies left of the ridge
    bool lookupSide = false;      // the lookups at the gather rate take longer than either roof
};

struct RooflineMetrics {
    Roofs roofs;
    double ridge = 0; // flops per byte where the roofs meet
    std::vector<ShapeMetrics> shapes;
    ShapeMetrics total; // all timing shapes together (sums of times, bytes, flops)
};

// Empty shapes when the result has no timing.
RooflineMetrics rooflineMetrics(const eval::EvaluationResult& result, const Roofs& roofs);

// How many cores a candidate uses: its THREADS param when it has one; all the
// allotted cores when its source starts threads (OpenMP, std::thread); else one.
int coresUsed(const std::string& source, const std::string& paramsJson, int allottedCores);

nlohmann::json toJson(const RooflineMetrics& metrics);

} // namespace kw::profile
