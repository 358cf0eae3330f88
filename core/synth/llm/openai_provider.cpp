// OpenAI's chat completions: POST {base}/chat/completions. Also what Ollama,
// vLLM and llama.cpp's server speak. Reasoning arrives as
// "reasoning_content" (vLLM, DeepSeek) or "reasoning" (Ollama, OpenRouter).
#include "synth/llm/providers.h"

#include "synth/llm/provider_common.h"
#include "synth/llm/sse_parser.h"

#include <nlohmann/json.hpp>

namespace ks::synth::llm {
namespace {

using nlohmann::json;

std::string stringAt(const json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

void readUsage(const json& j, ChatReply& reply) {
    if (!j.contains("usage") || !j["usage"].is_object()) return;
    reply.usage.inputTokens = j["usage"].value("prompt_tokens", std::int64_t{0});
    reply.usage.outputTokens = j["usage"].value("completion_tokens", std::int64_t{0});
}

std::string normalizeFinish(const std::string& f) { return f == "length" ? "length" : f.empty() ? "" : f == "stop" ? "stop" : f; }

// Accumulates a streamed reply; false on an event that is not the protocol's.
struct StreamState {
    ChatReply reply;
    bool done = false;
    std::string error;

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
        const bool stream = request.stream && model_.stream;
        json body{{"model", model_.model},
                  {"messages", json::array({{{"role", "system"}, {"content", request.system}}, {{"role", "user"}, {"content", request.user}}})},
                  {"temperature", request.temperature},
                  {"max_tokens", request.maxTokens},
                  {"stream", stream}};
        if (stream) body["stream_options"] = {{"include_usage", true}};
        HttpRequest http;
        http.url = joinUrl(model_.baseUrl, "/chat/completions");
        http.headers = {"Content-Type: application/json", "Accept: " + std::string(stream ? "text/event-stream" : "application/json")};
        if (!model_.apiKey.empty()) http.headers.push_back("Authorization: Bearer " + model_.apiKey.reveal());
        http.body = body.dump();
        http.connectTimeoutS = model_.connectTimeoutS;
        http.totalTimeoutS = model_.totalTimeoutS;
        http.idleTimeoutS = model_.idleTimeoutS;

        SseParser parser;
        StreamState state;
        bool broken = false;
        const auto response = httpPost(http, [&](std::string_view piece) {
            if (!stream || broken) return;
            for (const auto& e : parser.feed(piece))
                if (!state.onEvent(e, sink)) broken = true;
        }, stop);
        auto withPartial = [&](CallOutcome o) {
            o.partialText = state.reply.text;
            o.partialReasoning = state.reply.reasoning;
            return o;
        };
        if (auto f = classifyHttp(response, http.url, model_.keySource)) {
            CallOutcome o;
            o.failure = *f;
            return withPartial(o);
        }
        const auto type = response.headers.count("content-type") ? response.headers.at("content-type") : std::string();
        if (stream && type.find("text/event-stream") != std::string::npos) {
            if (broken) return withPartial(CallOutcome::fail(FailureKind::Malformed, http.url + ": " + state.error, response.status));
            if (!state.done && state.reply.finishReason.empty())
                return withPartial(CallOutcome::fail(FailureKind::Truncated, http.url + ": the stream ended before its last event ([DONE])", response.status));
            state.reply.streamed = true;
            return finish(std::move(state.reply));
        }
        // Not a stream (asked for none, or the server ignored "stream": true).
        return parseWhole(response, http.url);
    }

private:
    CallOutcome parseWhole(const HttpResponse& response, const std::string& url) const {
        json j;
        try {
            j = json::parse(response.body);
        } catch (const json::parse_error&) {
            return CallOutcome::fail(FailureKind::Malformed, url + ": the reply is not JSON: " + response.body.substr(0, 120), response.status);
        }
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
        return finish(std::move(reply));
    }

    CallOutcome finish(ChatReply reply) const {
        if (reply.model.empty()) reply.model = model_.model;
        if (reply.usage.inputTokens == 0 && reply.usage.outputTokens == 0) {
            reply.usageEstimated = true;
            reply.usage.outputTokens = static_cast<std::int64_t>((reply.text.size() + reply.reasoning.size() + 3) / 4);
        }
        return CallOutcome::success(std::move(reply));
    }

    ModelConfig model_;
};

} // namespace

std::unique_ptr<Provider> makeOpenAiProvider(const ModelConfig& model) { return std::make_unique<OpenAiProvider>(model); }

} // namespace ks::synth::llm
