#pragma once
// The record of every language-model call (llm_calls): prompt, reply,
// reasoning, usage, cost, latency, error. Never an API key.
#include "store/database.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kw::store {

struct LlmCallRecord {
    std::int64_t id = 0, searchId = 0, parentNodeId = 0, nodeId = 0;
    std::string provider, modelName, model;
    std::string systemPrompt, prompt, promptCutJson = "[]";
    std::string reply, reasoning;
    std::int64_t inputTokens = 0, outputTokens = 0;
    bool usageEstimated = false;
    double costUsd = 0, latencyS = 0;
    int attempts = 1;
    std::string status; // ok | error
    std::string error;
    std::string createdAt;
};

struct LlmSpend {
    std::int64_t calls = 0, tokens = 0;
    double costUsd = 0;
};

// One call's share of a search's spending, for plotting it over time.
struct LlmSpendPoint {
    std::string createdAt;
    std::int64_t tokens = 0;
    double costUsd = 0;
};

// One knowledge-base section a prompt held: its document (by id, and by
// title when the document is still indexed), why it was picked.
struct RetrievedDoc {
    std::string docId, title, section, reason;
    double score = 0;
};

class LlmCallStore {
  public:
    explicit LlmCallStore(const Database& db) : db_(db) {}

    Result<std::int64_t> insert(const LlmCallRecord& call) const;
    Status attachNode(std::int64_t callId, std::int64_t nodeId) const;
    Result<std::vector<LlmCallRecord>> forSearch(std::int64_t searchId) const;
    Result<std::optional<LlmCallRecord>> forNode(std::int64_t nodeId) const;
    Result<LlmSpend> spend(std::int64_t searchId) const;
    // Every call of the search, oldest first, without its texts.
    Result<std::vector<LlmSpendPoint>> spendTimeline(std::int64_t searchId) const;
    // Which knowledge-base section fed the call (and so the node it made).
    Status recordRetrieval(std::int64_t callId, std::int64_t nodeId, const std::string& docId, const std::string& section,
                           double score, const std::string& reason) const;
    // The knowledge-base sections a call's prompt held, in the order they were retrieved.
    Result<std::vector<RetrievedDoc>> retrievedDocs(std::int64_t callId) const;

  private:
    const Database& db_;
};

} // namespace kw::store
