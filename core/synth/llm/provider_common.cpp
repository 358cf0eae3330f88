#include "synth/llm/provider_common.h"

#include <nlohmann/json.hpp>

namespace ks::synth::llm {

std::string errorMessageOf(const std::string& body) {
    try {
        const auto j = nlohmann::json::parse(body);
        if (j.contains("error")) {
            const auto& e = j["error"];
            if (e.is_object() && e.contains("message") && e["message"].is_string()) return e["message"].get<std::string>();
            if (e.is_string()) return e.get<std::string>();
        }
        if (j.contains("message") && j["message"].is_string()) return j["message"].get<std::string>();
    } catch (const nlohmann::json::exception&) {
    }
    return body.size() > 300 ? body.substr(0, 300) + "..." : body;
}

std::optional<Failure> classifyHttp(const HttpResponse& r, const std::string& endpoint, const std::string& keyHint) {
    Failure f;
    f.httpStatus = r.status;
    switch (r.transport) {
    case TransportStatus::Ok:
        break;
    case TransportStatus::Cancelled:
        f.kind = FailureKind::Cancelled;
        f.message = "cancelled";
        return f;
    case TransportStatus::Idle:
        f.kind = FailureKind::Idle;
        f.message = endpoint + ": the reply stalled (no data within the idle limit); raise idle_timeout_s for slow models";
        return f;
    case TransportStatus::Timeout:
        f.kind = FailureKind::Timeout;
        f.message = endpoint + ": timed out (" + r.transportError +
                    "); raise connect_timeout_s / total_timeout_s if the server is just slow";
        return f;
    case TransportStatus::Connect:
        f.kind = FailureKind::Connect;
        f.message = endpoint + ": cannot connect (" + r.transportError + "); check base_url and that the server is running";
        return f;
    case TransportStatus::Other:
        // A connection that broke mid-reply: retried like a dropped connection.
        f.kind = r.status >= 200 && r.status < 300 ? FailureKind::Truncated : FailureKind::Connect;
        f.message = endpoint + ": the transfer failed (" + r.transportError + ")";
        return f;
    }
    if (r.status >= 200 && r.status < 300) return std::nullopt;
    const std::string detail = errorMessageOf(r.body);
    const std::string status = "HTTP " + std::to_string(r.status);
    if (auto it = r.headers.find("retry-after"); it != r.headers.end()) f.retryAfterS = parseRetryAfter(it->second);
    if (r.status == 401 || r.status == 403) {
        f.kind = FailureKind::Unauthorized;
        f.message = endpoint + ": " + status + " (" + detail + "); check the API key (" + keyHint + ")";
    } else if (r.status == 429) {
        f.kind = FailureKind::RateLimited;
        f.message = endpoint + ": " + status + " rate limited (" + detail + ")";
    } else if (r.status >= 500 || r.status == 408 || r.status == 409) {
        f.kind = FailureKind::Server;
        f.message = endpoint + ": " + status + " (" + detail + ")";
    } else {
        f.kind = FailureKind::BadRequest;
        f.message = endpoint + ": " + status + " (" + detail + "); the request was refused: check the model name and max_tokens";
    }
    return f;
}

HttpRequest requestFor(const ModelConfig& model, std::string url, std::vector<std::string> headers, std::string body) {
    HttpRequest http;
    http.url = std::move(url);
    http.headers = std::move(headers);
    http.body = std::move(body);
    http.connectTimeoutS = model.connectTimeoutS;
    http.totalTimeoutS = model.totalTimeoutS;
    http.idleTimeoutS = model.idleTimeoutS;
    return http;
}

std::optional<CallOutcome> parseBody(const HttpResponse& response, const std::string& url, nlohmann::json& out) {
    try {
        out = nlohmann::json::parse(response.body);
        return std::nullopt;
    } catch (const nlohmann::json::parse_error&) {
        return CallOutcome::fail(FailureKind::Malformed, url + ": the reply is not JSON: " + response.body.substr(0, 120),
                                 response.status);
    }
}

std::string stringAt(const nlohmann::json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

CallOutcome finishReply(ChatReply reply, const std::string& configuredModel) {
    if (reply.model.empty()) reply.model = configuredModel;
    if (reply.usage.inputTokens == 0 && reply.usage.outputTokens == 0) {
        reply.usageEstimated = true; // the caller adds the prompt's estimate
        reply.usage.outputTokens = static_cast<std::int64_t>((reply.text.size() + reply.reasoning.size() + 3) / 4);
    }
    return CallOutcome::success(std::move(reply));
}

std::string joinUrl(const std::string& base, const std::string& path) {
    std::string b = base;
    while (!b.empty() && b.back() == '/') b.pop_back();
    return b + path;
}

} // namespace ks::synth::llm
