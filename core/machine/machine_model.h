#pragma once
// What the roofline needs to know about a host: memory bandwidth per level of
// the memory hierarchy and peak FP32 rates, one core and all cores; for GPU
// hosts, each GPU's copy bandwidth, FMA and matrix throughput. Probed once per
// host (machine_probe.h), cached (machine_cache.h), re-probed on demand.
#include "util/result.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace kw::machine {

struct BandwidthLevel {
    std::string level;          // "L1", "L2", "L3", "DRAM"
    std::size_t workingSet = 0; // bytes per thread touched by the probe
    double gbs1 = 0, gbsAll = 0;
};

struct GpuModel {
    int index = 0;
    std::string name, computeCapability;
    int smCount = 0;
    std::size_t l2Bytes = 0, memoryBytes = 0;
    double copyGBs = 0;          // device-to-device, read + write bytes
    double fp32FmaTflops = 0;    // CUDA cores
    double bf16MatrixTflops = 0; // tensor cores, through cuBLAS
    double fp32MatrixTflops = 0;
    // Random 8-byte reads per second (billions) from a table resident in L2
    // (a quarter of it), each query's index streamed in and its value out:
    // the least a lookup per query costs. 0 when not probed.
    double l2GatherGps = 0;
};

// The fastest an operator can run on `gpu`: its bytes at the copy bandwidth,
// or its dependent random lookups at the L2 gather rate, whichever takes
// longer (0 for either without its figure).
double gpuFloorSeconds(const GpuModel& gpu, double bytes, double gathers);

struct MachineModel {
    static constexpr int kSchema = 1;
    std::string host, cpu, isa; // isa: "avx512", "avx2", "scalar"
    int cores = 1;
    std::size_t l1dBytes = 0, l2Bytes = 0, l3Bytes = 0;
    std::vector<BandwidthLevel> bandwidth; // fastest level first, DRAM last
    // The DRAM rate of each one-core probe; the model keeps their median.
    std::vector<double> dramProbes1;
    double scalarGflops1 = 0, scalarGflopsAll = 0, vectorGflops1 = 0, vectorGflopsAll = 0;
    std::vector<GpuModel> gpus;
    std::string probedAt; // ISO 8601 UTC

    // The DRAM level: the roof of kernels timed with cold caches; 0 when unknown.
    double dramGBs(int usedCores) const;
    double peakGflops(int usedCores) const; // vector FMA peak
    // The fastest the work can run with `usedCores` cores: max(bytes/BW, flops/peak).
    double floorSeconds(double bytes, double flops, int usedCores) const;
    bool memoryBound(double bytes, double flops, int usedCores) const;
    // flops per byte where the memory and compute roofs meet.
    double ridgeIntensity(int usedCores) const;
    // Coefficient of variation of the DRAM probes (0 with fewer than two).
    double dramProbeCv() const;
    // Whether the CPU side was measured: a model made by `machine import-gpu`
    // for a host never probed holds GPUs only, and its CPU roofs are zeros.
    bool cpuProbed() const { return !probedAt.empty() && !bandwidth.empty(); }
};

nlohmann::json toJson(const MachineModel& model);
Result<MachineModel> machineFromJson(const nlohmann::json& j);

// The "gpus" array printed by resources/probe/gpu_probe.cu.
Result<std::vector<GpuModel>> parseGpuProbe(const std::string& text);

} // namespace kw::machine
