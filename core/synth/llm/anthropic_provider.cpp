// Anthropic's Messages API: POST {base}/v1/messages. Extended thinking comes
// back as "thinking" content blocks, kept apart from the "text" blocks.
#include "synth/llm/providers.h"
#include "util/json_text.h"

#include "synth/llm/provider_common.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace kw::synth::llm {
namespace {

using nlohmann::json;

constexpr const char* kApiVersion = "2023-06-01";

std::string normalizeStop(const std::string& s) {
    if (s == "end_turn" || s == "stop_sequence") return "stop";
    if (s == "max_tokens") return "length";
    return s;
}

struct StreamState {
    ChatReply reply;
    bool stopped = false; // message_stop seen
    std::string error;
    FailureKind errorKind = FailureKind::Malformed;

    bool complete() const { return stopped; }

    bool onEvent(const SseEvent& e, StreamSink* sink) {
        json j;
        try {
            j = json::parse(e.data);
        } catch (const json::parse_error&) {
            error = "a stream event is not JSON: " + e.data.substr(0, 120);
            return false;
        }
        const std::string type = stringAt(j, "type");
        if (type == "message_start" && j.contains("message")) {
            const auto& m = j["message"];
            reply.model = stringAt(m, "model");
            if (m.contains("usage")) reply.usage.inputTokens = countAt(m["usage"], "input_tokens");
        } else if (type == "content_block_delta" && j.contains("delta")) {
            const auto& d = j["delta"];
            const std::string dt = stringAt(d, "type");
            if (dt == "text_delta") {
                const auto t = stringAt(d, "text");
                reply.text += t;
                if (sink && !t.empty()) sink->text(t);
            } else if (dt == "thinking_delta") {
                const auto t = stringAt(d, "thinking");
                reply.reasoning += t;
                if (sink && !t.empty()) sink->reasoning(t);
            }
        } else if (type == "message_delta") {
            if (j.contains("delta")) {
                if (auto s = stringAt(j["delta"], "stop_reason"); !s.empty()) reply.finishReason = normalizeStop(s);
            }
            if (j.contains("usage")) reply.usage.outputTokens = countAt(j["usage"], "output_tokens", reply.usage.outputTokens);
        } else if (type == "message_stop") {
            stopped = true;
        } else if (type == "error") {
            // e.g. overloaded_error mid-stream: the service's way to say 529.
            const std::string et = j.contains("error") ? stringAt(j["error"], "type") : "";
            error =
                "the server reported " + (et.empty() ? std::string("an error") : et) + " mid-stream: " + errorMessageOf(e.data);
            errorKind = et == "overloaded_error" || et == "api_error" ? FailureKind::Server
                        : et == "rate_limit_error"                    ? FailureKind::RateLimited
                                                                      : FailureKind::BadRequest;
            return false;
        }
        return true; // ping, content_block_start/stop, signature deltas
    }
};

class AnthropicProvider final : public Provider {
  public:
    explicit AnthropicProvider(ModelConfig model) : model_(std::move(model)) {}

    CallOutcome call(const ChatRequest& request, StreamSink* sink, std::stop_token stop) override {
        const bool stream = request.stream && model_.stream;
        const auto body = requestBody(request, stream);
        std::vector<std::string> headers = {"Content-Type: application/json", std::string("anthropic-version: ") + kApiVersion};
        if (!model_.apiKey.empty()) headers.push_back("x-api-key: " + model_.apiKey.reveal());
        const auto http = requestFor(model_, stream, joinUrl(model_.baseUrl, "/v1/messages"), std::move(headers), jsonText(body));

        return exchange<StreamState>(http, stream, sink, stop, model_.keySource, model_.model, "message_stop",
                                     [this](const HttpResponse& r, const std::string& url) { return parseWhole(r, url); });
    }

    // Shaped by the model's family (model_families.h): thinking by budget or
    // adaptive with an effort level, and a temperature only without thinking
    // (thinking requires the default) and where the family accepts one.
    json requestBody(const ChatRequest& request, bool stream) const {
        const auto& f = model_.family;
        const bool budget =
            model_.thinkingBudget > 0 && (f.thinking == ThinkingForm::Budget || f.thinking == ThinkingForm::Either);
        const bool adaptive = !budget && !model_.reasoningEffort.empty() &&
                              (f.thinking == ThinkingForm::Adaptive || f.thinking == ThinkingForm::Either);
        // max_tokens counts the thinking: a short answer (llm test's) still
        // leaves the budget room, as the service requires.
        const int maxTokens =
            budget && request.maxTokens <= model_.thinkingBudget ? model_.thinkingBudget + request.maxTokens : request.maxTokens;
        json body{{"model", model_.model},
                  {"max_tokens", maxTokens},
                  {"system", request.system},
                  {"messages", json::array({{{"role", "user"}, {"content", request.user}}})},
                  {"stream", stream}};
        if (budget) {
            body["thinking"] = {{"type", "enabled"}, {"budget_tokens", model_.thinkingBudget}};
        } else if (adaptive) {
            body["thinking"] = {{"type", "adaptive"}};
            body["output_config"] = {{"effort", model_.reasoningEffort}};
        } else if (f.temperature) {
            body["temperature"] = std::min(request.temperature, f.maxTemperature);
        }
        return body;
    }

  private:
    CallOutcome parseWhole(const HttpResponse& response, const std::string& url) const {
        json j;
        if (auto failed = parseBody(response, url, j)) return *failed;
        if (!j.contains("content") || !j["content"].is_array())
            return CallOutcome::fail(FailureKind::Malformed, url + ": the reply has no content array", response.status);
        ChatReply reply;
        for (const auto& block : j["content"]) {
            const std::string t = stringAt(block, "type");
            if (t == "text")
                reply.text += stringAt(block, "text");
            else if (t == "thinking")
                reply.reasoning += stringAt(block, "thinking");
        }
        reply.finishReason = normalizeStop(stringAt(j, "stop_reason"));
        reply.model = stringAt(j, "model");
        if (j.contains("usage") && j["usage"].is_object()) {
            reply.usage.inputTokens = countAt(j["usage"], "input_tokens");
            reply.usage.outputTokens = countAt(j["usage"], "output_tokens");
        }
        return finishReply(std::move(reply), model_.model);
    }

    ModelConfig model_;
};

} // namespace

std::unique_ptr<Provider> makeAnthropicProvider(const ModelConfig& model) {
    return std::make_unique<AnthropicProvider>(model);
}

} // namespace kw::synth::llm
