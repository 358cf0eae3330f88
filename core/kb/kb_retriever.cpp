#include "kb/kb_retriever.h"

#include "kb/node_query.h"

#include "util/log.h"

namespace kw::kb {

std::vector<synth::llm::KnowledgeSnippet> KbRetriever::retrieve(const problem::ProblemSpec& problem,
                                                                const std::vector<std::string>& diagnosis,
                                                                const std::string& /*source*/) {
    RetrievalQuery q = retrievalQueryFor(problem, diagnosis, platform_.empty() ? retrievalPlatform(problem) : platform_);
    q.limit = limit_;
    q.tokenBudget = tokenBudget_;
    std::vector<synth::llm::KnowledgeSnippet> out;
    auto found = index_.search(q);
    if (!found) {
        log::search()->warn("knowledge base: {}", found.error().message);
        return out;
    }
    for (const auto& s : *found) out.push_back({s.docId, s.title, s.path, s.text, s.score, s.heading, s.reason});
    return out;
}

} // namespace kw::kb
