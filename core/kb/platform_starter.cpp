#include "kb/platform_starter.h"

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

} // namespace

std::vector<StarterDocument> platformStarterDocs(const std::string& platform, const std::string& chipName) {
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
        d.body = "# " + d.title + "\n\nStarter document: replace each section's question with the answer for " + chip +
                 ", in numbers where there are numbers (docs/kb-format.md, Writing style).\n\n" + s.sections;
        out.push_back({std::filesystem::path("hardware") / platform / s.folder / (d.id + ".md"), std::move(d)});
    }
    return out;
}

} // namespace kw::kb
