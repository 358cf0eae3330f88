// OpenAI's Responses API: POST {base}/responses. The only endpoint of the
// codex and -pro models, and the one that returns reasoning summaries
// (chat completions reports only a count of reasoning tokens). Streamed as
// typed events: output text deltas, reasoning summary deltas, and one final
// response.completed / response.incomplete / response.failed with the usage.
#include "synth/llm/providers.h"
#include "util/json_text.h"

#include "synth/llm/provider_common.h"

#include <nlohmann/json.hpp>

#include <atomic>

namespace kw::synth::llm {
namespace {

using nlohmann::json;

void readUsage(const json& response, ChatReply& reply) {
    if (!response.contains("usage") || !response["usage"].is_object()) return;
    reply.usage.inputTokens = countAt(response["usage"], "input_tokens");
    reply.usage.outputTokens = countAt(response["usage"], "output_tokens");
}

// "completed" -> stop; an incomplete reply says why (max_output_tokens -> length).
std::string finishOf(const json& response) {
    const std::string status = stringAt(response, "status");
    if (status == "completed") return "stop";
    if (status == "incomplete") {
        const std::string why = response.contains("incomplete_details") && response["incomplete_details"].is_object()
                                    ? stringAt(response["incomplete_details"], "reason")
                                    : "";
        return why == "max_output_tokens" ? "length" : why.empty() ? "incomplete" : why;
    }
    return status;
}

std::string failureText(const json& response) {
    if (response.contains("error") && response["error"].is_object()) {
        const auto& e = response["error"];
        return stringAt(e, "code") + ": " + stringAt(e, "message");
    }
    return "the response failed";
}

struct StreamState {
    ChatReply reply;
    bool finished = false;
    bool partEnded = false; // a reasoning summary part ended; the next one starts a paragraph
    std::string error;
    FailureKind errorKind = FailureKind::Malformed;

    bool complete() const { return finished; }

    bool onEvent(const SseEvent& e, StreamSink* sink) {
        json j;
        try {
            j = json::parse(e.data);
        } catch (const json::parse_error&) {
            error = "a stream event is not JSON: " + e.data.substr(0, 120);
            return false;
        }
        const std::string type = stringAt(j, "type");
        if (type == "response.output_text.delta") {
            const auto t = stringAt(j, "delta");
            reply.text += t;
            if (sink && !t.empty()) sink->text(t);
        } else if (type == "response.reasoning_summary_text.delta" || type == "response.reasoning_text.delta") {
            // Summary parts are paragraphs: a blank line between them.
            const auto t = (partEnded && !reply.reasoning.empty() ? "\n\n" : "") + stringAt(j, "delta");
            partEnded = false;
            reply.reasoning += t;
            if (sink && !t.empty()) sink->reasoning(t);
        } else if (type == "response.reasoning_summary_part.done") {
            partEnded = true;
        } else if (type == "response.created" && j.contains("response")) {
            reply.model = stringAt(j["response"], "model");
        } else if (type == "response.completed" || type == "response.incomplete") {
            if (!j.contains("response") || !j["response"].is_object()) {
                error = type + " without its response";
                return false;
            }
            const auto& r = j["response"];
            if (auto m = stringAt(r, "model"); !m.empty()) reply.model = m;
            readUsage(r, reply);
            reply.finishReason = finishOf(r);
            finished = true;
        } else if (type == "response.failed") {
            const json r = j.contains("response") ? j["response"] : json::object();
            error = "the server reported a failed response mid-stream: " + failureText(r);
            errorKind = FailureKind::Server;
            return false;
        } else if (type == "error") {
            error = "the server reported an error mid-stream: " + stringAt(j, "code") + ": " + stringAt(j, "message");
            errorKind = stringAt(j, "code") == "rate_limit_exceeded" ? FailureKind::RateLimited : FailureKind::Server;
            return false;
        }
        return true; // response.in_progress, output_item.added/done, content_part.*, keep-alives
    }
};

class ResponsesProvider final : public Provider {
  public:
    explicit ResponsesProvider(ModelConfig model) : model_(std::move(model)) {}

    CallOutcome call(const ChatRequest& request, StreamSink* sink, std::stop_token stop) override {
        return withStreamFallback(model_, request, noStream_, [&](bool stream) { return attempt(request, sink, stop, stream); });
    }

  private:
    CallOutcome attempt(const ChatRequest& request, StreamSink* sink, std::stop_token stop, bool stream) {
        json body{{"model", model_.model}, {"instructions", request.system},
                  {"input", request.user}, {"max_output_tokens", request.maxTokens},
                  {"store", false},        {"stream", stream}};
        const auto& f = model_.family;
        if (f.temperature) body["temperature"] = request.temperature;
        if (f.thinking == ThinkingForm::Effort) {
            body["reasoning"] = {{"summary", "auto"}};
            if (!model_.reasoningEffort.empty()) body["reasoning"]["effort"] = model_.reasoningEffort;
        }
        std::vector<std::string> headers = {"Content-Type: application/json",
                                            "Accept: " + std::string(stream ? "text/event-stream" : "application/json")};
        if (!model_.apiKey.empty()) headers.push_back("Authorization: Bearer " + model_.apiKey.reveal());
        const auto http = requestFor(model_, stream, joinUrl(model_.baseUrl, "/responses"), std::move(headers), jsonText(body));
        return exchange<StreamState>(http, stream, sink, stop, model_.keySource, model_.model, "response.completed",
                                     [this](const HttpResponse& r, const std::string& url) { return parseWhole(r, url); });
    }

    CallOutcome parseWhole(const HttpResponse& response, const std::string& url) const {
        json j;
        if (auto failed = parseBody(response, url, j)) return *failed;
        if (stringAt(j, "status") == "failed")
            return CallOutcome::fail(FailureKind::Server, url + ": " + failureText(j), response.status);
        if (!j.contains("output") || !j["output"].is_array())
            return CallOutcome::fail(FailureKind::Malformed, url + ": the reply has no output array", response.status);
        ChatReply reply;
        for (const auto& item : j["output"]) {
            const std::string type = stringAt(item, "type");
            if (type == "message" && item.contains("content") && item["content"].is_array()) {
                for (const auto& part : item["content"])
                    if (stringAt(part, "type") == "output_text") reply.text += stringAt(part, "text");
            } else if (type == "reasoning" && item.contains("summary") && item["summary"].is_array()) {
                for (const auto& part : item["summary"]) {
                    if (!reply.reasoning.empty()) reply.reasoning += "\n\n";
                    reply.reasoning += stringAt(part, "text");
                }
            }
        }
        reply.model = stringAt(j, "model");
        reply.finishReason = finishOf(j);
        readUsage(j, reply);
        return finishReply(std::move(reply), model_.model);
    }

    ModelConfig model_;
    std::atomic<bool> noStream_{false};
};

} // namespace

std::unique_ptr<Provider> makeResponsesProvider(const ModelConfig& model) {
    return std::make_unique<ResponsesProvider>(model);
}

} // namespace kw::synth::llm
