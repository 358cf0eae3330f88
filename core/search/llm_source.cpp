#include "search/llm_source.h"

#include "search/memory_operator.h"
#include "store/evaluation_store.h"
#include "util/json_text.h"

#include <nlohmann/json.hpp>

namespace kw::search {
namespace {

// Forwards a streaming reply to the observer, naming the node being expanded.
class ObserverSink final : public synth::llm::StreamSink {
  public:
    ObserverSink(SearchObserver* observer, NodeId parent) : observer_(observer), parent_(parent) {}
    void text(std::string_view d) override { observer_->llmStream(parent_, false, d); }
    void reasoning(std::string_view d) override { observer_->llmStream(parent_, true, d); }

  private:
    SearchObserver* observer_;
    NodeId parent_;
};

std::string paramsLine(const problem::ParamAssignment& params) {
    std::string s;
    for (const auto& [k, v] : params) s += (s.empty() ? "" : " ") + k + "=" + v;
    return s;
}

} // namespace

LlmSource::LlmSource(std::shared_ptr<const synth::LlmSynthesizer> llm, std::shared_ptr<synth::KnowledgeRetriever> retriever,
                     const store::Database& db, const problem::ProblemSpec& problem, const SearchConfig& config)
    : llm_(std::move(llm)), retriever_(std::move(retriever)), db_(db), problem_(problem), config_(config) {}

bool LlmSource::start(const Context& ctx) {
    const bool torch = problem_.backend == problem::Backend::Torch;
    while (running() < config_.llmConcurrency && ctx.roomLeft()) {
        auto plan = ctx.policy.next(ctx.tree, ctx.rng);
        const Node* parent = plan ? ctx.tree.find(plan->parent) : nullptr;
        if (!parent) return false;
        auto source = ctx.sourceOf(parent->sourceHash);
        if (!source) {
            ctx.note(source.error().message);
            return true;
        }
        auto job = llm_->prepare(promptInput(ctx, *parent, *source, plan->op), parent->id, parent->sourceName, ctx.rng);
        std::shared_ptr<synth::llm::StreamSink> sink;
        if (ctx.observer) sink = std::make_shared<ObserverSink>(ctx.observer, parent->id);
        Call call;
        call.parent = parent->id;
        call.result = std::async(std::launch::async, [llm = llm_, job = std::move(job), sink, stop = stop_.get_token(),
                                                      fn = torch ? std::string("ModelNew") : problem_.function,
                                                      language = torch ? std::string("python") : std::string("cpp")] {
            return llm->run(job, sink.get(), stop, fn, language);
        });
        calls_.push_back(std::move(call));
    }
    return true;
}

std::vector<synth::LlmResult> LlmSource::ended() {
    std::vector<synth::LlmResult> out;
    for (auto it = calls_.begin(); it != calls_.end();) {
        if (it->result.wait_for(std::chrono::milliseconds(0)) != std::future_status::ready) {
            ++it;
            continue;
        }
        out.push_back(it->result.get());
        it = calls_.erase(it);
    }
    return out;
}

synth::llm::PromptInput LlmSource::promptInput(const Context& ctx, const Node& parent, const std::string& source,
                                               synth::Operator op) const {
    synth::llm::PromptInput in;
    in.problem = &problem_;
    in.machine = llm_->options().machine;
    in.source = source;
    in.params = paramsLine(parent.params);
    if (parent.evaluationId) {
        if (auto rec = store::EvaluationStore(db_).find(parent.evaluationId))
            if (auto r = eval::parseResultJson(rec->resultJson)) in.feedback = *r;
    }
    auto summarize = [](const Node* n) {
        synth::llm::NodeSummary s;
        s.id = n->id;
        s.origin = originName(n->origin);
        s.status = n->status ? eval::statusName(*n->status) : (n->state == NodeState::Pending ? "pending" : "running");
        s.speedup = n->speedup;
        s.params = paramsLine(n->params);
        s.message = n->message;
        return s;
    };
    const auto context = buildContext(ctx.tree, parent, config_.memory, {});
    for (const Node* a : context.ancestors) in.ancestors.push_back(summarize(a));
    for (const Node* sib : context.siblings) in.siblings.push_back(summarize(sib));
    in.hint = parent.hint;
    const auto signals = ctx.signalsOf(parent);
    for (const auto& s : signals) in.diagnosis.emplace_back(s.name, s.evidence);
    if (retriever_) {
        std::vector<std::string> diagnosis;
        if (parent.status) diagnosis.push_back(eval::statusName(*parent.status));
        for (const auto& s : signals) diagnosis.push_back(s.name);
        in.knowledge = retriever_->retrieve(problem_, diagnosis, source);
    }
    in.operation = op == synth::Operator::Restart ? "restart" : parent.finished() && !parent.correct() ? "fix" : "improve";
    if (const Node* b = ctx.tree.best()) in.bestSpeedup = b->fitness();
    in.targetSpeedup = config_.targetSpeedup;
    return in;
}

store::LlmCallRecord LlmSource::callRecord(const synth::LlmResult& r, std::int64_t searchId) const {
    const auto& model = llm_->model(r.job.model);
    const auto& call = r.outcome.call;
    store::LlmCallRecord rec;
    rec.searchId = searchId;
    rec.parentNodeId = r.job.parent;
    rec.provider = synth::llm::providerName(model.provider);
    rec.modelName = model.name;
    rec.model = call.ok && !call.reply.model.empty() ? call.reply.model : model.model;
    rec.systemPrompt = r.job.request.system;
    rec.prompt = r.job.request.user;
    rec.promptCutJson = jsonText(nlohmann::json(r.job.promptCut));
    // A server may echo the key back; nothing stored may hold it.
    rec.reply = synth::llm::redact(call.ok ? call.reply.text : call.partialText, model.apiKey);
    rec.reasoning = synth::llm::redact(call.ok ? call.reply.reasoning : call.partialReasoning, model.apiKey);
    // Every attempt's tokens: what the budget counts and the provider bills.
    rec.inputTokens = r.outcome.billed.inputTokens;
    rec.outputTokens = r.outcome.billed.outputTokens;
    rec.usageEstimated = r.outcome.billedEstimated;
    rec.costUsd = r.costUsd;
    rec.latencyS = r.outcome.latencyS;
    rec.attempts = static_cast<int>(r.outcome.retries.size()) + 1;
    rec.status = r.proposal ? "ok" : "error";
    std::string error = r.error;
    for (const auto& a : r.outcome.retries)
        error += "\nretried after " + synth::llm::failureKindName(a.failure.kind) + " (waited " + std::to_string(a.waitedS) +
                 " s; billed about " + std::to_string(a.billed.inputTokens) + " + " + std::to_string(a.billed.outputTokens) +
                 " tokens): " + a.failure.message;
    rec.error = synth::llm::redact(error, model.apiKey);
    return rec;
}

std::int64_t LlmSource::record(const synth::LlmResult& r, std::int64_t searchId, store::LlmSpend& spend,
                               const std::function<void(const std::string&)>& note) const {
    const auto rec = callRecord(r, searchId);
    auto id = store::LlmCallStore(db_).insert(rec);
    if (!id) note("could not record an LLM call: " + id.error().message);
    spend.calls += 1;
    spend.tokens += rec.inputTokens + rec.outputTokens;
    spend.costUsd += rec.costUsd;
    return id ? *id : 0;
}

void LlmSource::link(std::int64_t callId, NodeId node, const synth::LlmResult& r) const {
    if (!callId) return;
    store::LlmCallStore calls(db_);
    if (node) (void)calls.attachNode(callId, node);
    for (const auto& k : r.job.knowledge) (void)calls.recordRetrieval(callId, node, k.docId, k.section, k.score, k.reason);
}

std::string LlmSource::failure(const synth::LlmResult& r) const {
    return synth::llm::redact(r.error, llm_->model(r.job.model).apiKey);
}

synth::Proposal LlmSource::failureNode(NodeId parent, std::int64_t callId, const std::string& why) {
    const auto nl = why.find('\n');
    synth::Proposal p;
    p.parent = parent;
    p.origin = NodeOrigin::Llm;
    p.sourceName = "llm";
    p.source = "// No kernel: the synthesizer failed (LLM call " + std::to_string(callId) + ").\n// " + why.substr(0, nl) + "\n";
    p.rationale = why;
    return p;
}

} // namespace kw::search
