#include "synth/llm_synthesizer.h"

#include "problem/tunable_params.h"
#include "synth/llm/reply_parser.h"

#include <algorithm>

namespace kw::synth {

LlmSynthesizer::LlmSynthesizer(std::vector<std::unique_ptr<llm::LlmClient>> clients, LlmOptions options)
    : clients_(std::move(clients)), options_(std::move(options)) {}

LlmJob LlmSynthesizer::prepare(const llm::PromptInput& input, tree::NodeId parent, const std::string& parentSourceName,
                               std::mt19937_64& rng) const {
    LlmJob job;
    job.parent = parent;
    job.parentSourceName = parentSourceName;
    std::vector<double> weights;
    for (const auto& c : clients_) weights.push_back(c->model().weight);
    bool anyWeight = false;
    for (double w : weights) anyWeight = anyWeight || w > 0;
    if (!anyWeight) weights.assign(weights.size(), 1.0);
    std::discrete_distribution<std::size_t> pick(weights.begin(), weights.end());
    job.model = clients_.size() > 1 ? pick(rng) : 0;
    const auto& m = clients_[job.model]->model();
    const auto prompt = llm::buildPrompt(input, options_.promptTokenBudget);
    job.request.system = prompt.system;
    job.request.user = prompt.user;
    job.request.temperature = m.temperature;
    job.request.maxTokens = m.maxTokens;
    job.request.stream = m.stream;
    job.promptCut = prompt.cut;
    for (const auto& k : input.knowledge)
        if (std::find(prompt.cut.begin(), prompt.cut.end(), "knowledge: " + k.title) == prompt.cut.end())
            job.knowledge.push_back(k);
    job.rngSeed = rng();
    return job;
}

LlmResult LlmSynthesizer::run(const LlmJob& job, llm::StreamSink* sink, std::stop_token stop, const std::string& function,
                              const std::string& language) const {
    LlmResult result;
    result.job = job;
    const auto& client = *clients_[job.model];
    result.outcome = client.complete(job.request, sink, stop, job.rngSeed);
    const auto& call = result.outcome.call;
    // Every attempt is paid for, failed ones too.
    result.costUsd = client.model().cost(result.outcome.billed.inputTokens, result.outcome.billed.outputTokens);
    if (!call.ok) {
        result.error = "LLM call to " + client.model().name + " failed (" + llm::failureKindName(call.failure.kind) +
                       "): " + call.failure.message;
        return result;
    }
    auto parsed = llm::parseReply(call.reply.text, function, call.reply.finishReason, language);
    if (!parsed) {
        result.error = "the reply of " + client.model().name + " has no usable kernel: " + parsed.error().message;
        return result;
    }
    result.explanation = parsed->explanation;
    auto space = problem::parseParamDeclarations(parsed->code, "the reply");
    if (!space) {
        result.error = "the reply's @kw-param lines are invalid: " + space.error().message;
        return result;
    }
    Proposal p;
    p.parent = job.parent;
    p.origin = tree::NodeOrigin::Llm;
    p.sourceName = "llm";
    p.source = parsed->code;
    p.params = space->defaults();
    // The first sentence of the explanation is the tree's one-line rationale.
    std::string why = parsed->explanation;
    if (const auto end = why.find_first_of(".\n"); end != std::string::npos) why = why.substr(0, end + 1);
    p.rationale = why.size() > 200 ? why.substr(0, 200) + "..." : why;
    result.proposal = std::move(p);
    return result;
}

} // namespace kw::synth
