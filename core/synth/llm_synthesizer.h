#pragma once
// The LLM synthesizer: turns an expansion of a node into a prompt, sends it to
// one model of an ensemble (chosen by weight), and turns the reply into a
// proposal. Two halves so that the search never waits on the network:
// prepare() runs on the search's thread and returns a self-contained job (values
// only); run() is thread-safe and does the slow part.
#include "synth/llm/llm_client.h"
#include "synth/llm/prompt_builder.h"
#include "synth/synthesizer.h"

#include <memory>
#include <random>
#include <stop_token>

namespace kw::synth {

// The knowledge base's side of the prompt (the KB supplies an implementation).
class KnowledgeRetriever {
  public:
    virtual ~KnowledgeRetriever() = default;
    // signals: what the node's evaluation said ("compile_error", "memory_bound", ...).
    virtual std::vector<llm::KnowledgeSnippet> retrieve(const problem::ProblemSpec& problem,
                                                        const std::vector<std::string>& diagnosis, const std::string& source) = 0;
};

struct LlmOptions {
    int promptTokenBudget = 24000; // estimated tokens of system + user message
    std::string machine;           // a line describing the target machine
};

struct LlmJob {
    tree::NodeId parent = 0;
    std::string parentSourceName;
    std::size_t model = 0; // index into the synthesizer's models
    llm::ChatRequest request;
    std::vector<std::string> promptCut;
    std::vector<llm::KnowledgeSnippet> knowledge; // what the prompt carries from the knowledge base
    std::uint64_t rngSeed = 0;
};

struct LlmResult {
    LlmJob job;
    llm::ClientOutcome outcome;
    std::optional<Proposal> proposal; // when the reply held a usable kernel
    std::string error;                // otherwise: why not (the call's or the reply's fault)
    std::string explanation;          // the reply's prose
    double costUsd = 0;
};

class LlmSynthesizer {
  public:
    // clients: one per model; weights come from their configs.
    explicit LlmSynthesizer(std::vector<std::unique_ptr<llm::LlmClient>> clients, LlmOptions options = {});

    const LlmOptions& options() const { return options_; }
    std::size_t modelCount() const { return clients_.size(); }
    const llm::ModelConfig& model(std::size_t i) const { return clients_[i]->model(); }

    LlmJob prepare(const llm::PromptInput& input, tree::NodeId parent, const std::string& parentSourceName,
                   std::mt19937_64& rng) const;
    // Thread-safe. The sink (may be null) sees the reply as it streams in.
    // function and language: what the reply must define, and in which code block ("cpp" or "python").
    LlmResult run(const LlmJob& job, llm::StreamSink* sink, std::stop_token stop, const std::string& function,
                  const std::string& language = "cpp") const;

  private:
    std::vector<std::unique_ptr<llm::LlmClient>> clients_;
    LlmOptions options_;
};

} // namespace kw::synth
