#pragma once
// The engine's side of steering: a command posted with postSteering (by the
// CLI, the workbench or another process) applied to the running search
// through what the search offers a person (SteeringTarget).
#include "search/tree_names.h"
#include "store/search_store.h"
#include "synth/synthesizer.h"
#include "util/result.h"

#include <string>

namespace kw::search {

class SteeringTarget {
  public:
    virtual ~SteeringTarget() = default;
    virtual void pause() = 0;
    virtual void resume() = 0;
    virtual void stop() = 0;
    virtual void setBudget(int maxEvaluations) = 0;
    virtual Node* findNode(NodeId id) = 0;
    // Stores a node's changed flags; a pruned node's pending work is dropped.
    virtual Status flagsChanged(Node& node) = 0;
    virtual bool inTree(const synth::Proposal& p) const = 0;
    // A person's child goes next, ahead of the policy's proposals.
    virtual Result<NodeId> addManualChild(const synth::Proposal& p, const std::string& hint) = 0;
    // Whether anything of this search reads a node's hint (a language model's
    // prompt does; the tuner does not).
    virtual bool readsHints() const = 0;
};

// What happened, as stored with the command: "applied...", "rejected: why"
// or "failed: why".
std::string applySteering(const store::CommandRecord& command, std::int64_t searchId, SteeringTarget& target);

} // namespace kw::search
