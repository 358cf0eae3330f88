#pragma once
// The built-in tuner as a source of proposals: the policy picks a node and an
// operator, the tuner proposes a child (another assignment of the node's
// @kw-param space). Hybrid searches also polish each correct LLM node that
// declares params with a few tuner children. It returns proposals; the
// search loop alone inserts nodes.
#include "search/search_policy.h"
#include "synth/tuner.h"

#include <deque>
#include <functional>
#include <optional>
#include <random>
#include <utility>

namespace kw::search {

class TunerSource {
  public:
    struct Context {
        const SearchTree& tree;
        SearchPolicy& policy;
        std::mt19937_64& rng;
        MemoryMode memory;
        std::function<Result<std::string>(const std::string&)> sourceOf; // by source hash
        std::function<void(const std::string&)> note;
    };

    // The policy's next child that is not in the tree yet: nullopt when no
    // node can be expanded; an error when a parent's source cannot be read.
    Result<std::optional<synth::Proposal>> next(const Context& ctx);

    // Hybrid: `steps` tuner children for a correct LLM node.
    void polish(NodeId node, int steps) { polish_.push_back({node, steps}); }
    bool polishing() const { return !polish_.empty(); }
    std::optional<synth::Proposal> nextPolish(const Context& ctx);

  private:
    synth::Tuner tuner_;
    std::deque<std::pair<NodeId, int>> polish_; // (LLM node, tuner children left)
};

} // namespace kw::search
