#pragma once
// Turns a search's model choices into a ready LLM synthesizer: settings file,
// presets, keys from the environment. Shared by the CLI and the workbench.
#include "synth/llm_synthesizer.h"
#include "tree/tree_types.h"
#include "util/result.h"

#include <memory>
#include <string>

namespace kw::synth {

// "NAME" or "NAME:WEIGHT" (a name may itself hold colons: openai:gpt-4o:2).
tree::ModelChoice parseModelChoice(const std::string& text);

// The settings file named by --llm-config, else KW_LLM_CONFIG, else the default.
Result<llm::LlmSettings> loadLlmSettings(const std::string& explicitFile);

Result<std::shared_ptr<const LlmSynthesizer>> makeLlmSynthesizer(const tree::SearchConfig& config,
                                                                 const std::string& llmConfigFile);

} // namespace kw::synth
