#pragma once
// One chat call with retries: exponential backoff with jitter on rate limits,
// server errors and broken connections, Retry-After honoured, no retry on
// 401/403 or a malformed reply, and the stop token ending any wait at once.
#include "synth/llm/provider.h"

#include <functional>
#include <random>

namespace kw::synth::llm {

struct Attempt {
    Failure failure;
    double waitedS = 0; // the pause before the next attempt
    Usage billed;       // what the attempt is likely billed (see billedUsage)
};

struct ClientOutcome {
    CallOutcome call;             // the last attempt's outcome
    std::vector<Attempt> retries; // the failed attempts before it
    double latencyS = 0;          // all attempts and waits
    Usage billed;                 // every attempt's, the last one's included: what a budget counts
    bool billedEstimated = false; // some of it was estimated (characters / 4)
    std::string warning;          // something the user should know ("" when none), e.g. a prompt cut by the server
};

// A warning when the server counted far fewer prompt tokens than were sent
// (Ollama's OpenAI endpoint silently cuts prompts to the server's context
// window, 2k-4k tokens by default); "" otherwise.
std::string promptCutWarning(const ModelConfig& model, const ChatRequest& request, const ChatReply& reply);

// What one attempt is likely billed: the server's usage where it reported
// any; else, when the request reached the model (a reply began, or it timed
// out or broke while the model worked), the prompt and whatever streamed in,
// as characters / 4 (`estimated` set); nothing for a refused request.
Usage billedUsage(const CallOutcome& attempt, const ChatRequest& request, bool& estimated);

class LlmClient {
  public:
    LlmClient(ModelConfig model, std::unique_ptr<Provider> provider);
    explicit LlmClient(ModelConfig model) : LlmClient(model, makeProvider(model)) {}

    const ModelConfig& model() const { return model_; }
    // Thread-safe: each call has its own transfer; rngSeed makes the jitter reproducible.
    ClientOutcome complete(const ChatRequest& request, StreamSink* sink, std::stop_token stop, std::uint64_t rngSeed) const;

    // The pause before retry number `retry` (0-based) after `failure`.
    static double backoffSeconds(const ModelConfig& model, const Failure& failure, int retry, std::mt19937_64& rng);

  private:
    ModelConfig model_;
    std::unique_ptr<Provider> provider_;
};

} // namespace kw::synth::llm
