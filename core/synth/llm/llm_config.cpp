#include "synth/llm/llm_config.h"

#include "synth/llm/model_families.h"

#include "util/files.h"
#include "util/paths.h"

#include <nlohmann/json.hpp>
#include <sys/stat.h>

#include <cstdlib>

namespace kw::synth::llm {
namespace {

using nlohmann::json;

std::string envOr(const char* name, const std::string& fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::string(v) : fallback;
}

// The endpoint and key variable of each preset prefix.
bool applyPreset(const std::string& prefix, ModelConfig& m) {
    m.server = prefix;
    if (prefix == "openai") {
        m.provider = ProviderKind::OpenAi;
        m.baseUrl = envOr("OPENAI_BASE_URL", "https://api.openai.com/v1");
        m.apiKeyEnv = "OPENAI_API_KEY";
    } else if (prefix == "anthropic") {
        m.provider = ProviderKind::Anthropic;
        m.baseUrl = envOr("ANTHROPIC_BASE_URL", "https://api.anthropic.com");
        m.apiKeyEnv = "ANTHROPIC_API_KEY";
    } else if (prefix == "ollama") {
        m.provider = ProviderKind::OpenAi;
        m.baseUrl = envOr("OLLAMA_BASE_URL", "http://localhost:11434/v1");
    } else if (prefix == "vllm") {
        m.provider = ProviderKind::OpenAi;
        m.baseUrl = envOr("VLLM_BASE_URL", "http://localhost:8000/v1");
    } else if (prefix == "llamacpp") {
        m.provider = ProviderKind::OpenAi;
        m.baseUrl = envOr("LLAMACPP_BASE_URL", "http://localhost:8080/v1");
    } else if (prefix == "sglang") {
        m.provider = ProviderKind::OpenAi;
        m.baseUrl = envOr("SGLANG_BASE_URL", "http://localhost:30000/v1");
    } else {
        return false;
    }
    return true;
}

Status resolveKey(ModelConfig& m) {
    if (!m.apiKey.empty()) {
        m.keySource = "config file";
        return {};
    }
    if (m.apiKeyEnv.empty()) {
        m.keySource = "none";
        return {};
    }
    const char* v = std::getenv(m.apiKeyEnv.c_str());
    if (!v || !*v)
        return makeError(ErrorCode::InvalidArgument, "model " + m.name + " needs an API key: set the environment variable " +
                                                         m.apiKeyEnv + " (or \"api_key\" in " + defaultSettingsFile().string() +
                                                         ", mode 0600)");
    m.apiKey = Secret(v);
    m.keySource = "env " + m.apiKeyEnv;
    return {};
}

// The server behind a configured endpoint, when the config does not say.
std::string serverOf(const ModelConfig& m) {
    if (m.provider == ProviderKind::Anthropic) return "anthropic";
    if (m.baseUrl.find("api.openai.com") != std::string::npos) return "openai";
    if (m.baseUrl.find(":11434") != std::string::npos) return "ollama";
    return "";
}

// The model's family row; a configuration the family refuses is an error
// naming the file (or preset), the model and the key.
Status applyFamily(ModelConfig& m, const std::vector<ModelFamily>& families, const std::string& where) {
    auto match = familyOf(m, families);
    m.family = std::move(match.family);
    m.familyNote = std::move(match.assumed);
    const auto problems = configProblems(m, m.family);
    if (problems.empty()) return {};
    std::string text = where + ":";
    for (const auto& p : problems) text += "\n  " + p;
    return makeError(ErrorCode::Validation, text);
}

} // namespace

std::string providerName(ProviderKind kind) {
    return kind == ProviderKind::Anthropic ? "anthropic" : "openai";
}

std::filesystem::path defaultSettingsFile() {
    return paths::configDir() / "llm.json";
}

Result<LlmSettings> loadSettings(const std::filesystem::path& file, bool explicitFile) {
    LlmSettings settings;
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) {
        if (explicitFile) return makeError(ErrorCode::NotFound, file.string() + ": no such LLM settings file");
        return settings;
    }
    settings.file = file;
    auto text = readTextFile(file);
    if (!text) return text.error();
    json root;
    try {
        root = json::parse(*text);
    } catch (const json::parse_error& e) {
        return makeError(ErrorCode::ParseError, file.string() + ": not valid JSON: " + e.what());
    }
    if (!root.is_object() || !root.contains("models") || !root["models"].is_array())
        return makeError(ErrorCode::Validation, file.string() + ": expected {\"models\": [ ... ]}");
    if (root.contains("families")) {
        auto families = familiesFromJson(root["families"], file.string() + ":");
        if (!families) return families.error();
        settings.families = std::move(*families);
    }
    bool holdsKey = false;
    int i = 0;
    for (const auto& entry : root["models"]) {
        const std::string where = file.string() + ": /models/" + std::to_string(i++);
        if (!entry.is_object()) return makeError(ErrorCode::Validation, where + ": expected an object");
        try {
            ModelConfig m;
            m.name = entry.value("name", "");
            const std::string provider = entry.value("provider", "openai");
            if (m.name.empty()) return makeError(ErrorCode::Validation, where + "/name: required");
            if (provider == "anthropic")
                m.provider = ProviderKind::Anthropic;
            else if (provider == "openai")
                m.provider = ProviderKind::OpenAi;
            else
                return makeError(ErrorCode::Validation,
                                 where + "/provider: expected \"openai\" (any OpenAI-compatible server) or \"anthropic\"");
            m.baseUrl = entry.value("base_url", m.provider == ProviderKind::Anthropic ? "https://api.anthropic.com"
                                                                                      : "https://api.openai.com/v1");
            m.model = entry.value("model", m.name);
            m.apiKeyEnv = entry.value("api_key_env", "");
            if (entry.contains("api_key")) {
                m.apiKey = Secret(entry["api_key"].get<std::string>());
                holdsKey = true;
            }
            m.server = entry.value("server", "");
            m.temperatureSet = entry.contains("temperature");
            m.temperature = entry.value("temperature", m.temperature);
            m.reasoningEffort = entry.value("reasoning_effort", "");
            m.maxTokens = entry.value("max_tokens", m.maxTokens);
            m.thinkingBudget = entry.value("thinking_budget", m.thinkingBudget);
            m.weight = entry.value("weight", m.weight);
            m.priceInPerMTok = entry.value("price_in_per_mtok", 0.0);
            m.priceOutPerMTok = entry.value("price_out_per_mtok", 0.0);
            m.stream = entry.value("stream", true);
            m.connectTimeoutS = entry.value("connect_timeout_s", m.connectTimeoutS);
            m.totalTimeoutS = entry.value("total_timeout_s", m.totalTimeoutS);
            m.idleTimeoutS = entry.value("idle_timeout_s", m.idleTimeoutS);
            m.firstByteTimeoutS = entry.value("first_byte_timeout_s", m.firstByteTimeoutS);
            m.maxRetries = entry.value("max_retries", m.maxRetries);
            m.retryBaseS = entry.value("retry_base_s", m.retryBaseS);
            m.retryMaxS = entry.value("retry_max_s", m.retryMaxS);
            if (m.maxTokens < 1 || m.weight < 0 || m.maxRetries < 0 || m.temperature < 0)
                return makeError(ErrorCode::Validation,
                                 where + ": max_tokens must be >= 1; weight, max_retries and temperature >= 0");
            if (m.server.empty()) m.server = serverOf(m);
            if (auto st = applyFamily(m, settings.families, where); !st) return st.error();
            settings.models.push_back(std::move(m));
        } catch (const json::exception& e) {
            return makeError(ErrorCode::Validation, where + ": a field has the wrong type (" + std::string(e.what()) + ")");
        }
    }
    if (holdsKey) {
        struct stat st {};
        if (stat(file.c_str(), &st) == 0 && (st.st_mode & 077))
            return makeError(ErrorCode::Validation,
                             file.string() + " holds an API key but others can read it; run: chmod 600 " + file.string());
    }
    return settings;
}

bool billed(const ModelConfig& model) {
    if (model.priceInPerMTok > 0 || model.priceOutPerMTok > 0) return true;
    for (const char* local : {"ollama", "vllm", "llamacpp", "sglang"})
        if (model.server == local) return false;
    return !model.apiKeyEnv.empty() || model.keySource != "none";
}

Result<ModelConfig> resolveModel(const LlmSettings& settings, const std::string& name) {
    for (const auto& m : settings.models)
        if (m.name == name) {
            ModelConfig resolved = m;
            if (auto s = resolveKey(resolved); !s) return s.error();
            return resolved;
        }
    const auto colon = name.find(':');
    ModelConfig m;
    if (colon != std::string::npos && colon + 1 < name.size() && applyPreset(name.substr(0, colon), m)) {
        m.name = name;
        m.model = name.substr(colon + 1);
        if (auto st = applyFamily(m, settings.families, "preset " + name); !st) return st.error();
        if (auto s = resolveKey(m); !s) return s.error();
        return m;
    }
    std::string known;
    for (const auto& c : settings.models) known += (known.empty() ? "" : ", ") + c.name;
    return makeError(ErrorCode::NotFound,
                     "unknown model '" + name + "': use a name from " +
                         (settings.file.empty() ? defaultSettingsFile().string() + " (not present)" : settings.file.string()) +
                         (known.empty() ? "" : " (" + known + ")") +
                         ", or a preset openai:MODEL, anthropic:MODEL, ollama:MODEL, vllm:MODEL, llamacpp:MODEL, sglang:MODEL");
}

std::string redact(std::string text, const Secret& key) {
    if (key.reveal().size() < 4) return text; // too short to be a real key, and replacing it would garble text
    for (auto pos = text.find(key.reveal()); pos != std::string::npos; pos = text.find(key.reveal(), pos))
        text.replace(pos, key.reveal().size(), "[redacted]");
    return text;
}

} // namespace kw::synth::llm
