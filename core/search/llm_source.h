#pragma once
// The language model as a source of proposals: starts expansions of the
// policy's nodes on threads of their own (up to the configured concurrency),
// assembles each prompt (the parent's code, feedback, ancestors and
// siblings, diagnosis, retrieved knowledge), and hands back the calls that
// ended. The search loop records them and alone inserts nodes.
#include "profile/diagnosis.h"
#include "search/search_engine.h"
#include "search/search_policy.h"
#include "store/llm_call_store.h"
#include "synth/llm_synthesizer.h"

#include <functional>
#include <future>
#include <memory>
#include <random>
#include <stop_token>
#include <vector>

namespace kw::search {

class LlmSource {
  public:
    struct Context {
        const SearchTree& tree;
        SearchPolicy& policy;
        std::mt19937_64& rng;
        std::function<bool()> roomLeft;                                  // the budget can take one more call
        std::function<Result<std::string>(const std::string&)> sourceOf; // by source hash
        std::function<std::vector<profile::Signal>(const Node&)> signalsOf;
        std::function<void(const std::string&)> note;
        SearchObserver* observer = nullptr; // receives the replies as they stream
    };

    LlmSource(std::shared_ptr<const synth::LlmSynthesizer> llm, std::shared_ptr<synth::KnowledgeRetriever> retriever,
              const store::Database& db, const problem::ProblemSpec& problem, const SearchConfig& config);
    ~LlmSource() { cancel(); } // pending calls are cancelled, not awaited to the end

    // Starts calls while there is room; false when the policy has no node to
    // expand (the caller decides whether the search is exhausted).
    bool start(const Context& ctx);
    // The calls that ended since the last look.
    std::vector<synth::LlmResult> ended();
    void cancel() { stop_.request_stop(); }
    int running() const { return static_cast<int>(calls_.size()); }
    const synth::LlmSynthesizer& synthesizer() const { return *llm_; }

    // The row of the workspace's llm_calls table for an ended call; the
    // reply and reasoning are redacted of the model's key.
    store::LlmCallRecord callRecord(const synth::LlmResult& result, std::int64_t searchId) const;
    // Stores an ended call's row and adds it to `spend`; its id, 0 when it
    // could not be stored (said through note).
    std::int64_t record(const synth::LlmResult& result, std::int64_t searchId, store::LlmSpend& spend,
                        const std::function<void(const std::string&)>& note) const;
    // Links a stored call to the node it became (0: none) and records what
    // was retrieved for its prompt.
    void link(std::int64_t callId, NodeId node, const synth::LlmResult& result) const;
    // Why a call gave no kernel, without the model's key.
    std::string failure(const synth::LlmResult& result) const;
    // The node that stands for a call that gave no kernel: visible in the
    // tree, linked to the call.
    static synth::Proposal failureNode(NodeId parent, std::int64_t callId, const std::string& why);

  private:
    synth::llm::PromptInput promptInput(const Context& ctx, const Node& parent, const std::string& source,
                                        synth::Operator op) const;

    struct Call {
        NodeId parent = 0;
        std::future<synth::LlmResult> result;
    };
    std::shared_ptr<const synth::LlmSynthesizer> llm_;
    std::shared_ptr<synth::KnowledgeRetriever> retriever_;
    const store::Database& db_;
    const problem::ProblemSpec& problem_;
    const SearchConfig& config_;
    std::stop_source stop_;
    std::vector<Call> calls_;
};

} // namespace kw::search
