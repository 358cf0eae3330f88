#pragma once
// What every synthesizer (the offline tuner now, an LLM later) receives and
// returns. The context is built by a memory operator over the tree.
#include "search/search_types.h"
#include "util/result.h"

#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace ks::synth {

// The memory operator's view of the tree around the node being expanded.
struct ExpansionContext {
    const search::Node* node = nullptr;
    std::string source;                              // the node's kernel source
    search::MemoryMode mode = search::MemoryMode::None;
    std::vector<const search::Node*> ancestors;      // parent first; empty unless mode has ancestors
    std::vector<const search::Node*> siblings;       // failed ones included; empty unless mode has siblings
    std::string hint;                                // a person's hint attached to the node
};

enum class Operator { Mutate, Crossover, Restart, Enumerate };
std::string operatorName(Operator op);

struct ExpansionRequest {
    Operator op = Operator::Mutate;
    ExpansionContext context;
    const search::Node* partner = nullptr;           // Crossover
};

struct Proposal {
    search::NodeId parent = 0;
    search::NodeOrigin origin = search::NodeOrigin::Mutation;
    std::string sourceName;
    std::string source;
    problem::ParamAssignment params;
    std::string rationale;                           // why this child: shown in the tree
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

} // namespace ks::synth
