#pragma once
// The starter documents of a new platform (a chip being brought up): one per
// folder of hardware/<platform>/{arch,debug,optimization}, with valid front
// matter and the questions each section should answer, for the hardware team
// to fill in.
#include "kb/kb_document.h"
#include "util/result.h"

#include <filesystem>
#include <string>
#include <vector>

namespace kw::kb {

// The chip's roofline figures the hardware team has before any document is
// written: typed into the wizard or read from a probe. The architecture
// starter gives them as its peak numbers (with the ridge point), so the
// prompts of the first searches on the chip already see them.
struct PlatformFigures {
    double memoryGBs = 0;    // DRAM or HBM bandwidth
    double fp32Tflops = 0;   // vector or CUDA-core FP32 FMA peak
    double matrixTflops = 0; // BF16 on the matrix units (0: none, or not known)
    double cacheMiB = 0;     // the last-level cache
    int computeUnits = 0;    // cores, SMs or CUs
    std::string source;      // where they came from ("entered by hand", "GPU probe: NVIDIA H100 ...")
    bool empty() const { return memoryGBs <= 0 && fp32Tflops <= 0 && matrixTflops <= 0 && cacheMiB <= 0 && computeUnits <= 0; }
};

// The figures of a probe's JSON: a GPU probe's output (its first GPU, as
// resources/probe/gpu_probe.cu prints it) or a host's machine model (what
// `kernelwright-cli machine --json` prints: the GPU when it has one, else
// the CPU). An error says which it is not.
Result<PlatformFigures> figuresFromProbe(const std::string& jsonText);

struct StarterDocument {
    std::filesystem::path relativePath; // under the KB root: hardware/<platform>/<folder>/<id>.md
    KbDocument doc;
};

// chipName is the name people use ("Instinct MI400"); "" uses the platform's.
std::vector<StarterDocument> platformStarterDocs(const std::string& platform, const std::string& chipName,
                                                 const PlatformFigures& figures = {});

} // namespace kw::kb
