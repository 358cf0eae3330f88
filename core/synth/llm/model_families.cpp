#include "synth/llm/model_families.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

namespace kw::synth::llm {
namespace {

using nlohmann::json;

ModelFamily openAi(std::string name, std::vector<std::string> patterns) {
    ModelFamily f;
    f.name = std::move(name);
    f.provider = ProviderKind::OpenAi;
    f.patterns = std::move(patterns);
    return f;
}

// OpenAI's reasoning models: max_completion_tokens, the default temperature
// only, an effort level instead of a thinking budget.
ModelFamily openAiReasoning(std::string name, std::vector<std::string> patterns, Endpoint endpoint) {
    ModelFamily f = openAi(std::move(name), std::move(patterns));
    f.tokenField = TokenField::MaxCompletionTokens;
    f.temperature = false;
    f.topP = false;
    f.thinking = ThinkingForm::Effort;
    f.effortField = endpoint == Endpoint::Responses ? "reasoning.effort" : "reasoning_effort";
    f.endpoint = endpoint;
    f.streamNeedsVerification = true;
    return f;
}

ModelFamily claude(std::string name, std::vector<std::string> patterns, ThinkingForm thinking, bool temperature) {
    ModelFamily f;
    f.name = std::move(name);
    f.provider = ProviderKind::Anthropic;
    f.patterns = std::move(patterns);
    f.maxTemperature = 1;
    f.thinking = thinking;
    f.temperature = temperature;
    f.topP = temperature;
    f.endpoint = Endpoint::Messages;
    if (thinking == ThinkingForm::Adaptive || thinking == ThinkingForm::Either) f.effortField = "output_config.effort";
    return f;
}

std::vector<ModelFamily> makeBuiltins() {
    std::vector<ModelFamily> t;
    t.push_back(openAi("gpt-4.1/4o", {"gpt-4.1*", "gpt-4o*", "gpt-4-*", "gpt-4", "gpt-3.5*", "chatgpt-4o*"}));
    // Through the Responses API: chat completions returns no reasoning text for
    // OpenAI's models (only a count), the Responses API returns summaries.
    t.push_back(openAiReasoning("o-series", {"o1*", "o3*", "o4-mini*"}, Endpoint::Responses));
    t.push_back(openAiReasoning("gpt-5.x", {"gpt-5*"}, Endpoint::Responses));
    // Served by the Responses API only (chat completions answers 404).
    t.push_back(openAiReasoning("codex/pro", {"*codex*", "gpt-5*-codex*", "codex-*", "o1-pro*", "o3-pro*", "gpt-5*-pro*"},
                                Endpoint::Responses));
    t.push_back(claude("claude-4.5 and earlier",
                       {"claude-sonnet-4-5*", "claude-opus-4-5*", "claude-haiku-4-5*", "claude-opus-4-1*", "claude-opus-4-2*",
                        "claude-sonnet-4-2*", "claude-3*"},
                       ThinkingForm::Budget, true));
    t.push_back(claude("claude-4.6", {"claude-sonnet-4-6*", "claude-opus-4-6*"}, ThinkingForm::Either, true));
    t.push_back(claude("claude-opus-4-7", {"claude-opus-4-7*"}, ThinkingForm::Adaptive, false));
    // Local OpenAI-compatible servers: max_tokens, any temperature; Ollama's
    // context window is the server's unless set through its native API.
    for (const char* server : {"ollama", "vllm", "llamacpp", "sglang"})
        t.push_back(openAi(std::string("local (") + server + ")", {std::string("server:") + server}));
    return t;
}

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool globMatch(const std::string& pattern, const std::string& text) {
    // Iterative '*' matching with backtracking to the last star.
    std::size_t p = 0, t = 0, star = std::string::npos, mark = 0;
    while (t < text.size()) {
        if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            mark = t;
        } else if (p < pattern.size() && pattern[p] == text[t]) {
            ++p;
            ++t;
        } else if (star != std::string::npos) {
            p = star + 1;
            t = ++mark;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*') ++p;
    return p == pattern.size();
}

// How specific a matching pattern is: its literal characters (-1: no match).
int specificity(const ModelFamily& f, const ModelConfig& m) {
    const std::string id = lower(m.model);
    int best = -1;
    for (const auto& p : f.patterns) {
        if (p.starts_with("server:")) {
            if (!m.server.empty() && lower(p.substr(7)) == lower(m.server)) best = std::max(best, 0);
            continue;
        }
        if (globMatch(lower(p), id))
            best = std::max(best, static_cast<int>(std::count_if(p.begin(), p.end(), [](char c) { return c != '*'; })));
    }
    return best;
}

template <class E>
bool parseEnum(const json& j, const char* key, const std::vector<std::pair<const char*, E>>& names, E& out, std::string& error) {
    if (!j.contains(key)) return true;
    if (!j[key].is_string()) {
        error = std::string(key) + ": expected a string";
        return false;
    }
    const auto v = j[key].get<std::string>();
    for (const auto& [n, e] : names)
        if (v == n) {
            out = e;
            return true;
        }
    std::string list;
    for (const auto& [n, e] : names) list += (list.empty() ? "" : " | ") + std::string(n);
    error = std::string(key) + ": \"" + v + "\" is not one of " + list;
    return false;
}

} // namespace

const std::vector<ModelFamily>& builtinFamilies() {
    static const std::vector<ModelFamily> table = makeBuiltins();
    return table;
}

std::string thinkingFormName(ThinkingForm form) {
    switch (form) {
    case ThinkingForm::None:
        return "none";
    case ThinkingForm::Budget:
        return "budget";
    case ThinkingForm::Adaptive:
        return "adaptive";
    case ThinkingForm::Either:
        return "adaptive-or-budget";
    case ThinkingForm::Effort:
        return "effort";
    }
    return "none";
}

std::string endpointName(Endpoint endpoint) {
    switch (endpoint) {
    case Endpoint::ChatCompletions:
        return "chat_completions";
    case Endpoint::Responses:
        return "responses";
    case Endpoint::Messages:
        return "messages";
    }
    return "chat_completions";
}

Result<std::vector<ModelFamily>> familiesFromJson(const json& array, const std::string& where) {
    std::vector<ModelFamily> out;
    if (!array.is_array()) return makeError(ErrorCode::Validation, where + "/families: expected an array of family rows");
    int i = 0;
    for (const auto& j : array) {
        const std::string at = where + "/families/" + std::to_string(i++);
        if (!j.is_object()) return makeError(ErrorCode::Validation, at + ": expected an object");
        ModelFamily f;
        f.builtin = false;
        std::string error;
        try {
            f.name = j.value("name", "");
            if (f.name.empty()) return makeError(ErrorCode::Validation, at + "/name: required");
            if (!j.contains("match") || !j["match"].is_array() || j["match"].empty())
                return makeError(ErrorCode::Validation,
                                 at + "/match: required, an array of model ids with '*' wildcards (or \"server:ollama\")");
            for (const auto& p : j["match"]) f.patterns.push_back(p.get<std::string>());
            const bool ok =
                parseEnum<ProviderKind>(j, "provider", {{"openai", ProviderKind::OpenAi}, {"anthropic", ProviderKind::Anthropic}},
                                        f.provider, error) &&
                parseEnum<TokenField>(
                    j, "token_field",
                    {{"max_tokens", TokenField::MaxTokens}, {"max_completion_tokens", TokenField::MaxCompletionTokens}},
                    f.tokenField, error) &&
                parseEnum<ThinkingForm>(j, "thinking",
                                        {{"none", ThinkingForm::None},
                                         {"budget", ThinkingForm::Budget},
                                         {"adaptive", ThinkingForm::Adaptive},
                                         {"adaptive-or-budget", ThinkingForm::Either},
                                         {"effort", ThinkingForm::Effort}},
                                        f.thinking, error) &&
                parseEnum<Endpoint>(j, "endpoint",
                                    {{"chat_completions", Endpoint::ChatCompletions},
                                     {"responses", Endpoint::Responses},
                                     {"messages", Endpoint::Messages}},
                                    f.endpoint, error);
            if (!ok) return makeError(ErrorCode::Validation, at + "/" + error);
            if (f.provider == ProviderKind::Anthropic) {
                f.maxTemperature = 1;
                f.endpoint = Endpoint::Messages;
            }
            f.temperature = j.value("temperature", f.temperature);
            f.topP = j.value("top_p", f.topP);
            f.maxTemperature = j.value("max_temperature", f.maxTemperature);
            f.effortField = j.value("effort_field", f.effortField);
            f.streamNeedsVerification = j.value("stream_needs_verification", f.streamNeedsVerification);
        } catch (const json::exception& e) {
            return makeError(ErrorCode::Validation, at + ": a field has the wrong type (" + std::string(e.what()) + ")");
        }
        out.push_back(std::move(f));
    }
    return out;
}

FamilyMatch familyOf(const ModelConfig& model, const std::vector<ModelFamily>& extra) {
    const ModelFamily* best = nullptr;
    int bestScore = -1;
    // llm.json's rows first: on equal specificity they win.
    for (const auto* rows : {&extra, &builtinFamilies()})
        for (const auto& f : *rows) {
            if (f.provider != model.provider) continue;
            if (const int s = specificity(f, model); s > bestScore) {
                best = &f;
                bestScore = s;
            }
        }
    if (best) return {*best, ""};
    ModelFamily safe;
    safe.name = "unknown";
    safe.provider = model.provider;
    safe.patterns = {model.model};
    std::string assumed;
    if (model.provider == ProviderKind::Anthropic) {
        safe.maxTemperature = 1;
        safe.endpoint = Endpoint::Messages;
        safe.thinking = ThinkingForm::Budget;
        assumed = "model " + model.model +
                  " is in no family: assumed an Anthropic model with max_tokens, a temperature of 0-1 and thinking by "
                  "budget (add a \"families\" row to llm.json if it differs)";
    } else if (model.server == "openai") {
        // Every current OpenAI model takes max_completion_tokens.
        safe.tokenField = TokenField::MaxCompletionTokens;
        assumed = "model " + model.model +
                  " is in no family: assumed chat completions with max_completion_tokens and a temperature (add a "
                  "\"families\" row to llm.json if it differs)";
    } else {
        assumed = "model " + model.model +
                  " is in no family: assumed an OpenAI-compatible server taking max_tokens and a temperature (add a "
                  "\"families\" row to llm.json if it differs)";
    }
    return {safe, assumed};
}

std::vector<std::string> configProblems(const ModelConfig& m, const ModelFamily& f) {
    std::vector<std::string> out;
    const std::string who = "model " + m.name + " (" + m.model + ", family " + f.name + ")";
    if (m.temperatureSet && !f.temperature)
        out.push_back(who + ": temperature: the family accepts only its default temperature; remove \"temperature\"");
    else if (m.temperatureSet && (m.temperature < 0 || m.temperature > f.maxTemperature))
        out.push_back(who + ": temperature " + std::to_string(m.temperature) + ": must be between 0 and " +
                      std::to_string(static_cast<int>(f.maxTemperature)));
    if (m.thinkingBudget > 0) {
        if (f.thinking == ThinkingForm::Adaptive)
            out.push_back(who + ": thinking_budget: the family thinks adaptively only; remove \"thinking_budget\" and set "
                                "\"reasoning_effort\" (low | medium | high | xhigh | max)");
        else if (f.thinking == ThinkingForm::None || f.thinking == ThinkingForm::Effort)
            out.push_back(who + ": thinking_budget: the family takes no thinking budget" +
                          (f.thinking == ThinkingForm::Effort ? "; set \"reasoning_effort\" instead" : "; remove it"));
        else if (m.thinkingBudget < 1024)
            out.push_back(who + ": thinking_budget " + std::to_string(m.thinkingBudget) + ": must be at least 1024");
        else if (m.thinkingBudget >= m.maxTokens)
            out.push_back(who + ": thinking_budget " + std::to_string(m.thinkingBudget) + ": must be less than max_tokens (" +
                          std::to_string(m.maxTokens) + "), which counts the thinking too");
    }
    if (!m.reasoningEffort.empty() && f.effortField.empty())
        out.push_back(who + ": reasoning_effort: the family takes no effort level; remove \"reasoning_effort\"");
    if (!m.reasoningEffort.empty() && m.thinkingBudget > 0 && f.thinking == ThinkingForm::Either)
        out.push_back(who + ": set either thinking_budget or reasoning_effort (adaptive thinking), not both");
    return out;
}

} // namespace kw::synth::llm
