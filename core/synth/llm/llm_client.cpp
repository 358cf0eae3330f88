#include "synth/llm/llm_client.h"

#include "util/log.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <mutex>

namespace kw::synth::llm {
namespace {

// Sleeps up to `seconds`; false when the stop token fired first.
bool pause(double seconds, std::stop_token stop) {
    std::mutex m;
    std::condition_variable_any cv;
    std::unique_lock lock(m);
    return !cv.wait_for(lock, stop, std::chrono::duration<double>(seconds), [] { return false; });
}

} // namespace

std::string failureKindName(FailureKind kind) {
    switch (kind) {
    case FailureKind::Unauthorized:
        return "unauthorized";
    case FailureKind::RateLimited:
        return "rate_limited";
    case FailureKind::Quota:
        return "quota";
    case FailureKind::Server:
        return "server_error";
    case FailureKind::BadRequest:
        return "bad_request";
    case FailureKind::Connect:
        return "connect";
    case FailureKind::Timeout:
        return "timeout";
    case FailureKind::Idle:
        return "idle_stream";
    case FailureKind::Truncated:
        return "truncated_stream";
    case FailureKind::Malformed:
        return "malformed_reply";
    case FailureKind::Cancelled:
        return "cancelled";
    }
    return "unknown";
}

bool isRetryable(FailureKind kind) {
    switch (kind) {
    case FailureKind::RateLimited:
    case FailureKind::Server:
    case FailureKind::Connect:
    case FailureKind::Timeout:
    case FailureKind::Idle:
    case FailureKind::Truncated:
        return true;
    default:
        return false;
    }
}

Usage billedUsage(const CallOutcome& o, const ChatRequest& request, bool& estimated) {
    const auto chars = [](std::size_t n) { return static_cast<std::int64_t>((n + 3) / 4); };
    if (o.ok) {
        Usage u = o.reply.usage;
        if (o.reply.usageEstimated) {
            u.inputTokens = chars(request.system.size() + request.user.size());
            estimated = true;
        }
        return u;
    }
    const auto& f = o.failure;
    const bool reachedModel = (f.httpStatus >= 200 && f.httpStatus < 300) || f.kind == FailureKind::Idle ||
                              f.kind == FailureKind::Timeout || f.kind == FailureKind::Truncated;
    if (!reachedModel) return o.partialUsage;
    // What the server counted so far (often only the prompt, at the start of
    // a stream), else the estimate; the output at least what streamed in.
    Usage u = o.partialUsage;
    if (u.inputTokens == 0) u.inputTokens = chars(request.system.size() + request.user.size());
    u.outputTokens = std::max(u.outputTokens, chars(o.partialText.size() + o.partialReasoning.size()));
    estimated = true;
    return u;
}

std::string promptCutWarning(const ModelConfig& model, const ChatRequest& request, const ChatReply& reply) {
    if (reply.usageEstimated || reply.usage.inputTokens <= 0) return "";
    const auto sent = static_cast<std::int64_t>((request.system.size() + request.user.size() + 3) / 4);
    // Tokenizers differ from characters / 4 by well under 2x on code and prose.
    if (sent < 1024 || reply.usage.inputTokens * 2 >= sent) return "";
    std::string text = model.name + ": the server counted " + std::to_string(reply.usage.inputTokens) +
                       " prompt tokens of about " + std::to_string(sent) + " sent: it cut the prompt to its context window";
    if (model.server == "ollama")
        text += "; start Ollama with a larger context (OLLAMA_CONTEXT_LENGTH=32768 ollama serve) or set num_ctx in a Modelfile";
    else
        text += "; raise the server's context length (vLLM --max-model-len, llama.cpp -c, SGLang --context-length)";
    return text;
}

LlmClient::LlmClient(ModelConfig model, std::unique_ptr<Provider> provider)
    : model_(std::move(model)), provider_(std::move(provider)) {}

double LlmClient::backoffSeconds(const ModelConfig& model, const Failure& failure, int retry, std::mt19937_64& rng) {
    // Retry-After is the server's word: waited as given (a rate limiter that
    // asks for more than the longest backoff still gets it, up to 10 minutes).
    if (failure.retryAfterS >= 0) return std::min(failure.retryAfterS, 600.0);
    const double ceiling = std::min(model.retryMaxS, model.retryBaseS * std::pow(2.0, retry));
    // "Full jitter" between half and all of the ceiling: concurrent callers spread out.
    std::uniform_real_distribution<double> u(0.5, 1.0);
    return ceiling * u(rng);
}

ClientOutcome LlmClient::complete(const ChatRequest& request, StreamSink* sink, std::stop_token stop,
                                  std::uint64_t rngSeed) const {
    ClientOutcome out;
    std::mt19937_64 rng(rngSeed);
    const auto start = std::chrono::steady_clock::now();
    for (int attempt = 0;; ++attempt) {
        out.call = provider_->call(request, sink, stop);
        const Usage billed = billedUsage(out.call, request, out.billedEstimated);
        out.billed.inputTokens += billed.inputTokens;
        out.billed.outputTokens += billed.outputTokens;
        if (out.call.ok) break;
        const auto& f = out.call.failure;
        if (!isRetryable(f.kind) || attempt >= model_.maxRetries || stop.stop_requested()) break;
        const double wait = backoffSeconds(model_, f, attempt, rng);
        log::llm()->info("{}: {} ({}); retry {} of {} in {:.1f} s", model_.name, failureKindName(f.kind), f.httpStatus,
                         attempt + 1, model_.maxRetries, wait);
        out.retries.push_back({f, wait, billed});
        if (!pause(wait, stop)) {
            out.call = CallOutcome::fail(FailureKind::Cancelled, "cancelled while waiting to retry");
            break;
        }
    }
    if (out.call.ok) out.warning = promptCutWarning(model_, request, out.call.reply);
    if (!out.warning.empty()) log::llm()->warn("{}", out.warning);
    if (out.call.ok && out.call.reply.usageEstimated)
        out.call.reply.usage.inputTokens = static_cast<std::int64_t>((request.system.size() + request.user.size() + 3) / 4);
    out.latencyS = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
}

} // namespace kw::synth::llm
