#pragma once
// What every synthesizer (the offline tuner now, an LLM later) receives and
// returns. The context is built by a memory operator over the tree.
#include "tree/tree_types.h"
#include "util/result.h"

#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace kw::synth {

// The memory operator's view of the tree around the node being expanded.
struct ExpansionContext {
    const tree::Node* node = nullptr;
    std::string source; // the node's kernel source
    tree::MemoryMode mode = tree::MemoryMode::None;
    std::vector<const tree::Node*> ancestors; // parent first; empty unless mode has ancestors
    std::vector<const tree::Node*> siblings;  // failed ones included; empty unless mode has siblings
    std::string hint;                         // a person's hint attached to the node
};

enum class Operator { Mutate, Crossover, Restart, Enumerate };
std::string operatorName(Operator op);

struct ExpansionRequest {
    Operator op = Operator::Mutate;
    ExpansionContext context;
    const tree::Node* partner = nullptr; // Crossover
};

struct Proposal {
    tree::NodeId parent = 0;
    tree::NodeOrigin origin = tree::NodeOrigin::Mutation;
    std::string sourceName;
    std::string source;
    problem::ParamAssignment params;
    std::string rationale; // why this child: shown in the tree
};

// Is (source hash, params) already in the tree?
using KnownPredicate = std::function<bool(const std::string& sourceHash, const problem::ParamAssignment& params)>;

class Synthesizer {
  public:
    virtual ~Synthesizer() = default;
    virtual std::string name() const = 0;
    // nullopt: nothing new to propose from this request (the neighbourhood is exhausted).
    virtual Result<std::optional<Proposal>> propose(const ExpansionRequest& request, const KnownPredicate& known,
                                                    std::mt19937_64& rng) = 0;
};

} // namespace kw::synth
