#pragma once
// What both protocols share: turning HTTP outcomes into failures, and the
// JSON error message a service puts in its error body.
#include "synth/llm/http_client.h"
#include "synth/llm/llm_config.h"
#include "synth/llm/llm_types.h"
#include "synth/llm/sse_parser.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>

namespace kw::synth::llm {

// The failure of a finished HTTP exchange, or nullopt when it is a 2xx reply.
std::optional<Failure> classifyHttp(const HttpResponse& response, const std::string& endpoint, const std::string& keyHint);

// The text of an error body ({"error": {"message": ...}}), cut to a readable length.
std::string errorMessageOf(const std::string& body);

// "https://host/v1" + "/chat/completions", without doubled slashes.
std::string joinUrl(const std::string& base, const std::string& path);

// A POST to url with the model's timeouts (a call that does not stream waits
// for its total timeout only: the reply comes whole, after all the thinking).
HttpRequest requestFor(const ModelConfig& model, bool stream, std::string url, std::vector<std::string> headers,
                       std::string body);

// The whole body as JSON, or the failure that says it is not.
std::optional<CallOutcome> parseBody(const HttpResponse& response, const std::string& url, nlohmann::json& out);

// The service refused to stream this model to this organisation (OpenAI
// streams o3 and gpt-5 only to verified organisations): the call is made
// again without streaming.
bool refusedStreaming(const CallOutcome& outcome);

// One call through `attempt(stream)`: streamed unless `noStream` (shared by a
// provider's calls) says the service refused, in which case it goes whole;
// a refusal seen here sets noStream and the same call is made whole.
CallOutcome withStreamFallback(const ModelConfig& model, const ChatRequest& request, std::atomic<bool>& noStream,
                               const std::function<CallOutcome(bool stream)>& attempt);

// j[key] when it is a string, else "".
std::string stringAt(const nlohmann::json& j, const char* key);

// j[key] when j is an object and j[key] a number, else `fallback` (servers
// send "usage": null, or null counts, mid-stream).
std::int64_t countAt(const nlohmann::json& j, const char* key, std::int64_t fallback = 0);

// A reply with the model's name and the usage filled in where the server left
// them out (usage then counted as characters / 4, and marked estimated).
CallOutcome finishReply(ChatReply reply, const std::string& configuredModel);

// One exchange with either protocol. When the server streams, every SSE event
// goes through `state` (onEvent(event, sink) -> false on a bad event, with
// `error` and `errorKind` set; complete() -> whether the final event came);
// otherwise the whole body goes to parseWhole. What streamed in before a
// failure is kept in the outcome.
template <class State, class ParseWhole>
CallOutcome exchange(const HttpRequest& http, bool stream, StreamSink* sink, std::stop_token stop, const std::string& keySource,
                     const std::string& configuredModel, const char* finalEvent, ParseWhole parseWhole) {
    SseParser parser;
    State state;
    bool broken = false;
    const auto response = httpPost(
        http,
        [&](std::string_view piece) {
            if (!stream || broken) return;
            for (const auto& e : parser.feed(piece))
                if (!state.onEvent(e, sink)) broken = true;
        },
        stop);
    auto withPartial = [&](CallOutcome o) {
        o.partialText = state.reply.text;
        o.partialReasoning = state.reply.reasoning;
        o.partialUsage = state.reply.usage;
        return o;
    };
    if (auto f = classifyHttp(response, http.url, keySource)) {
        CallOutcome o;
        o.failure = *f;
        return withPartial(o);
    }
    const auto type = response.headers.count("content-type") ? response.headers.at("content-type") : std::string();
    if (stream && type.find("text/event-stream") != std::string::npos) {
        if (broken) return withPartial(CallOutcome::fail(state.errorKind, http.url + ": " + state.error, response.status));
        if (!state.complete())
            return withPartial(CallOutcome::fail(FailureKind::Truncated,
                                                 http.url + ": the stream ended before its last event (" + finalEvent + ")",
                                                 response.status));
        state.reply.streamed = true;
        return finishReply(std::move(state.reply), configuredModel);
    }
    // Not a stream: none was asked for, or the server ignored "stream": true.
    return parseWhole(response, http.url);
}

} // namespace kw::synth::llm
