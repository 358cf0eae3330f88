#pragma once
// A provider makes one attempt at one chat call; retries live in llm_client.
#include "synth/llm/llm_config.h"
#include "synth/llm/llm_types.h"

#include <memory>
#include <stop_token>

namespace kw::synth::llm {

class Provider {
  public:
    virtual ~Provider() = default;
    // sink may be null; it sees the deltas of a streamed reply as they arrive.
    virtual CallOutcome call(const ChatRequest& request, StreamSink* sink, std::stop_token stop) = 0;
};

// The model's provider, by its family: OpenAI's chat completions (also Ollama, vLLM,
// llama.cpp's server, SGLang), OpenAI's Responses API, or Anthropic's Messages API.
std::unique_ptr<Provider> makeProvider(const ModelConfig& model);

} // namespace kw::synth::llm
