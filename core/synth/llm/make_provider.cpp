// The protocol a model speaks, chosen by its family row (model_families.h).
#include "synth/llm/model_families.h"
#include "synth/llm/providers.h"

namespace kw::synth::llm {

std::unique_ptr<Provider> makeProvider(const ModelConfig& model) {
    ModelConfig m = model;
    if (m.family.name.empty()) m.family = familyOf(m).family; // made in code, not read from llm.json
    if (m.provider == ProviderKind::Anthropic) return makeAnthropicProvider(m);
    if (m.family.endpoint == Endpoint::Responses) return makeResponsesProvider(m);
    return makeOpenAiProvider(m);
}

} // namespace kw::synth::llm
