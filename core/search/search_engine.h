#pragma once
// Runs one search: owns its tree (on the calling thread only), keeps every
// executor slot busy (proposing while evaluations run), applies steering
// commands posted to the store by any process, persists every node and
// result in its own transaction, and stops on target, budget, time or stall.
#include "eval/evaluator.h"
#include "problem/problem_spec.h"
#include "profile/profiler.h"
#include "search/search_tree.h"
#include "store/search_store.h"

#include <functional>
#include <memory>
#include <stop_token>
#include <string_view>

namespace kw::synth {
class LlmSynthesizer;
class KnowledgeRetriever;
} // namespace kw::synth

namespace kw::search {

struct SearchProgress {
    std::int64_t searchId = 0;
    int done = 0, budget = 0, inFlight = 0;
    double bestSpeedup = 0;
    NodeId bestNode = 0;
    int bestNumber = 0; // the best node's number in the search (#N), what people see
    double elapsedSeconds = 0;
    double evaluationsPerMinute = 0;
    double etaSeconds = 0;
    bool paused = false;
    int llmInFlight = 0; // LLM calls under way
    std::int64_t llmCalls = 0, llmTokens = 0;
    double llmCostUsd = 0;
};

class SearchObserver {
  public:
    virtual ~SearchObserver() = default;
    virtual void progress(const SearchProgress&) {} // at most ~10 times a second
    virtual void nodeFinished(const Node&) {}
    virtual void note(const std::string&) {} // things a user should know
    // A language model's reply as it streams in, for an expansion of `parent`.
    // Called from the LLM call's own thread, not the search's.
    virtual void llmStream(NodeId /*parent*/, bool /*reasoning*/, std::string_view /*delta*/) {}
};

struct SearchOutcome {
    std::string status;     // finished | stopped | paused
    std::string stopReason; // target | budget | wall_time | stall | exhausted | stopped | ...
    int evaluations = 0;
    NodeId bestNode = 0;
    int bestNumber = 0; // its number in the search (#N)
    double bestSpeedup = 0;
    // A search with distill_skill that finished with a win: the skill's file
    // (pending review), or why none was written.
    std::string skillFile, skillId, skillError;
};

// A search's stored row with its parsed config and loaded problem: read
// once per start, by loadSearch.
struct LoadedSearch {
    store::SearchRecord record;
    SearchConfig config;
    problem::ProblemSpec problem;
};
// Errors when the row is missing, its config is malformed or its problem no
// longer loads (a changed problem is logged: results may not compare).
Result<LoadedSearch> loadSearch(const store::Database& db, std::int64_t searchId);

class SearchEngine {
  public:
    // Creates the search's row; its seed nodes are added when it first runs.
    static Result<std::int64_t> create(const store::Database& db, const problem::ProblemSpec& problem,
                                       const SearchConfig& config);

    SearchEngine(const store::Database& db, eval::Evaluator& evaluator, eval::EvalOptions options = {});
    // Runs (or resumes) the search until it ends. Pending and in-flight nodes
    // of an interrupted run are evaluated again; finished ones never are.
    Result<SearchOutcome> run(std::int64_t searchId, std::stop_token stop = {}, SearchObserver* observer = nullptr);
    Result<SearchOutcome> run(const LoadedSearch& search, std::stop_token stop = {}, SearchObserver* observer = nullptr);

    // The language-model synthesizer for searches configured with synth llm or
    // hybrid (the caller resolves the config's models and keys), and the
    // knowledge base that feeds its prompts (optional).
    void setLlm(std::shared_ptr<const synth::LlmSynthesizer> llm,
                std::shared_ptr<synth::KnowledgeRetriever> retriever = nullptr) {
        llm_ = std::move(llm);
        retriever_ = std::move(retriever);
    }
    // Profiles every correct evaluation at the roofline level against this
    // machine model and stores it; the diagnosis feeds retrieval and prompts,
    // and stop_near_roofline needs it. Without one, nodes carry no diagnosis.
    void setProfiler(std::shared_ptr<const profile::Profiler> profiler) { profiler_ = std::move(profiler); }

  private:
    std::shared_ptr<const synth::LlmSynthesizer> llm_;
    std::shared_ptr<const profile::Profiler> profiler_;
    std::shared_ptr<synth::KnowledgeRetriever> retriever_;
    const store::Database& db_;
    eval::Evaluator& evaluator_;
    eval::EvalOptions options_;
};

} // namespace kw::search
