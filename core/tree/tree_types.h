#pragma once
// Value types of a search tree: its configuration and its nodes. They live
// below both the search (which grows the tree) and the synthesizers (which
// read it to propose children), so neither depends on the other.
#include "eval/evaluation_result.h"
#include "problem/tunable_params.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kw::tree {

using NodeId = std::int64_t; // the store's row id; 0 means none

enum class Policy { Greedy, Beam, Mcts, Evolutionary, Random, Exhaustive };
std::string policyName(Policy policy);
std::optional<Policy> parsePolicy(const std::string& name);
// Every policy's name, in the table's order: what front ends offer and
// error messages list, so none types its own.
std::vector<std::string> policyNames();

// How an expansion draws context from the tree (ARCHITECTURE.md, "Search").
enum class MemoryMode { None, Ancestors, Siblings, Both };
std::string memoryModeName(MemoryMode mode);
std::optional<MemoryMode> parseMemoryMode(const std::string& name);
std::vector<std::string> memoryModeNames();

enum class NodeOrigin { Seed, Mutation, Crossover, Restart, Manual, Llm };
std::string originName(NodeOrigin origin);
std::optional<NodeOrigin> parseOrigin(const std::string& name);

// Who proposes children: the offline tuner (params only), a language model
// (rewrites), or both (each correct LLM child's params polished by the tuner).
enum class SynthMode { Tuner, Llm, Hybrid };
std::string synthModeName(SynthMode mode);
std::optional<SynthMode> parseSynthMode(const std::string& name);
std::vector<std::string> synthModeNames();

struct ModelChoice {
    std::string name;  // a configured model or a preset (openai:MODEL, ...)
    double weight = 1; // overrides the config's weight for this search
};

// pending: waiting for a slot; running: submitted; then the evaluation's status.
enum class NodeState { Pending, Running, Done };

struct SearchConfig {
    Policy policy = Policy::Mcts;
    MemoryMode memory = MemoryMode::Both;
    int maxEvaluations = 64;   // budget
    double maxWallSeconds = 0; // 0: none
    double targetSpeedup = 0;  // 0: none
    int stallEvaluations = 0;  // stop after this many evaluations without a gain; 0: never
    double maxTokens = 0;      // LLM budgets: input + output tokens, and USD; 0: none
    double maxCostUsd = 0;
    double stopNearRoofline = 0; // end when a kernel reaches this fraction of its roofline bound; 0: never
    // Torch problems: every Nth node (by creation order) is profiled with Nsight
    // Compute where the evaluation host has it (1: every node; 0: never).
    int ncuEvery = 4;
    SynthMode synth = SynthMode::Tuner;
    std::vector<ModelChoice> models; // llm and hybrid: the ensemble
    int llmConcurrency = 2;          // LLM calls in flight at once
    int polishSteps = 4;             // hybrid: tuner children per correct LLM child with params
    int promptTokens = 24000;        // the prompt's token budget
    bool seedFromHistory = false;    // also start from the best kernels of earlier searches of this problem
    bool distillSkill = false;       // once it finishes with a win: what worked, as a skill pending review
    int workers = 0;                 // 0: the executor's slots
    std::uint64_t seed = 1;          // every random choice of policy and tuner
    double mctsExploration = 0.1;    // UCT constant over rewards normalized to [0, 1]
    double mctsWidening = 0.5;       // a node may have ceil(w * sqrt(visits + 1)) children before UCT descends
    int beamWidth = 4;
    int population = 8; // evolutionary: per island
    int islands = 2;
    int tournament = 3;
    double crossoverRate = 0.3;
    double restartRate = 0.05; // share of tuner proposals that are random restarts
};

struct Node {
    NodeId id = 0;
    NodeId parent = 0;
    int seq = 0; // creation order within the search, from 1
    NodeOrigin origin = NodeOrigin::Seed;
    std::string sourceName; // the seed it descends from (same template)
    std::string sourceHash;
    problem::ParamAssignment params;
    NodeState state = NodeState::Pending;
    std::optional<eval::EvalStatus> status;
    double speedup = 0; // when correct
    std::string message;
    std::int64_t evaluationId = 0;
    bool pinned = false;
    // A pin for one expansion: released once a child of the node exists
    // (the default pin; a sticky one keeps the search on the node).
    bool pinOnce = false;
    // Faster than the operator's floor or the problem's plausibility limit:
    // not a best (fitness 0) until a person reviews it by pinning the node.
    bool flagged = false;
    bool pruned = false;
    double boost = 0;
    std::string hint;

    bool finished() const { return state == NodeState::Done; }
    bool correct() const { return status && *status == eval::EvalStatus::Ok; }
    // Fitness: baseline time / candidate time when correct, else 0.
    double fitness() const { return correct() && (!flagged || pinned) ? speedup : 0.0; }
};

} // namespace kw::tree
