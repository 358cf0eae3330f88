// kernelwright-cli llm models|test: which models are configured, and one tiny
// request to see that an endpoint answers.
#include "args.h"
#include "command_table.h"
#include "commands.h"
#include "exit_codes.h"
#include "synth/llm/model_families.h"
#include "synth/llm_setup.h"

#include <cstdio>

namespace kw::cli {
namespace {

const char* kLlmHelp = R"(usage: kernelwright-cli llm COMMAND [--llm-config FILE]

  models                 the configured models and their families (no keys are printed)
  test --model NAME      send one tiny request the model accepts; print latency,
                         model, family, tokens, reply

Models come from --llm-config FILE, else $KW_LLM_CONFIG, else
$XDG_CONFIG_HOME/kernelwright/llm.json (mode 0600 when it holds a key), or are
presets: openai:MODEL (key in OPENAI_API_KEY), anthropic:MODEL
(ANTHROPIC_API_KEY), ollama:MODEL (http://localhost:11434/v1), vllm:MODEL
(http://localhost:8000/v1), llamacpp:MODEL (http://localhost:8080/v1),
sglang:MODEL (http://localhost:30000/v1). OPENAI_BASE_URL, ANTHROPIC_BASE_URL,
OLLAMA_BASE_URL, VLLM_BASE_URL, LLAMACPP_BASE_URL and SGLANG_BASE_URL override
the presets' endpoints. Each model's family (which fields it accepts, how it
thinks, which endpoint serves it) comes from a built-in table that llm.json's
"families" rows extend; see the README.
)";

class PrintSink final : public synth::llm::StreamSink {
  public:
    void text(std::string_view d) override { std::fwrite(d.data(), 1, d.size(), stdout), std::fflush(stdout); }
    void reasoning(std::string_view) override {}
};

int models(const Args& args) {
    auto settings = synth::loadLlmSettings(args.value("llm-config").value_or(""));
    if (!settings) {
        std::fprintf(stderr, "llm models: %s\n", settings.error().message.c_str());
        return kExitError;
    }
    if (settings->models.empty())
        std::printf("no settings file (%s); presets: openai:MODEL, anthropic:MODEL, ollama:MODEL, vllm:MODEL, llamacpp:MODEL, "
                    "sglang:MODEL\n",
                    synth::llm::defaultSettingsFile().c_str());
    for (const auto& m : settings->models) {
        const bool keyed = !m.apiKey.empty() || (!m.apiKeyEnv.empty() && std::getenv(m.apiKeyEnv.c_str()));
        std::printf("%-20s %-9s %-28s %s  family: %s (%s)  key: %s  $%.3g/$%.3g per Mtok in/out\n", m.name.c_str(),
                    synth::llm::providerName(m.provider).c_str(), m.model.c_str(), m.baseUrl.c_str(), m.family.name.c_str(),
                    synth::llm::endpointName(m.family.endpoint).c_str(),
                    !m.apiKey.empty()     ? "in the file"
                    : m.apiKeyEnv.empty() ? "none needed"
                                          : (m.apiKeyEnv + (keyed ? " (set)" : " (NOT SET)")).c_str(),
                    m.priceInPerMTok, m.priceOutPerMTok);
    }
    for (const auto& m : settings->models)
        if (!m.familyNote.empty()) std::printf("note: %s\n", m.familyNote.c_str());
    return kExitOk;
}

int test(const Args& args) {
    auto name = args.value("model");
    if (!name) {
        std::fprintf(stderr, "llm test: --model NAME is required\n");
        return kExitUsage;
    }
    auto settings = synth::loadLlmSettings(args.value("llm-config").value_or(""));
    if (!settings) {
        std::fprintf(stderr, "llm test: %s\n", settings.error().message.c_str());
        return kExitError;
    }
    auto model = synth::llm::resolveModel(*settings, *name);
    if (!model) {
        std::fprintf(stderr, "llm test: %s\n", model.error().message.c_str());
        return kExitError;
    }
    synth::llm::LlmClient client(*model);
    synth::llm::ChatRequest request;
    request.system = "You are a terse assistant.";
    request.user = "Reply with the single word: ready";
    // A reasoning model spends tokens thinking before it answers: 16 would end
    // it mid-thought (finish "length", no text). Thinking budgets are added on
    // top by the provider.
    request.maxTokens = model->family.thinking == synth::llm::ThinkingForm::Effort ? 2048 : 16;
    request.temperature = 0;
    PrintSink sink;
    if (!model->familyNote.empty()) std::fprintf(stderr, "llm test: note: %s\n", model->familyNote.c_str());
    std::printf("%s (%s, %s, family %s, %s): ", model->name.c_str(), synth::llm::providerName(model->provider).c_str(),
                model->baseUrl.c_str(), model->family.name.c_str(), synth::llm::endpointName(model->family.endpoint).c_str());
    std::fflush(stdout);
    const auto out = client.complete(request, &sink, {}, 1);
    if (!out.call.ok) {
        std::printf("\n");
        std::fprintf(stderr, "llm test: %s\n", synth::llm::redact(out.call.failure.message, model->apiKey).c_str());
        return kExitError;
    }
    if (!out.call.reply.streamed) std::printf("%s", out.call.reply.text.c_str());
    std::printf("\nmodel %s, %.2f s, %lld in / %lld out tokens%s, $%.6f, %zu retr%s\n", out.call.reply.model.c_str(),
                out.latencyS, static_cast<long long>(out.billed.inputTokens), static_cast<long long>(out.billed.outputTokens),
                out.billedEstimated ? " (estimated)" : "", model->cost(out.billed.inputTokens, out.billed.outputTokens),
                out.retries.size(), out.retries.size() == 1 ? "y" : "ies");
    return kExitOk;
}

} // namespace

int runLlmCommand(const std::vector<std::string>& argv, const GlobalOptions&) {
    std::string error;
    auto args = Args::parse(argv, verb("llm").valued, verb("llm").flags, error, "llm");
    if (!args) {
        std::fprintf(stderr, "llm: %s\n", error.c_str());
        return kExitUsage;
    }
    if (args->has("help") || args->positional().empty()) {
        std::fputs(kLlmHelp, args->has("help") ? stdout : stderr);
        return args->has("help") ? kExitOk : kExitUsage;
    }
    const auto& verb = args->positional()[0];
    if (verb == "models") return models(*args);
    if (verb == "test") return test(*args);
    std::fprintf(stderr, "llm: unknown command '%s'\n\n%s", verb.c_str(), kLlmHelp);
    return kExitUsage;
}

} // namespace kw::cli
