#pragma once
// A policy decides which node to expand next and how (mutate, crossover,
// restart, enumerate). It sees the tree read-only and keeps its own
// statistics, fed by observe() as results arrive.
#include "search/search_tree.h"
#include "synth/synthesizer.h"

#include <memory>
#include <optional>
#include <random>
#include <set>

namespace kw::search {

struct PlannedExpansion {
    synth::Operator op = synth::Operator::Mutate;
    NodeId parent = 0;
    NodeId partner = 0; // crossover
};

class SearchPolicy {
  public:
    virtual ~SearchPolicy() = default;
    virtual std::string name() const = 0;
    // nullopt: nothing worth expanding now (e.g. every correct node is exhausted).
    virtual std::optional<PlannedExpansion> next(const SearchTree& tree, std::mt19937_64& rng) = 0;
    virtual void observe(const SearchTree& tree, const Node& finished) {
        (void)tree;
        (void)finished;
    }
    // The synthesizer found nothing new around `parent` with `op`.
    void exhausted(NodeId parent, synth::Operator op) { exhausted_.insert({parent, static_cast<int>(op)}); }

  protected:
    bool isExhausted(NodeId id, synth::Operator op = synth::Operator::Mutate) const {
        return exhausted_.count({id, static_cast<int>(op)}) > 0;
    }
    // Correct, not pruned, not exhausted for mutation.
    std::vector<const Node*> expandable(const SearchTree& tree) const;
    // A pinned expandable node, if any (pins come first for every policy).
    const Node* pinned(const SearchTree& tree) const;

  private:
    std::set<std::pair<NodeId, int>> exhausted_;
};

std::unique_ptr<SearchPolicy> makePolicy(const SearchConfig& config);

} // namespace kw::search
