#pragma once
// One family of models as the request builders see it (see model_families.h
// for the table and how a model finds its row).
#include <string>
#include <vector>

namespace kw::synth::llm {

enum class ProviderKind { OpenAi, Anthropic };

enum class TokenField { MaxTokens, MaxCompletionTokens };
enum class ThinkingForm {
    None,     // the model has no separate thinking to turn on
    Budget,   // Anthropic {"type": "enabled", "budget_tokens": N}
    Adaptive, // Anthropic {"type": "adaptive"} with output_config.effort
    Either,   // Anthropic 4.6: adaptive preferred, a budget still accepted
    Effort,   // OpenAI reasoning models: an effort level, thinking always on
};
enum class Endpoint { ChatCompletions, Responses, Messages };

struct ModelFamily {
    std::string name; // "o-series", "claude-opus-4-7", "local", ...
    ProviderKind provider = ProviderKind::OpenAi;
    std::vector<std::string> patterns; // model ids, '*' matching any run of characters; "server:NAME" matches a local server
    TokenField tokenField = TokenField::MaxTokens;
    bool temperature = true; // accepts a temperature other than the default
    bool topP = true;
    double maxTemperature = 2; // OpenAI 0-2, Anthropic 0-1
    ThinkingForm thinking = ThinkingForm::None;
    std::string effortField; // "reasoning_effort" (chat completions), "reasoning.effort" (responses), "output_config.effort"
    Endpoint endpoint = Endpoint::ChatCompletions;
    bool streamNeedsVerification = false; // hosted streaming may be refused to unverified organisations
    bool builtin = true;
};

} // namespace kw::synth::llm
