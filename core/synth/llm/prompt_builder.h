#pragma once
// The one adaptive prompt ("universal operator"): instead of separate draft,
// debug and improve templates, every expansion gets the problem, the kernel,
// what its evaluation said, what the tree has learned around it, the user's
// hint and retrieved knowledge, then the output contract. When the estimate
// exceeds the token budget the least valuable parts go first, and the prompt
// records what was cut.
#include "eval/evaluation_result.h"
#include "problem/problem_spec.h"

#include <optional>
#include <string>
#include <vector>

namespace kw::synth::llm {

// A neighbour in the tree, as the prompt tells it.
struct NodeSummary {
    std::int64_t id = 0;
    std::string origin; // seed, mutation, llm, ...
    std::string status; // ok, wrong_answer, compile_error, ... ("pending" when not evaluated)
    double speedup = 0;
    std::string params;  // "VEC=16 ACC=2"
    std::string message; // the evaluation's one-line verdict or the synthesizer's rationale
};

// A retrieved document piece (the knowledge base supplies these).
struct KnowledgeSnippet {
    std::string docId;
    std::string title;
    std::string path;
    std::string text;
    double score = 0;    // higher is more relevant
    std::string section; // the section's heading
    std::string reason;  // why the retriever chose it
};

struct PromptInput {
    const problem::ProblemSpec* problem = nullptr;
    std::string machine;                            // "x86-64, 2 cores, AVX-512"
    std::string source;                             // the kernel to improve
    std::string params;                             // its param values
    std::optional<eval::EvaluationResult> feedback; // its evaluation
    std::vector<NodeSummary> ancestors;             // parent first
    std::vector<NodeSummary> siblings;
    std::string hint;                                           // a person's instruction for this expansion
    std::vector<std::pair<std::string, std::string>> diagnosis; // profiling signals of the kernel: name, evidence
    std::vector<KnowledgeSnippet> knowledge;
    std::string operation = "improve"; // improve | fix | restart
    double bestSpeedup = 0;            // the search's best so far
    double targetSpeedup = 0;
};

struct Prompt {
    std::string system;
    std::string user;
    std::vector<std::string> cut; // what the budget removed, in removal order
    int estimatedTokens = 0;
};

// Tokens are estimated as characters / 4 (no tokenizer of every model is at hand).
int estimateTokens(const std::string& text);

Prompt buildPrompt(const PromptInput& input, int tokenBudget);

} // namespace kw::synth::llm
