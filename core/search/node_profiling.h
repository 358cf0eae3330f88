#pragma once
// A search's view of profiling: each correct evaluation profiled (at the
// roofline level, or ncu for the GPU nodes that ran it) and stored with it, the diagnosis kept per node for prompts
// and retrieval (or read back from the store for nodes of earlier runs), and
// whether a node came near enough to its roofline bound to stop the search.
#include "eval/evaluation_result.h"
#include "profile/profiler.h"
#include "search/tree_names.h"
#include "store/database.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kw::search {

class NodeProfiling {
  public:
    NodeProfiling(const store::Database& db, std::shared_ptr<const profile::Profiler> profiler, double stopNearRoofline)
        : db_(db), profiler_(std::move(profiler)), stopNearRoofline_(stopNearRoofline) {}

    // Profiles a correct, timed evaluation of `node` (of kernel `source`) and stores the report.
    void profile(const Node& node, const eval::EvaluationResult& result, const std::string& source,
                 eval::ProfileLevel level = eval::ProfileLevel::Roofline);
    std::vector<profile::Signal> signalsOf(const Node& node);
    bool enabled() const { return profiler_ != nullptr; }
    bool nearRooflineReached() const { return nearRoofline_; }

  private:
    const store::Database& db_;
    std::shared_ptr<const profile::Profiler> profiler_;
    double stopNearRoofline_;
    std::map<NodeId, std::vector<profile::Signal>> signals_;
    bool nearRoofline_ = false;
};

} // namespace kw::search
