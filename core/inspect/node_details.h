#pragma once
// Everything the workbench shows of one node beyond its tree snapshot, read
// in one go as a value (the reading thread builds it; the UI only displays).
#include "eval/evaluation_result.h"
#include "profile/kernel_breakdown.h"
#include "profile/provenance.h"
#include "store/llm_call_store.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kw::inspect {

// The deepest stored profile of a node's evaluation, as the inspector shows it.
struct ProfileSummary {
    std::string level;
    bool hasRoofline = false;
    double gbs = 0, gflops = 0, rooflineFraction = 0, intensity = 0;
    double roofBandwidthGBs = 0, roofGflops = 0;               // the roofs it was measured against (0: unknown)
    std::string device;                                        // "cpu" or the GPU's name
    std::vector<std::pair<std::string, std::string>> findings; // signal, evidence
    // The longest kernel's Nsight Compute metrics (name -1: not measured), when the ncu level ran.
    std::string ncuKernel;
    std::vector<std::pair<std::string, double>> ncuMetrics;
    // GPU candidates: what one call put on the device.
    std::optional<profile::KernelBreakdown> breakdown;
    std::optional<profile::Provenance> provenance; // whose kernels that call ran (own or library)
};

struct NodeDetails {
    std::int64_t searchId = 0, nodeId = 0, parentId = 0;
    std::string source;       // the node's kernel source (its params' declarations, not their values)
    std::string asRun;        // the source as it ran: its params baked in (report::standaloneKernel)
    std::string parentSource; // the parent's ("" for a root)
    std::optional<eval::EvaluationResult> evaluation;
    std::string evaluationError; // why a stored evaluation could not be read
    std::optional<store::LlmCallRecord> llmCall;
    std::vector<store::RetrievedDoc> retrievedDocs; // the call's knowledge-base sections
    std::optional<ProfileSummary> profile;
    // For the roofline chart: the parent's profile and the search's best node's.
    std::optional<ProfileSummary> parentProfile, bestProfile;
    // Nsight Compute's baseline: the nearest ancestor whose profile holds ncu
    // metrics (searches run ncu every few nodes, so the parent often has none),
    // and its number in the search (#N); 0 when no ancestor has them.
    std::optional<ProfileSummary> ncuBaseline;
    std::int64_t ncuBaselineSeq = 0;
    bool ncuBaselineIsParent = false;
};

} // namespace kw::inspect
