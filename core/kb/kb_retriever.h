#pragma once
// The knowledge base as the LLM synthesizer's retriever: the query is the
// problem's text, the node's signals select and boost documents, the host's
// platform filters them (the problem's own, kb::retrievalPlatform, unless one
// is given), and a token budget bounds what goes into a prompt.
#include "kb/kb_index.h"
#include "synth/llm_synthesizer.h"

namespace kw::kb {

class KbRetriever final : public synth::KnowledgeRetriever {
  public:
    // platform: "" takes each problem's own (kb::retrievalPlatform).
    KbRetriever(const store::Database& db, std::string platform = {}, int limit = 4, int tokenBudget = 3000)
        : index_(db), platform_(std::move(platform)), limit_(limit), tokenBudget_(tokenBudget) {}

    std::vector<synth::llm::KnowledgeSnippet>
    retrieve(const problem::ProblemSpec& problem, const std::vector<std::string>& diagnosis, const std::string& source) override;

  private:
    KbIndex index_;
    std::string platform_;
    int limit_, tokenBudget_;
};

} // namespace kw::kb
