#pragma once
// Values exchanged with a language-model provider: one request, one reply or
// one failure. Nothing here holds an API key.
#include <cstdint>
#include <string>
#include <string_view>

namespace kw::synth::llm {

struct ChatRequest {
    std::string system; // instructions and the output contract
    std::string user;   // the problem, the kernel, its feedback, the context
    double temperature = 0.7;
    int maxTokens = 8192;
    bool stream = true;
};

struct Usage {
    std::int64_t inputTokens = 0;
    std::int64_t outputTokens = 0;
};

struct ChatReply {
    std::string text;         // the answer
    std::string reasoning;    // thinking / reasoning content, when the API returns it apart
    std::string model;        // as reported by the server
    std::string finishReason; // normalized: stop | length | other text as sent
    Usage usage;
    bool usageEstimated = false; // the server reported none: counted as characters / 4
    bool streamed = false;
};

// Why a call failed; decides whether it is retried.
enum class FailureKind {
    Unauthorized, // 401/403: the key is missing or wrong; never retried
    RateLimited,  // 429: retried after Retry-After or a backoff
    Quota,        // out of credit or quota (429 insufficient_quota, a billing error): never retried, ends the search
    Server,       // 5xx / 529 overloaded: retried
    BadRequest,   // other 4xx: the request is wrong; not retried
    Connect,      // no connection: retried
    Timeout,      // connect or total time limit: retried
    Idle,         // the stream went quiet for longer than the idle limit: retried
    Truncated,    // the stream ended before its final event: retried
    Malformed,    // the body is not the protocol's JSON: recorded, not retried
    Cancelled,    // the stop token fired
};
std::string failureKindName(FailureKind kind);
bool isRetryable(FailureKind kind);

struct Failure {
    FailureKind kind = FailureKind::Server;
    std::string message; // what happened and what to do about it
    long httpStatus = 0;
    double retryAfterS = -1; // from retry-after-ms or Retry-After; < 0 when absent
};

struct CallOutcome {
    bool ok = false;
    ChatReply reply;         // when ok
    Failure failure;         // when not
    std::string partialText; // what had streamed in before a failure (kept for the record)
    std::string partialReasoning;
    Usage partialUsage; // what the server reported before a failure (a usage chunk), if anything

    static CallOutcome success(ChatReply r) {
        CallOutcome o;
        o.ok = true;
        o.reply = std::move(r);
        return o;
    }
    static CallOutcome fail(FailureKind kind, std::string message, long status = 0) {
        CallOutcome o;
        o.failure = Failure{kind, std::move(message), status, -1};
        return o;
    }
};

// Receives a streamed reply as it arrives (called from the calling thread of
// the provider, which is not the search's thread).
class StreamSink {
  public:
    virtual ~StreamSink() = default;
    virtual void text(std::string_view delta) = 0;
    virtual void reasoning(std::string_view delta) = 0;
};

} // namespace kw::synth::llm
