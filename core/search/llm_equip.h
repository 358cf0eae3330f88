#pragma once
// Gives a search engine its language-model synthesizer and the knowledge base
// that feeds its prompts: the same steps for a search started by the CLI and
// one started in the workbench.
#include "search/search_engine.h"
#include "store/database.h"
#include "synth/llm_synthesizer.h"
#include "util/result.h"

#include <functional>
#include <memory>
#include <string>

namespace ks::search {

// llm: a synthesizer built already (callers that check models before creating
// a search); when null one is built from config.models and the settings file
// (llmConfigFile, else KS_LLM_CONFIG, else the default). A knowledge base that
// cannot be indexed is reported through warn and the search goes on without
// the documents that failed; a missing model or key is an error.
Status equipWithLlm(SearchEngine& engine, const store::Database& db, const SearchConfig& config, const std::string& llmConfigFile,
                    std::shared_ptr<const synth::LlmSynthesizer> llm = nullptr,
                    const std::function<void(const std::string&)>& warn = nullptr);

} // namespace ks::search
