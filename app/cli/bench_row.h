#pragma once
// A bench row: what one problem's search won, measured again alone, and
// where it stands against the roofs; and the run's geometric means.
#include "machine/machine_model.h"

#include <string>
#include <vector>

namespace kw::cli {

struct Row {
    std::string problem;
    double referenceS = 0, libraryS = 0, bestS = 0, speedup = 0, roofline = 0, wallS = 0;
    double speedupOverBest = 0; // over the fastest baseline of each shape (a library, torch.compile, or the reference)
    std::string library;
    int evaluations = 0;
    char bound = 'c'; // m: memory, c: compute, l: latency (declared by the problem)
    std::string declaredBound;
    std::string params;
    struct Shape {
        double bytes = 0, flops = 0, seconds = 0, gathers = 0;
    };
    std::vector<Shape> shapes; // of the best kernel, for the roofline at the end
    bool gpu = false;          // a torch or cuda problem: timed on the GPU (torch: against eager and torch.compile)
    double floorS = 0;         // GPU: gpuFloorSeconds of its shapes (bytes at the copy bandwidth, lookups at the gather rate)
    // GPU: the best kernel's profile (its re-timing ran Nsight Compute, else
    // what the search stored for its node) and what profiling cost the search.
    struct GpuProfile {
        std::string diagnosis; // signal names, comma-separated
        std::string kernel;    // the longest kernel ncu measured ("" when none)
        double kernelUs = 0;   // its duration
        double dramPct = -1, smPct = -1, l2Pct = -1, occupancyPct = -1;
        std::string source;    // "re-timing" or "search"
        double breakdownS = 0; // mean per correct evaluation of the search
        double ncuS = 0;       // mean per evaluation that ran ncu
        int ncuRuns = 0;
    } profile;

    double bytes() const {
        double sum = 0;
        for (const auto& t : shapes) sum += t.bytes;
        return sum;
    }
    double flops() const {
        double sum = 0;
        for (const auto& t : shapes) sum += t.flops;
        return sum;
    }
    // The problem's declared bound, else the roofline's verdict on its timing shapes.
    char boundOn(const machine::MachineModel& roof, int cores) const {
        if (declaredBound == "latency") return 'l';
        if (declaredBound == "memory") return 'm';
        if (declaredBound == "compute") return 'c';
        return roof.memoryBound(bytes(), flops(), cores) ? 'm' : 'c';
    }
};

struct Geomeans {
    double overReference = 0, overBest = 0;
    int counted = 0;
};

} // namespace kw::cli
