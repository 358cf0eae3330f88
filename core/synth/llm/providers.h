#pragma once
// The two protocols; makeProvider (provider.h) picks one by the model config.
#include "synth/llm/provider.h"

namespace ks::synth::llm {
std::unique_ptr<Provider> makeOpenAiProvider(const ModelConfig& model);
std::unique_ptr<Provider> makeAnthropicProvider(const ModelConfig& model);
} // namespace ks::synth::llm
