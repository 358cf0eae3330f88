#pragma once
// Whose code a GPU candidate's call ran: its own kernels against library
// kernels (cuBLAS, cuDNN, ATen, torch.compile's), by share of device time,
// from the call's breakdown (kernel_breakdown.h). A kernel is the candidate's
// own when its function's name is defined in the candidate's source (a
// Triton @jit function, a __global__ function of load_inline's or a .cu
// file's); library kernels are named by their libraries. What the user reads
// beside a node's speedup: delegation earns about 1x, and this says so.
#include "profile/kernel_breakdown.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace kw::profile {

struct Provenance {
    double ownUs = 0;                   // kernels the candidate's source defines
    double libraryUs = 0;               // every other kernel
    double transferUs = 0;              // copies and memsets
    std::vector<std::string> own;       // the own kernels' names, longest first
    std::vector<std::string> libraries; // the other kernels' names, longest first (at most 8)

    double ownShare() const;     // of the kernels' device time (0 without kernels)
    std::string summary() const; // "own kernels 92.1 % of the device time (softmax_kernel); library 7.9 %"
};

// The base name of a kernel as a profiler names it: "void ns::k<256>(float
// const*, ...)" -> "k"; "softmax_kernel" -> "softmax_kernel".
std::string kernelBaseName(const std::string& name);
Provenance provenanceOf(const KernelBreakdown& breakdown, const std::string& candidateSource);

nlohmann::json toJson(const Provenance& p);
std::optional<Provenance> provenanceFromJson(const nlohmann::json& j);

} // namespace kw::profile
