#include "synth/llm_setup.h"

#include "machine/machine_info.h"

#include <cstdlib>
#include <thread>

namespace kw::synth {

tree::ModelChoice parseModelChoice(const std::string& text) {
    tree::ModelChoice c{text, 1.0};
    const auto colon = text.rfind(':');
    if (colon == std::string::npos || colon + 1 >= text.size()) return c;
    try {
        std::size_t used = 0;
        const double w = std::stod(text.substr(colon + 1), &used);
        if (used == text.size() - colon - 1) c = {text.substr(0, colon), w};
    } catch (const std::exception&) {
        // Not a number: the colon belongs to the name (openai:gpt-4o).
    }
    return c;
}

Result<llm::LlmSettings> loadLlmSettings(const std::string& explicitFile) {
    if (!explicitFile.empty()) return llm::loadSettings(explicitFile, true);
    if (const char* env = std::getenv("KW_LLM_CONFIG"); env && *env) return llm::loadSettings(env, true);
    return llm::loadSettings(llm::defaultSettingsFile(), false);
}

Result<std::shared_ptr<const LlmSynthesizer>> makeLlmSynthesizer(const tree::SearchConfig& config,
                                                                 const std::string& llmConfigFile) {
    auto settings = loadLlmSettings(llmConfigFile);
    if (!settings) return settings.error();
    std::vector<std::unique_ptr<llm::LlmClient>> clients;
    for (const auto& choice : config.models) {
        auto model = llm::resolveModel(*settings, choice.name);
        if (!model) return model.error();
        model->weight = choice.weight;
        clients.push_back(std::make_unique<llm::LlmClient>(*model));
    }
    if (clients.empty())
        return makeError(ErrorCode::InvalidArgument, "no model given: add --model NAME (see `kernelwright-cli llm models`)");
    LlmOptions options;
    options.promptTokenBudget = config.promptTokens;
    const auto& machine = machine::machineInfo("g++");
    options.machine = machine.cpu + ", " + std::to_string(std::max(1u, std::thread::hardware_concurrency())) +
                      " hardware threads, " + machine.compilerVersion;
    return std::shared_ptr<const LlmSynthesizer>(std::make_shared<LlmSynthesizer>(std::move(clients), options));
}

} // namespace kw::synth
