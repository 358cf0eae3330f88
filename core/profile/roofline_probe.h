#pragma once
// A quick machine model for roofline percentages: streaming memory bandwidth
// and peak FP32 FMA throughput, on one core and on all cores. Measured in this
// process (trusted code), best of a few repetitions. The profiling work
// refines this (per cache level, cached per host).
#include <string>

namespace ks::profile {

struct Roofline {
    double bandwidthGBs1 = 0;   // one core
    double bandwidthGBsAll = 0; // all cores
    double gflops1 = 0;         // one core, the widest FMA the CPU has
    double gflopsAll = 0;
    int cores = 1;
    std::string isa;            // "avx512", "avx2", "scalar"

    // The fastest the operator can run with `cores` cores: max(bytes/BW, flops/peak).
    double floorSeconds(double bytes, double flops, int usedCores) const;
    bool memoryBound(double bytes, double flops, int usedCores) const;
};

Roofline probeRoofline();
// Streaming bandwidth alone (GB/s) with `threads` threads.
double probeStreamBandwidth(int threads);

} // namespace ks::profile
