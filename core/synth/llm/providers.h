#pragma once
// The three protocols; makeProvider (provider.h) picks one by the model's family.
#include "synth/llm/provider.h"

namespace kw::synth::llm {
std::unique_ptr<Provider> makeOpenAiProvider(const ModelConfig& model);
std::unique_ptr<Provider> makeAnthropicProvider(const ModelConfig& model);
std::unique_ptr<Provider> makeResponsesProvider(const ModelConfig& model);
} // namespace kw::synth::llm
