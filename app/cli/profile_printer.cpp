#include "profile_printer.h"

#include "util/format.h"

namespace kw::cli {

void printProfile(std::FILE* out, const profile::ProfileReport& p) {
    std::fprintf(out, "\nprofile (%s)\n", eval::profileLevelName(p.level).c_str());
    if (p.roofline) {
        const auto& r = *p.roofline;
        std::fprintf(out, "  roofs: %.1f GB/s, %.0f GFLOP/s (%s%s); ridge %.2f flop/B\n", r.roofs.bandwidthGBs,
                     r.roofs.peakGflops, r.roofs.cores > 0 ? std::to_string(r.roofs.cores).c_str() : r.roofs.device.c_str(),
                     r.roofs.cores == 1  ? " core"
                     : r.roofs.cores > 1 ? " cores"
                                         : "",
                     r.ridge);
        std::fprintf(out, "  %-14s %10s %9s %10s %9s %9s\n", "shape", "time", "GB/s", "GFLOP/s", "flop/B", "roofline");
        for (const auto& s : r.shapes)
            std::fprintf(out, "  %-14s %10s %9.2f %10.2f %9.3f %8.0f%%\n", s.shape.c_str(), formatSeconds(s.seconds).c_str(),
                         s.gbs, s.gflops, s.intensity, s.rooflineFraction * 100);
    }
    if (p.counters) {
        const auto& c = *p.counters;
        std::fprintf(out, "  counters over %d calls, %d thread%s:", c.calls, c.threads, c.threads == 1 ? "" : "s");
        for (const auto& [k, v] : c.perCall) std::fprintf(out, " %s=%.4g", k.c_str(), v);
        std::fprintf(out, "\n");
        if (c.ipc() > 0) std::fprintf(out, "  IPC %.2f, cache miss rate %.1f%%\n", c.ipc(), c.cacheMissRate() * 100);
        if (c.coresBusy() > 0) std::fprintf(out, "  cores busy on average: %.2f\n", c.coresBusy());
    }
    if (p.cachegrind) {
        const auto& c = *p.cachegrind;
        std::fprintf(out, "  cachegrind, one call: Ir %.4g, Dr %.4g, Dw %.4g, D1 misses %.4g (%.1f%%), LL misses %.4g\n",
                     c.count("Ir"), c.count("Dr"), c.count("Dw"), c.count("D1mr") + c.count("D1mw"), c.d1MissRate() * 100,
                     c.llMisses());
        for (const auto& [fn, ir] : c.functions) std::fprintf(out, "    %-40s Ir %.4g\n", fn.c_str(), ir);
    }
    if (p.breakdown) {
        const auto& b = *p.breakdown;
        std::fprintf(out, "  one call at shape %s: %d launches, %.1f us on the device (%s)\n", b.shape.c_str(), b.launches,
                     b.deviceUs, b.source.c_str());
        for (const auto& e : b.entries)
            std::fprintf(out, "    %5.1f%%  %8.1f us  %3dx %-6s %s\n", 100 * b.share(e), e.us, e.calls, e.kind.c_str(),
                         e.name.substr(0, 90).c_str());
    }
    if (p.provenance) std::fprintf(out, "  provenance: %s\n", p.provenance->summary().c_str());
    for (const auto& k : p.ncu) {
        std::string extra;
        if (const auto limiter = k.occupancyLimiter(); !limiter.empty()) extra += " (limit: " + limiter + ")";
        if (!k.stalls.empty()) extra += ", top stall " + k.stalls.front().first;
        std::fprintf(out, "  ncu %s: %.1f us, DRAM %.0f%%, L2 %.0f%%, SM %.0f%%, occupancy %.0f%%%s\n",
                     k.name.substr(0, 80).c_str(), k.durationNs / 1e3, k.dramPct, k.l2Pct, k.smPct, k.achievedOccupancyPct,
                     extra.c_str());
    }
    for (const auto& n : p.notes) std::fprintf(out, "  note: %s\n", n.c_str());
    if (p.diagnosis.empty()) std::fprintf(out, "  diagnosis: no signal\n");
    for (const auto& s : p.diagnosis) std::fprintf(out, "  %-18s %s\n", s.name.c_str(), s.evidence.c_str());
}

namespace {
// One line per GPU of the model.
void printGpus(std::FILE* out, const machine::MachineModel& m) {
    for (const auto& g : m.gpus)
        std::fprintf(out,
                     "GPU %d: %s (cc %s), %d SMs, L2 %zu MiB; copy %.0f GB/s, FP32 FMA %.1f TFLOP/s, matrix bf16 %.0f / fp32 "
                     "%.1f TFLOP/s\n",
                     g.index, g.name.c_str(), g.computeCapability.c_str(), g.smCount, g.l2Bytes >> 20, g.copyGBs, g.fp32FmaTflops,
                     g.bf16MatrixTflops, g.fp32MatrixTflops);
}
} // namespace

void printMachine(std::FILE* out, const machine::MachineModel& m) {
    if (!m.cpuProbed()) {
        std::fprintf(out, "host %s: CPU not probed (kernelwright-cli machine probe on that host measures it)\n", m.host.c_str());
        printGpus(out, m);
        return;
    }
    std::fprintf(out, "host %s: %s, %d cores, %s (probed %s)\n", m.host.c_str(), m.cpu.c_str(), m.cores, m.isa.c_str(),
                 m.probedAt.c_str());
    std::fprintf(out, "caches: L1d %zu KiB, L2 %zu KiB, L3 %zu KiB\n", m.l1dBytes >> 10, m.l2Bytes >> 10, m.l3Bytes >> 10);
    std::fprintf(out, "\n%-6s %14s %12s %12s\n", "level", "working set", "1 core", "all cores");
    for (const auto& b : m.bandwidth)
        std::fprintf(out, "%-6s %11zu KiB %7.1f GB/s %7.1f GB/s\n", b.level.c_str(), b.workingSet >> 10, b.gbs1, b.gbsAll);
    if (!m.dramProbes1.empty()) {
        std::fprintf(out, "DRAM probes (1 core):");
        for (double v : m.dramProbes1) std::fprintf(out, " %.1f", v);
        std::fprintf(out, " GB/s; CV %.1f%%\n", m.dramProbeCv() * 100);
    }
    std::fprintf(out, "\npeak FP32: scalar %.1f / %.1f GFLOP/s, vector %.1f / %.1f GFLOP/s (1 core / all)\n", m.scalarGflops1,
                 m.scalarGflopsAll, m.vectorGflops1, m.vectorGflopsAll);
    std::fprintf(out, "ridge: %.2f flop/B (1 core), %.2f (all)\n", m.ridgeIntensity(1), m.ridgeIntensity(m.cores));
    printGpus(out, m);
}

} // namespace kw::cli
