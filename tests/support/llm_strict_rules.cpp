#include "llm_strict_rules.h"

#include <cctype>

namespace llm_strict {
namespace {

using json = nlohmann::json;

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool startsWith(const std::string& s, const char* p) {
    return s.rfind(p, 0) == 0;
}

Refusal openAiError(int status, const std::string& message, const std::string& param, const std::string& code,
                    const std::string& type = "invalid_request_error") {
    json e{{"message", message}, {"type", type}, {"param", param.empty() ? json() : json(param)}, {"code", code}};
    return {status, json{{"error", e}}.dump()};
}

Refusal anthropicError(int status, const std::string& message) {
    return {status, json{{"type", "error"}, {"error", {{"type", "invalid_request_error"}, {"message", message}}}}.dump()};
}

// OpenAI's reasoning models: o1, o3, o4-mini, the gpt-5 line, codex and -pro.
bool openAiReasoning(const std::string& m) {
    return startsWith(m, "o1") || startsWith(m, "o3") || startsWith(m, "o4") || startsWith(m, "gpt-5") ||
           m.find("codex") != std::string::npos;
}

bool responsesOnly(const std::string& m) {
    return m.find("codex") != std::string::npos || (m.size() > 4 && m.find("-pro") != std::string::npos);
}

std::optional<Refusal> checkOpenAi(Route route, const json& body, bool unverifiedOrg) {
    const std::string model = lower(body.value("model", ""));
    if (route == Route::ChatCompletions && responsesOnly(model))
        return openAiError(404, "This model is only supported in v1/responses and not in v1/chat/completions.", "model",
                           "unsupported_model");
    if (route == Route::ChatCompletions) {
        if (!body.contains("messages") || !body["messages"].is_array())
            return openAiError(400, "Missing required parameter: 'messages'.", "messages", "missing_required_parameter");
    } else if (!body.contains("input")) {
        return openAiError(400, "Missing required parameter: 'input'.", "input", "missing_required_parameter");
    }
    if (route == Route::Responses && (body.contains("max_tokens") || body.contains("max_completion_tokens")))
        return openAiError(400, "Unsupported parameter: 'max_tokens'. In the Responses API, use 'max_output_tokens'.",
                           "max_tokens", "unsupported_parameter");
    if (body.contains("temperature")) {
        const auto& t = body["temperature"];
        if (!t.is_number() || t.get<double>() < 0 || t.get<double>() > 2)
            return openAiError(400, "Invalid 'temperature': decimal above maximum value. Expected a value <= 2.", "temperature",
                               "decimal_above_max_value");
    }
    if (openAiReasoning(model)) {
        if (unverifiedOrg && body.value("stream", false) == true && !startsWith(model, "o4") && !startsWith(model, "o1"))
            return openAiError(400,
                               "Your organization must be verified to stream this model. Please go to: "
                               "https://platform.openai.com/settings/organization/general and click on Verify Organization.",
                               "stream", "unsupported_value");
        if (route == Route::ChatCompletions && body.contains("max_tokens"))
            return openAiError(400,
                               "Unsupported parameter: 'max_tokens' is not supported with this model. Use "
                               "'max_completion_tokens' instead.",
                               "max_tokens", "unsupported_parameter");
        for (const char* knob : {"temperature", "top_p"})
            if (body.contains(knob) && !(body[knob].is_number() && body[knob].get<double>() == 1.0))
                return openAiError(400,
                                   std::string("Unsupported value: '") + knob + "' does not support " + body[knob].dump() +
                                       " with this model. Only the default (1) value is supported.",
                                   knob, "unsupported_value");
    } else if (body.contains("reasoning_effort")) {
        return openAiError(400, "Unrecognized request argument supplied: reasoning_effort", "reasoning_effort",
                           "unsupported_parameter");
    }
    return std::nullopt;
}

// Anthropic: Claude Opus 4.7 thinks adaptively only and takes no sampling
// knobs; budgets (4.5, 4.6) are >= 1024 and below max_tokens; thinking
// requires the default temperature; temperature is 0-1.
std::optional<Refusal> checkAnthropic(const json& body) {
    const std::string model = lower(body.value("model", ""));
    if (!body.contains("max_tokens") || !body["max_tokens"].is_number_integer())
        return anthropicError(400, "max_tokens: Field required");
    const long maxTokens = body["max_tokens"].get<long>();
    const bool opus47 = startsWith(model, "claude-opus-4-7");
    const bool adaptiveOk = opus47 || startsWith(model, "claude-opus-4-6") || startsWith(model, "claude-sonnet-4-6");
    if (body.contains("temperature")) {
        const auto& t = body["temperature"];
        if (opus47) return anthropicError(400, "temperature: is not supported for this model");
        if (!t.is_number() || t.get<double>() < 0 || t.get<double>() > 1)
            return anthropicError(400, "temperature: Input should be less than or equal to 1");
    }
    if (opus47 && body.contains("top_p")) return anthropicError(400, "top_p: is not supported for this model");
    if (body.contains("output_config") && !adaptiveOk)
        return anthropicError(400, "output_config.effort: is not supported for this model");
    if (!body.contains("thinking")) return std::nullopt;
    const auto& th = body["thinking"];
    const std::string type = th.is_object() ? th.value("type", "") : "";
    if (type == "adaptive") {
        if (!adaptiveOk) return anthropicError(400, "thinking.type: 'adaptive' is not supported for this model");
    } else if (type == "enabled") {
        if (opus47)
            return anthropicError(400, "thinking.type.enabled is not supported for this model. Use thinking.type.adaptive and "
                                       "output_config.effort to control thinking behavior.");
        const long budget =
            th.contains("budget_tokens") && th["budget_tokens"].is_number_integer() ? th["budget_tokens"].get<long>() : 0;
        if (budget < 1024)
            return anthropicError(400, "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024");
        if (budget >= maxTokens)
            return anthropicError(
                400, "`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our "
                     "documentation at "
                     "https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size");
    } else if (type != "disabled") {
        return anthropicError(400, "thinking.type: Input tag '" + type +
                                       "' found using 'type' does not match any of the expected tags");
    }
    if (body.contains("temperature") && !(body["temperature"].is_number() && body["temperature"].get<double>() == 1.0))
        return anthropicError(400,
                              "`temperature` may only be set to 1 when thinking is enabled or in interleaved thinking mode.");
    return std::nullopt;
}

} // namespace

std::optional<Refusal> check(Route route, const json& body, bool unverifiedOrg) {
    if (!body.is_object()) return Refusal{400, json{{"error", {{"message", "the body is not a JSON object"}}}}.dump()};
    return route == Route::Messages ? checkAnthropic(body) : checkOpenAi(route, body, unverifiedOrg);
}

} // namespace llm_strict
