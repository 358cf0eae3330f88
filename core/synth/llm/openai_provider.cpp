// OpenAI's chat completions: POST {base}/chat/completions. Also what Ollama,
// vLLM and llama.cpp's server speak. Reasoning arrives as
// "reasoning_content" (vLLM, DeepSeek) or "reasoning" (Ollama, OpenRouter).
#include "synth/llm/providers.h"
#include "util/json_text.h"

#include "synth/llm/provider_common.h"

#include <nlohmann/json.hpp>

#include <atomic>

namespace kw::synth::llm {
namespace {

using nlohmann::json;

void readUsage(const json& j, ChatReply& reply) {
    if (!j.contains("usage") || !j["usage"].is_object()) return;
    reply.usage.inputTokens = countAt(j["usage"], "prompt_tokens");
    reply.usage.outputTokens = countAt(j["usage"], "completion_tokens");
}

std::string normalizeFinish(const std::string& f) {
    return f == "length" ? "length" : f.empty() ? "" : f == "stop" ? "stop" : f;
}

// Accumulates a streamed reply; false on an event that is not the protocol's.
struct StreamState {
    ChatReply reply;
    bool done = false; // [DONE] seen
    std::string error;
    FailureKind errorKind = FailureKind::Malformed;

    // Some servers end without [DONE]; a finish reason is as good an ending.
    bool complete() const { return done || !reply.finishReason.empty(); }

    bool onEvent(const SseEvent& e, StreamSink* sink) {
        if (e.data == "[DONE]") {
            done = true;
            return true;
        }
        json j;
        try {
            j = json::parse(e.data);
        } catch (const json::parse_error&) {
            error = "a stream event is not JSON: " + e.data.substr(0, 120);
            return false;
        }
        if (j.contains("error")) {
            error = "the server reported an error mid-stream: " + errorMessageOf(e.data);
            errorKind = FailureKind::Server;
            return false;
        }
        if (auto m = stringAt(j, "model"); !m.empty()) reply.model = m;
        readUsage(j, reply);
        if (!j.contains("choices") || !j["choices"].is_array()) return true;
        for (const auto& c : j["choices"]) {
            if (auto f = stringAt(c, "finish_reason"); !f.empty()) reply.finishReason = normalizeFinish(f);
            if (!c.contains("delta") || !c["delta"].is_object()) continue;
            const auto& d = c["delta"];
            for (const char* key : {"reasoning_content", "reasoning"})
                if (auto r = stringAt(d, key); !r.empty()) {
                    reply.reasoning += r;
                    if (sink) sink->reasoning(r);
                }
            if (auto t = stringAt(d, "content"); !t.empty()) {
                reply.text += t;
                if (sink) sink->text(t);
            }
        }
        return true;
    }
};

class OpenAiProvider final : public Provider {
  public:
    explicit OpenAiProvider(ModelConfig model) : model_(std::move(model)) {}

    CallOutcome call(const ChatRequest& request, StreamSink* sink, std::stop_token stop) override {
        return withStreamFallback(model_, request, noStream_, [&](bool stream) { return attempt(request, sink, stop, stream); });
    }

  private:
    CallOutcome attempt(const ChatRequest& request, StreamSink* sink, std::stop_token stop, bool stream) {
        const auto body = requestBody(request, stream);
        std::vector<std::string> headers = {"Content-Type: application/json",
                                            "Accept: " + std::string(stream ? "text/event-stream" : "application/json")};
        if (!model_.apiKey.empty()) headers.push_back("Authorization: Bearer " + model_.apiKey.reveal());
        const auto http =
            requestFor(model_, stream, joinUrl(model_.baseUrl, "/chat/completions"), std::move(headers), jsonText(body));

        return exchange<StreamState>(http, stream, sink, stop, model_.keySource, model_.model, "[DONE]",
                                     [this](const HttpResponse& r, const std::string& url) { return parseWhole(r, url); });
    }

    // Shaped by the model's family (model_families.h): the token field, and
    // sampling or effort only where the family accepts them.
    json requestBody(const ChatRequest& request, bool stream) const {
        const auto& f = model_.family;
        json body{{"model", model_.model},
                  {"messages", json::array({{{"role", "system"}, {"content", request.system}},
                                            {{"role", "user"}, {"content", request.user}}})},
                  {"stream", stream}};
        body[f.tokenField == TokenField::MaxCompletionTokens ? "max_completion_tokens" : "max_tokens"] = request.maxTokens;
        if (f.temperature) body["temperature"] = request.temperature;
        if (!model_.reasoningEffort.empty() && f.effortField == "reasoning_effort")
            body["reasoning_effort"] = model_.reasoningEffort;
        if (stream) body["stream_options"] = {{"include_usage", true}};
        return body;
    }

    CallOutcome parseWhole(const HttpResponse& response, const std::string& url) const {
        json j;
        if (auto failed = parseBody(response, url, j)) return *failed;
        if (!j.contains("choices") || !j["choices"].is_array() || j["choices"].empty() || !j["choices"][0].contains("message"))
            return CallOutcome::fail(FailureKind::Malformed, url + ": the reply has no choices[0].message", response.status);
        ChatReply reply;
        const auto& m = j["choices"][0]["message"];
        reply.text = stringAt(m, "content");
        reply.reasoning = stringAt(m, "reasoning_content");
        if (reply.reasoning.empty()) reply.reasoning = stringAt(m, "reasoning");
        reply.finishReason = normalizeFinish(stringAt(j["choices"][0], "finish_reason"));
        reply.model = stringAt(j, "model");
        readUsage(j, reply);
        return finishReply(std::move(reply), model_.model);
    }

    ModelConfig model_;
    std::atomic<bool> noStream_{false};
};

} // namespace

std::unique_ptr<Provider> makeOpenAiProvider(const ModelConfig& model) {
    return std::make_unique<OpenAiProvider>(model);
}

} // namespace kw::synth::llm
