#include "search/llm_equip.h"

#include "kb/kb_index.h"
#include "kb/kb_retriever.h"
#include "synth/llm_setup.h"

namespace ks::search {

Status equipWithLlm(SearchEngine& engine, const store::Database& db, const SearchConfig& config, const std::string& llmConfigFile,
                    std::shared_ptr<const synth::LlmSynthesizer> llm, const std::function<void(const std::string&)>& warn) {
    if (!llm) {
        auto made = synth::makeLlmSynthesizer(config, llmConfigFile);
        if (!made) return made.error();
        llm = *made;
    }
    // Indexed (by hash, so unchanged files cost nothing) before the first prompt.
    if (auto synced = kb::KbIndex(db).sync(kb::defaultKbRoots()); !synced && warn) warn("knowledge base: " + synced.error().message);
    engine.setLlm(std::move(llm), std::make_shared<kb::KbRetriever>(db));
    return {};
}

} // namespace ks::search
