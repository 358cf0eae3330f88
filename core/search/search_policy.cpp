#include "search/search_policy.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace kw::search {

std::vector<const Node*> SearchPolicy::expandable(const SearchTree& tree) const {
    std::vector<const Node*> out;
    for (const auto& n : tree.nodes())
        if (n.correct() && !isExhausted(n.id) && !tree.inPrunedSubtree(n.id)) out.push_back(&n);
    return out;
}

const Node* SearchPolicy::pinned(const SearchTree& tree) const {
    for (const Node* n : expandable(tree))
        if (n->pinned) return n;
    return nullptr;
}

namespace {

double score(const Node* n) {
    return n->fitness() + n->boost;
}

const Node* bestOf(const std::vector<const Node*>& nodes) {
    const Node* best = nullptr;
    for (const Node* n : nodes)
        if (!best || score(n) > score(best)) best = n;
    return best;
}

std::optional<PlannedExpansion> restartFrom(const SearchTree& tree, std::mt19937_64& rng, synth::Operator op) {
    const Node* root = nullptr;
    for (const Node* r : tree.children(0))
        if (!r->pruned && r->origin != NodeOrigin::Manual) {
            root = r;
            break;
        }
    if (op == synth::Operator::Restart) {
        std::vector<const Node*> roots;
        for (const Node* r : tree.children(0))
            if (!r->pruned && r->origin != NodeOrigin::Manual) roots.push_back(r);
        if (!roots.empty()) root = roots[std::uniform_int_distribution<std::size_t>(0, roots.size() - 1)(rng)];
    }
    if (!root) return std::nullopt;
    return PlannedExpansion{op, root->id, 0};
}

// Greedy / best-first: expand the fittest node until its neighbourhood is exhausted.
class GreedyPolicy final : public SearchPolicy {
  public:
    explicit GreedyPolicy(const SearchConfig& c) : config_(c) {}
    std::string name() const override { return policyName(Policy::Greedy); }
    std::optional<PlannedExpansion> next(const SearchTree& tree, std::mt19937_64& rng) override {
        if (const Node* p = pinned(tree)) return PlannedExpansion{synth::Operator::Mutate, p->id, 0};
        if (std::bernoulli_distribution(config_.restartRate)(rng)) return restartFrom(tree, rng, synth::Operator::Restart);
        if (const Node* b = bestOf(expandable(tree))) return PlannedExpansion{synth::Operator::Mutate, b->id, 0};
        return restartFrom(tree, rng, synth::Operator::Restart);
    }

  private:
    SearchConfig config_;
};

// Beam: the top-W nodes are expanded in turn.
class BeamPolicy final : public SearchPolicy {
  public:
    explicit BeamPolicy(const SearchConfig& c) : config_(c) {}
    std::string name() const override { return policyName(Policy::Beam); }
    std::optional<PlannedExpansion> next(const SearchTree& tree, std::mt19937_64& rng) override {
        if (const Node* p = pinned(tree)) return PlannedExpansion{synth::Operator::Mutate, p->id, 0};
        auto beam = expandable(tree);
        if (beam.empty()) return restartFrom(tree, rng, synth::Operator::Restart);
        std::stable_sort(beam.begin(), beam.end(), [](const Node* a, const Node* b) { return score(a) > score(b); });
        beam.resize(std::min<std::size_t>(beam.size(), static_cast<std::size_t>(std::max(1, config_.beamWidth))));
        return PlannedExpansion{synth::Operator::Mutate, beam[turn_++ % beam.size()]->id, 0};
    }

  private:
    SearchConfig config_;
    std::size_t turn_ = 0;
};

// MCTS: UCT over the tree with progressive widening. Visits count planned
// expansions (a virtual loss keeps parallel slots apart); values are the
// fitness of finished descendants, normalized by the best fitness so far, so
// failed nodes back-propagate 0.
class MctsPolicy final : public SearchPolicy {
  public:
    explicit MctsPolicy(const SearchConfig& c) : config_(c) {}
    std::string name() const override { return policyName(Policy::Mcts); }

    std::optional<PlannedExpansion> next(const SearchTree& tree, std::mt19937_64& rng) override {
        if (const Node* p = pinned(tree)) return plan(tree, p);
        // Rewards normalized to [0, 1] between the worst and the best correct
        // fitness seen: close speedups still separate, failures score 0.
        const double best = tree.best() ? tree.best()->fitness() : 1.0;
        double worst = best;
        for (const auto& n : tree.nodes())
            if (n.correct()) worst = std::min(worst, n.fitness());
        const double span = best - worst > 1e-12 ? best - worst : 1.0;
        NodeId at = 0;
        for (int depth = 0; depth < 10000; ++depth) {
            std::vector<const Node*> options;
            for (const Node* c : tree.children(at))
                if (c->correct() && !c->pruned && viable(tree, c->id)) options.push_back(c);
            const Node* self = at ? tree.find(at) : nullptr;
            const bool canExpandSelf = self && self->correct() && !isExhausted(at);
            // Progressive widening: a node earns another child as its visits grow.
            const double allowed = std::ceil(config_.mctsWidening * std::sqrt(static_cast<double>(visits(at)) + 1.0));
            if (canExpandSelf && (options.empty() || static_cast<double>(tree.children(at).size()) < allowed))
                return plan(tree, self);
            if (options.empty()) break;
            const double lnN = std::log(static_cast<double>(std::max<std::int64_t>(1, visits(at))) + 1.0);
            const Node* chosen = nullptr;
            double chosenValue = -1;
            for (const Node* c : options) {
                const double n = static_cast<double>(visits(c->id));
                const double finished = static_cast<double>(count(c->id));
                const double mean = finished > 0 ? value(c->id) / finished : best;
                const double q = finished > 0 ? std::clamp((mean - worst) / span, 0.0, 1.0) : 1.0;
                const double u = q + config_.mctsExploration * std::sqrt(lnN / (n + 1.0)) + c->boost;
                if (u > chosenValue) {
                    chosenValue = u;
                    chosen = c;
                }
            }
            at = chosen->id;
        }
        // Nothing viable below the roots: try the best expandable node, else restart.
        if (const Node* b = bestOf(expandable(tree))) return plan(tree, b);
        return restartFrom(tree, rng, synth::Operator::Restart);
    }

    void observe(const SearchTree& tree, const Node& finished) override {
        for (const Node* n = &finished; n; n = n->parent ? tree.find(n->parent) : nullptr) {
            value_[n->id] += finished.fitness();
            ++count_[n->id];
        }
        value_[0] += finished.fitness();
        ++count_[0];
    }

  private:
    std::optional<PlannedExpansion> plan(const SearchTree& tree, const Node* node) {
        // Virtual visit on the path: the child being created is counted now.
        for (const Node* n = node; n; n = n->parent ? tree.find(n->parent) : nullptr) ++visits_[n->id];
        ++visits_[0];
        return PlannedExpansion{synth::Operator::Mutate, node->id, 0};
    }
    // Anything left to do in this subtree?
    bool viable(const SearchTree& tree, NodeId id) const {
        if (!isExhausted(id)) return true;
        for (const Node* c : tree.children(id))
            if (c->correct() && !c->pruned && viable(tree, c->id)) return true;
        return false;
    }
    std::int64_t visits(NodeId id) const {
        auto it = visits_.find(id);
        return it == visits_.end() ? 0 : it->second;
    }
    std::int64_t count(NodeId id) const {
        auto it = count_.find(id);
        return it == count_.end() ? 0 : it->second;
    }
    double value(NodeId id) const {
        auto it = value_.find(id);
        return it == value_.end() ? 0 : it->second;
    }

    SearchConfig config_;
    std::map<NodeId, std::int64_t> visits_;
    std::map<NodeId, double> value_;       // summed fitness of finished nodes in the subtree
    std::map<NodeId, std::int64_t> count_; // finished nodes in the subtree
};

// Evolutionary: islands of the fittest nodes of each lineage; tournament
// selection; crossover between two winners of the same template or mutation
// of one; now and then a winner comes from another island (migration).
class EvolutionaryPolicy final : public SearchPolicy {
  public:
    explicit EvolutionaryPolicy(const SearchConfig& c) : config_(c) {}
    std::string name() const override { return policyName(Policy::Evolutionary); }

    std::optional<PlannedExpansion> next(const SearchTree& tree, std::mt19937_64& rng) override {
        if (const Node* p = pinned(tree)) return PlannedExpansion{synth::Operator::Mutate, p->id, 0};
        const int islands = std::max(1, config_.islands);
        const int island = static_cast<int>(turn_++ % static_cast<std::size_t>(islands));
        auto population = populationOf(tree, island, islands);
        if (population.empty() || std::bernoulli_distribution(0.1)(rng)) population = populationOf(tree, -1, islands);
        if (population.empty()) return restartFrom(tree, rng, synth::Operator::Restart);
        if (std::bernoulli_distribution(config_.restartRate)(rng)) return restartFrom(tree, rng, synth::Operator::Restart);
        const Node* a = tournament(population, rng);
        if (population.size() >= 2 && std::bernoulli_distribution(config_.crossoverRate)(rng)) {
            const Node* b = tournament(population, rng);
            if (b != a && b->sourceHash == a->sourceHash) return PlannedExpansion{synth::Operator::Crossover, a->id, b->id};
        }
        if (isExhausted(a->id)) return restartFrom(tree, rng, synth::Operator::Restart);
        return PlannedExpansion{synth::Operator::Mutate, a->id, 0};
    }

  private:
    // The island of a node is fixed by its creation order among the roots' lineages.
    std::vector<const Node*> populationOf(const SearchTree& tree, int island, int islands) const {
        std::vector<const Node*> members;
        for (const auto& n : tree.nodes()) {
            if (!n.correct() || tree.inPrunedSubtree(n.id)) continue;
            if (island >= 0 && n.seq % islands != island) continue;
            members.push_back(&n);
        }
        std::stable_sort(members.begin(), members.end(), [](const Node* x, const Node* y) { return score(x) > score(y); });
        members.resize(std::min<std::size_t>(members.size(), static_cast<std::size_t>(std::max(2, config_.population))));
        return members;
    }
    const Node* tournament(const std::vector<const Node*>& population, std::mt19937_64& rng) const {
        const Node* winner = nullptr;
        std::uniform_int_distribution<std::size_t> pick(0, population.size() - 1);
        for (int i = 0; i < std::max(1, config_.tournament); ++i) {
            const Node* c = population[pick(rng)];
            if (!winner || score(c) > score(winner)) winner = c;
        }
        return winner;
    }

    SearchConfig config_;
    std::size_t turn_ = 0;
};

// Random search: a fresh random assignment every time (the baseline to beat).
class RandomPolicy final : public SearchPolicy {
  public:
    std::string name() const override { return policyName(Policy::Random); }
    std::optional<PlannedExpansion> next(const SearchTree& tree, std::mt19937_64& rng) override {
        return restartFrom(tree, rng, synth::Operator::Restart);
    }
};

// Exhaustive: every configuration of the first seed's template, in order.
class ExhaustivePolicy final : public SearchPolicy {
  public:
    std::string name() const override { return policyName(Policy::Exhaustive); }
    std::optional<PlannedExpansion> next(const SearchTree& tree, std::mt19937_64& rng) override {
        return restartFrom(tree, rng, synth::Operator::Enumerate);
    }
};

} // namespace

std::unique_ptr<SearchPolicy> makePolicy(const SearchConfig& config) {
    switch (config.policy) {
    case Policy::Greedy:
        return std::make_unique<GreedyPolicy>(config);
    case Policy::Beam:
        return std::make_unique<BeamPolicy>(config);
    case Policy::Mcts:
        return std::make_unique<MctsPolicy>(config);
    case Policy::Evolutionary:
        return std::make_unique<EvolutionaryPolicy>(config);
    case Policy::Random:
        return std::make_unique<RandomPolicy>();
    case Policy::Exhaustive:
        return std::make_unique<ExhaustivePolicy>();
    }
    return nullptr;
}

} // namespace kw::search
