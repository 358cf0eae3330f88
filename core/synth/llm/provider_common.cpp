#include "synth/llm/provider_common.h"

#include "util/log.h"

#include <nlohmann/json.hpp>

#include <cstdlib>

namespace kw::synth::llm {

namespace {

// The error's machine-readable code or type ({"error": {"code"|"type": ...}}).
std::string errorCodeOf(const std::string& body) {
    try {
        const auto j = nlohmann::json::parse(body);
        if (j.contains("error") && j["error"].is_object()) {
            const auto& e = j["error"];
            for (const char* key : {"code", "type"})
                if (e.contains(key) && e[key].is_string() && !e[key].get<std::string>().empty()) return e[key].get<std::string>();
        }
    } catch (const nlohmann::json::exception&) {
    }
    return "";
}

// Out of money rather than out of breath: retrying cannot help.
bool isQuota(const std::string& code, const std::string& message) {
    return code == "insufficient_quota" || code == "billing_error" || code == "billing_hard_limit_reached" ||
           message.find("credit balance is too low") != std::string::npos ||
           message.find("exceeded your current quota") != std::string::npos;
}

} // namespace

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
    case TransportStatus::FirstByte:
        f.kind = FailureKind::Idle;
        f.message =
            endpoint + ": no reply began within the first-byte limit; raise first_byte_timeout_s for models that think long";
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
    // retry-after-ms (OpenAI's, finer) before Retry-After.
    if (auto it = r.headers.find("retry-after-ms"); it != r.headers.end()) {
        char* end = nullptr;
        const double ms = std::strtod(it->second.c_str(), &end);
        if (end && *end == '\0' && ms >= 0) f.retryAfterS = ms / 1000;
    }
    if (auto it = r.headers.find("retry-after"); f.retryAfterS < 0 && it != r.headers.end())
        f.retryAfterS = parseRetryAfter(it->second);
    const std::string code = errorCodeOf(r.body);
    if (r.status >= 400 && r.status < 500 && isQuota(code, detail)) {
        f.kind = FailureKind::Quota;
        f.message = endpoint + ": " + status + " " + (code.empty() ? "" : code + " ") + "(" + detail +
                    "): the account behind the key (" + keyHint + ") has no quota or credit left; add credit or use another key";
    } else if (r.status == 401 || r.status == 403) {
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

HttpRequest requestFor(const ModelConfig& model, bool stream, std::string url, std::vector<std::string> headers,
                       std::string body) {
    HttpRequest http;
    http.url = std::move(url);
    http.headers = std::move(headers);
    http.body = std::move(body);
    http.connectTimeoutS = model.connectTimeoutS;
    http.totalTimeoutS = model.totalTimeoutS;
    http.firstByteTimeoutS = stream ? model.firstByteTimeoutS : 0;
    http.idleTimeoutS = stream ? model.idleTimeoutS : 0;
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

bool refusedStreaming(const CallOutcome& o) {
    return !o.ok && o.failure.kind == FailureKind::BadRequest && o.failure.httpStatus == 400 &&
           o.failure.message.find("verified to stream") != std::string::npos;
}

CallOutcome withStreamFallback(const ModelConfig& model, const ChatRequest& request, std::atomic<bool>& noStream,
                               const std::function<CallOutcome(bool stream)>& attempt) {
    auto out = attempt(request.stream && model.stream && !noStream);
    if (model.family.streamNeedsVerification && refusedStreaming(out)) {
        // Not verified for streaming: whole replies from now on (waiting for
        // the total timeout only), said once.
        if (!noStream.exchange(true))
            log::llm()->warn("{}: the service does not stream this model to this organisation; calling without streaming "
                             "(set \"stream\": false in llm.json to skip the refused attempt)",
                             model.name);
        out = attempt(false);
    }
    return out;
}

std::int64_t countAt(const nlohmann::json& j, const char* key, std::int64_t fallback) {
    if (!j.is_object()) return fallback;
    auto it = j.find(key);
    return it != j.end() && it->is_number() ? it->get<std::int64_t>() : fallback;
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

} // namespace kw::synth::llm
