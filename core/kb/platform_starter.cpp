#include "kb/platform_starter.h"

#include "machine/machine_model.h"
#include "util/format.h"

#include <nlohmann/json.hpp>

namespace kw::kb {
namespace {

struct Starter {
    const char* folder;
    const char* idSuffix;
    const char* title;
    std::vector<std::string> triggers;
    const char* sections;
};

// Each section asks what the synthesizer needs from the docs: numbers, the reasoning, and when a technique does not help.
const std::vector<Starter> kStarters{
    {"arch",
     "arch-overview",
     "%s: how the machine is built",
     {},
     "## Compute units\nHow many cores or SMs, what each issues per cycle, vector or matrix widths, clock.\n\n"
     "## Memory hierarchy\nRegisters, caches and shared memory per unit: sizes, line sizes, latencies in cycles, bandwidth per "
     "level.\n\n"
     "## Peak numbers\nPeak FLOP/s per data type and memory bandwidth; the roofline's ridge point.\n"},
    {"debug",
     "debug-failures",
     "%s: how kernels fail and how to tell why",
     {"compile_error", "runtime_error", "wrong_answer", "timeout"},
     "## Build errors\nThe toolchain's flags and the errors a first port meets; what each means.\n\n"
     "## Runtime failures\nFaults, hangs and their signatures; the tools that show where.\n\n"
     "## Wrong answers\nNumerics that differ from the reference (fused multiply-add, fast math, accumulation order) and "
     "races.\n"},
    {"optimization",
     "optimization-playbook",
     "%s: what makes kernels fast",
     {"memory_bound", "compute_bound", "latency_bound", "low_occupancy"},
     "## Memory-bound kernels\nAccess widths, coalescing or prefetch rules, and the bandwidth a streaming kernel reaches.\n\n"
     "## Compute-bound kernels\nThe instructions or units that reach peak, and the tile shapes that feed them.\n\n"
     "## Tuning parameters\nWhich block sizes, unrolls and occupancy targets to search first, and why.\n"},
};

std::string titled(const char* pattern, const std::string& chip) {
    std::string s = pattern;
    return s.replace(s.find("%s"), 2, chip);
}

// The arch starter's peak numbers, answered: the figures in a table, the
// ridge point, and where they came from.
std::string peakNumbers(const PlatformFigures& f) {
    std::string s = "## Peak numbers\nFrom " + (f.source.empty() ? std::string("the platform's bring-up") : f.source) +
                    "; replace them with measured ones when they differ.\n\n| figure | value |\n|---|---|\n";
    if (f.memoryGBs > 0) s += "| memory bandwidth | " + formatNumber("%.4g", f.memoryGBs) + " GB/s |\n";
    if (f.fp32Tflops > 0) s += "| FP32 FMA peak | " + formatNumber("%.4g", f.fp32Tflops) + " TFLOP/s |\n";
    if (f.matrixTflops > 0) s += "| BF16 matrix peak | " + formatNumber("%.4g", f.matrixTflops) + " TFLOP/s |\n";
    if (f.cacheMiB > 0) s += "| last-level cache | " + formatNumber("%.4g", f.cacheMiB) + " MiB |\n";
    if (f.computeUnits > 0) s += "| compute units | " + std::to_string(f.computeUnits) + " |\n";
    if (f.memoryGBs > 0 && f.fp32Tflops > 0)
        s += "\nThe FP32 roofline's ridge: " + formatNumber("%.3g", f.fp32Tflops * 1000 / f.memoryGBs) +
             " FLOP per byte; a kernel with less arithmetic per byte moved is bound by memory.\n";
    return s;
}

} // namespace

Result<PlatformFigures> figuresFromProbe(const std::string& text) {
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return makeError(ErrorCode::ParseError, "not JSON: choose a GPU probe's output or a machine model "
                                                "(kernelwright-cli machine --json)");
    PlatformFigures f;
    // A whole machine model (it has the CPU's bandwidth levels), else a GPU probe's list.
    std::vector<machine::GpuModel> gpus;
    machine::MachineModel host;
    bool isHost = false;
    if (j.contains("bandwidth")) {
        auto m = machine::machineFromJson(j);
        if (!m) return m.error();
        host = *m;
        gpus = host.gpus;
        isHost = true;
    } else {
        auto probed = machine::parseGpuProbe(text);
        if (!probed) return probed.error();
        gpus = *probed;
    }
    if (!gpus.empty()) {
        const auto& g = gpus.front();
        f.memoryGBs = g.copyGBs;
        f.fp32Tflops = g.fp32FmaTflops;
        f.matrixTflops = g.bf16MatrixTflops;
        f.cacheMiB = static_cast<double>(g.l2Bytes) / (1024.0 * 1024.0);
        f.computeUnits = g.smCount;
        f.source = "a GPU probe of " + g.name + (host.host.empty() ? "" : " on " + host.host);
    } else if (isHost && host.cpuProbed()) {
        f.memoryGBs = host.dramGBs(host.cores);
        f.fp32Tflops = host.peakGflops(host.cores) / 1000;
        f.cacheMiB = static_cast<double>(host.l3Bytes) / (1024.0 * 1024.0);
        f.computeUnits = host.cores;
        f.source = "a probe of " + host.cpu + " on " + host.host + (host.probedAt.empty() ? "" : " at " + host.probedAt);
    } else {
        return makeError(ErrorCode::Validation, "the probe holds no GPU and no measured CPU: nothing to take");
    }
    return f;
}

std::vector<StarterDocument> platformStarterDocs(const std::string& platform, const std::string& chipName,
                                                 const PlatformFigures& figures) {
    const std::string chip = chipName.empty() ? platform : chipName;
    std::vector<StarterDocument> out;
    for (const auto& s : kStarters) {
        KbDocument d;
        d.id = platform + "-" + s.idSuffix;
        d.title = titled(s.title, chip);
        d.category = "hardware";
        d.platforms = {platform};
        d.triggers = s.triggers;
        d.tags = {platform, "starter"};
        std::string sections = s.sections;
        // The arch starter's peak numbers answered where the figures are known.
        if (const auto at = sections.find("## Peak numbers"); at != std::string::npos && !figures.empty())
            sections = sections.substr(0, at) + peakNumbers(figures);
        d.body = "# " + d.title + "\n\nStarter document: replace each section's question with the answer for " + chip +
                 ", in numbers where there are numbers (docs/kb-format.md, Writing style).\n\n" + sections;
        out.push_back({std::filesystem::path("hardware") / platform / s.folder / (d.id + ".md"), std::move(d)});
    }
    return out;
}

} // namespace kw::kb
