#pragma once
// Which models a search may call and how: provider, endpoint, key source,
// sampling, prices, limits. Read from a JSON file (mode 0600 when it holds a
// key) and the environment. Keys live only in memory, in Secret values.
#include "synth/llm/model_family.h"
#include "util/result.h"

#include <filesystem>
#include <string>
#include <vector>

namespace kw::synth::llm {

// An API key. It has no stream operator and no implicit conversion, so it
// cannot reach a log line or a JSON document by accident.
class Secret {
  public:
    Secret() = default;
    explicit Secret(std::string value) : value_(std::move(value)) {}
    bool empty() const { return value_.empty(); }
    const std::string& reveal() const { return value_; } // for the request header only

  private:
    std::string value_;
};

std::string providerName(ProviderKind kind);

struct ModelConfig {
    std::string name; // what a search refers to (--model NAME)
    ProviderKind provider = ProviderKind::OpenAi;
    std::string baseUrl;   // e.g. https://api.openai.com/v1, http://localhost:11434/v1
    std::string model;     // the provider's model id
    std::string apiKeyEnv; // environment variable holding the key ("" for none)
    Secret apiKey;         // resolved: from the config file, else apiKeyEnv
    std::string keySource; // where the key came from, for messages ("env OPENAI_API_KEY", "config file", "none")
    std::string server;    // openai | anthropic | ollama | vllm | llamacpp | sglang | "" (unknown OpenAI-compatible)
    double temperature = 0.7;
    bool temperatureSet = false; // written in the config (else the family's default applies)
    int maxTokens = 8192;
    int thinkingBudget = 0;      // Anthropic extended thinking tokens (0: off)
    std::string reasoningEffort; // low | medium | high | ... ("" : the service's default)
    ModelFamily family;          // what the model accepts (model_families.h)
    std::string familyNote;      // what was assumed for a model no family names ("" when known)
    double weight = 1;           // share of an ensemble's calls
    double priceInPerMTok = 0;   // USD per million input tokens
    double priceOutPerMTok = 0;
    bool stream = true;
    // firstByte: silence allowed before the reply starts (reasoning models
    // think silently, local servers load the model); idle: between chunks
    // after that. A call that does not stream waits for total only.
    double connectTimeoutS = 10, totalTimeoutS = 900, firstByteTimeoutS = 600, idleTimeoutS = 90;
    int maxRetries = 4;
    double retryBaseS = 1, retryMaxS = 60;

    double cost(std::int64_t inputTokens, std::int64_t outputTokens) const {
        return (static_cast<double>(inputTokens) * priceInPerMTok + static_cast<double>(outputTokens) * priceOutPerMTok) / 1e6;
    }
};

struct LlmSettings {
    std::vector<ModelConfig> models;
    std::vector<ModelFamily> families; // llm.json's own rows, ahead of the built-in table
    std::filesystem::path file;        // where they were read from ("" when none)
};

// $XDG_CONFIG_HOME/kernelwright/llm.json (default ~/.config/kernelwright/llm.json).
std::filesystem::path defaultSettingsFile();

// Reads the settings file; a missing default file gives empty settings, a
// missing explicit file is an error. A file holding an "api_key" must not be
// readable by group or others.
Result<LlmSettings> loadSettings(const std::filesystem::path& file, bool explicitFile);

// A model by configured name, or a preset "openai:MODEL", "anthropic:MODEL",
// "ollama:MODEL", "vllm:MODEL" (local endpoints, no key). Keys resolve here;
// a model that needs a key and has none is an error naming the variable.
Result<ModelConfig> resolveModel(const LlmSettings& settings, const std::string& name);

// Whether calls to the model cost money: a price is set, or it is a hosted
// service reached with a key. Local servers (ollama, vllm, llamacpp, sglang)
// without a price are not.
bool billed(const ModelConfig& model);

// Replaces every occurrence of the key in text (servers may echo it back).
std::string redact(std::string text, const Secret& key);

} // namespace kw::synth::llm
