#include "search/search_engine.h"
#include "util/json_text.h"

#include "store/profile_store.h"

#include "problem/problem_loader.h"
#include "search/memory_operator.h"
#include "search/search_config_json.h"
#include "search/search_policy.h"
#include "store/evaluation_store.h"
#include "store/llm_call_store.h"
#include "synth/llm_synthesizer.h"
#include "synth/tuner.h"
#include "util/hash.h"
#include "util/log.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <thread>

namespace ks::search {
namespace {

using Clock = std::chrono::steady_clock;

store::NodeRecord toRecord(const Node& n, std::int64_t searchId) {
    store::NodeRecord r;
    r.id = n.id;
    r.searchId = searchId;
    r.parentId = n.parent;
    r.seq = n.seq;
    r.origin = originName(n.origin);
    r.sourceName = n.sourceName;
    r.sourceHash = n.sourceHash;
    r.paramsJson = jsonText(nlohmann::json(n.params));
    r.state = n.state == NodeState::Pending ? "pending" : n.state == NodeState::Running ? "running" : "done";
    if (n.status) r.status = eval::statusName(*n.status);
    if (n.correct()) r.speedup = n.speedup;
    r.message = n.message;
    r.evaluationId = n.evaluationId;
    r.pinned = n.pinned;
    r.flagged = n.flagged;
    r.pruned = n.pruned;
    r.boost = n.boost;
    r.hint = n.hint;
    return r;
}

struct InFlight {
    NodeId node = 0;
    eval::PreparedJob job;
    std::future<eval::JobOutcome> outcome;
    // Cancels this job alone (its subtree pruned, the search paused on a
    // cluster); the search's stop token reaches it through `link`.
    std::stop_source cancel;
    std::unique_ptr<std::stop_callback<std::function<void()>>> link;
    bool requeue = false; // cancelled by a pause: evaluated again on resume
};

struct LlmInFlight {
    NodeId parent = 0;
    std::future<synth::LlmResult> result;
};

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

std::string firstLine(const std::string& text) {
    const auto nl = text.find('\n');
    return nl == std::string::npos ? text : text.substr(0, nl);
}

// The running state of one search; lives on the engine's thread only.
class Run {
public:
    Run(const store::Database& db, eval::Evaluator& evaluator, eval::EvalOptions options, store::SearchRecord search,
        problem::ProblemSpec problem, SearchConfig config, std::stop_token stop, SearchObserver* observer,
        std::shared_ptr<const synth::LlmSynthesizer> llm, std::shared_ptr<synth::KnowledgeRetriever> retriever,
        std::shared_ptr<const profile::Profiler> profiler)
        : db_(db), store_(db), evaluator_(evaluator), options_(std::move(options)), search_(std::move(search)),
          problem_(std::move(problem)), config_(config), stop_(stop), observer_(observer), policy_(makePolicy(config)),
          rng_(config.seed), llm_(std::move(llm)), retriever_(std::move(retriever)), profiler_(std::move(profiler)),
          // A stopped search cancels its LLM calls; so does a budget stop (below).
          stopLink_(stop_, [this] { llmStop_.request_stop(); }) {}

    // Pending LLM calls are cancelled, not awaited to the end (their futures block on destruction).
    ~Run() { llmStop_.request_stop(); }
    Run(const Run&) = delete;
    Run& operator=(const Run&) = delete;

    Result<SearchOutcome> execute() {
        if (config_.synth != SynthMode::Tuner && !llm_)
            return makeError(ErrorCode::InvalidArgument, "search " + std::to_string(search_.id) + " uses the " + synthModeName(config_.synth) +
                                                             " synthesizer but no language model was configured for this run");
        if (auto s = loadTree(); !s) return s.error();
        if (auto spend = store::LlmCallStore(db_).spend(search_.id)) spend_ = *spend;
        if (tree_.nodes().empty())
            if (auto s = addSeeds(); !s) return s.error();
        slots_ = config_.workers > 0 ? static_cast<std::size_t>(config_.workers) : evaluator_.executor().slotCount();
        search_.status = "running";
        search_.ownerPid = getpid();
        if (auto s = store_.updateSearch(search_); !s) return s.error();
        started_ = Clock::now();
        lastBestAt_ = done_;
        doneAtStart_ = done_; // the rate and ETA count this run's evaluations only

        while (true) {
            if (auto s = applyCommands(); !s) return s.error();
            if (stop_.stop_requested() && stopReason_.empty()) stopReason_ = "stopped";
            if (stopReason_.empty()) checkTermination();
            if (stopReason_.empty() && !paused_) fillSlots();
            if (!stopReason_.empty() && !llmCalls_.empty()) llmStop_.request_stop();
            if (inFlight_.empty() && llmCalls_.empty() && (!stopReason_.empty() || (queue_.empty() && exhausted_))) break;
            if (inFlight_.empty() && llmCalls_.empty() && paused_) {
                report(true);
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
                continue;
            }
            collect();
            collectLlm();
            report(false);
        }
        if (stopReason_.empty()) stopReason_ = exhausted_ ? "exhausted" : "budget";
        return finishRun();
    }

private:
    Status loadTree() {
        auto records = store_.loadNodes(search_.id);
        if (!records) return records.error();
        for (const auto& r : *records) {
            auto node = nodeFromRecord(r);
            if (!node) return node.error();
            // Interrupted work is evaluated again; its result was never recorded.
            if (node->state != NodeState::Done) {
                node->state = NodeState::Pending;
                queue_.push_back(node->id);
            }
            tree_.add(*node);
            if (node->finished()) {
                ++done_;
                policy_->observe(tree_, *tree_.find(node->id));
            }
            nextSeq_ = std::max<int>(nextSeq_, node->seq + 1);
        }
        if (!queue_.empty()) note("resuming: " + std::to_string(queue_.size()) + " interrupted evaluation(s) requeued");
        return {};
    }

    Status addSeeds() {
        std::vector<const problem::SourceFile*> seeds;
        for (const auto& s : problem_.seeds) seeds.push_back(&s);
        if (seeds.empty()) {
            note("problem " + problem_.name + " has no seed candidates; the search starts from its reference");
            seeds.push_back(&problem_.reference);
        }
        bool anyParams = false;
        for (const auto* seed : seeds) {
            anyParams = anyParams || !seed->params.params.empty();
            synth::Proposal p;
            p.origin = NodeOrigin::Seed;
            p.sourceName = seed->name;
            p.source = seed->text;
            p.params = seed->params.defaults();
            p.rationale = "seed";
            if (auto s = insert(p); !s) return s.error();
        }
        if (!anyParams) note("nothing to tune: no seed declares @ks-param lines; the seeds are still evaluated");
        if (config_.seedFromHistory) return addHistorySeeds();
        return {};
    }

    // The best kernels of earlier searches of the same problem on this
    // workspace (same operator, same machine) join the seeds.
    Status addHistorySeeds() {
        auto searches = store_.listSearches();
        if (!searches) return searches.error();
        int added = 0, known = 0;
        for (auto it = searches->rbegin(); it != searches->rend() && added + known < kHistorySeeds; ++it) {
            if (it->id == search_.id || it->problem != problem_.name || !it->bestNode || it->bestSpeedup.value_or(0) <= 0) continue;
            auto nodes = store_.loadNodes(it->id);
            if (!nodes) return nodes.error();
            for (const auto& n : *nodes) {
                if (n.id != *it->bestNode) continue;
                auto node = nodeFromRecord(n);
                auto source = store_.sourceText(n.sourceHash);
                if (!node || !source) break;
                if (tree_.contains(n.sourceHash, node->params)) { // the earlier best is one of this search's seeds already
                    ++known;
                    break;
                }
                synth::Proposal p;
                p.origin = NodeOrigin::Seed;
                p.sourceName = n.sourceName;
                p.source = *source;
                p.params = node->params;
                p.rationale = "best of search " + std::to_string(it->id) + " (" + std::to_string(it->bestSpeedup.value_or(0)) + "x)";
                if (auto s = insert(p); !s) return s.error();
                ++added;
                break;
            }
        }
        if (added + known == 0) note("no earlier search of " + problem_.name + " to seed from");
        else
            note("seeded from history: " + std::to_string(added) + " best kernel(s) of earlier searches of " + problem_.name + " added" +
                 (known ? ", " + std::to_string(known) + " already among the seeds" : ""));
        return {};
    }

    // Where a new node waits: behind the others, ahead of them (a person's
    // child), or nowhere (a node that is finished as it is made).
    enum class Queue { Back, Front, None };

    Result<NodeId> insert(const synth::Proposal& p, const std::string& hint = {}, Queue queue = Queue::Back) {
        Node n;
        n.parent = p.parent;
        n.seq = nextSeq_++;
        n.origin = p.origin;
        n.sourceName = p.sourceName;
        n.sourceHash = sha256Hex(p.source);
        n.params = p.params;
        n.hint = hint;
        n.message = p.rationale;
        if (auto s = store_.putSource(n.sourceHash, p.source); !s) return s.error();
        sources_[n.sourceHash] = p.source;
        auto record = toRecord(n, search_.id);
        auto id = store_.insertNode(record);
        if (!id) return id.error();
        n.id = *id;
        tree_.add(n);
        if (queue == Queue::Back) queue_.push_back(n.id);
        else if (queue == Queue::Front) queue_.push_front(n.id);
        return n.id;
    }

    Result<std::string> sourceOf(const std::string& hash) {
        auto it = sources_.find(hash);
        if (it != sources_.end()) return it->second;
        auto text = store_.sourceText(hash);
        if (!text) return text.error();
        sources_[hash] = *text;
        return *text;
    }

    void checkTermination() {
        const Node* best = tree_.best();
        if (config_.targetSpeedup > 0 && best && best->fitness() >= config_.targetSpeedup) stopReason_ = "target";
        else if (done_ >= config_.maxEvaluations) stopReason_ = "budget";
        else if (config_.maxWallSeconds > 0 && elapsed() >= config_.maxWallSeconds) stopReason_ = "wall_time";
        else if (config_.stallEvaluations > 0 && done_ - lastBestAt_ >= config_.stallEvaluations) stopReason_ = "stall";
        else if (config_.maxTokens > 0 && static_cast<double>(spend_.tokens) >= config_.maxTokens) stopReason_ = "token_budget";
        else if (config_.maxCostUsd > 0 && spend_.costUsd >= config_.maxCostUsd) stopReason_ = "cost_budget";
        else if (nearRooflineReached_) stopReason_ = "near_roofline";
    }

    // Propose and submit until every slot is busy or the budget is committed.
    void fillSlots() {
        while (inFlight_.size() < slots_ && done_ + static_cast<int>(inFlight_.size()) < config_.maxEvaluations) {
            if (queue_.empty() && !(config_.synth == SynthMode::Tuner ? propose() : proposePolish())) break;
            const NodeId id = queue_.front();
            queue_.pop_front();
            if (!submit(id)) break;
        }
        if (config_.synth != SynthMode::Tuner) startLlmCalls();
    }

    // Every node or call that will count against the budget.
    int committed() const {
        return done_ + static_cast<int>(inFlight_.size() + queue_.size() + llmCalls_.size());
    }

    // Starts LLM expansions (asynchronously) up to the configured concurrency.
    void startLlmCalls() {
        // Hybrid: polishing a correct LLM child is cheap and immediate; the
        // next LLM call waits until the tuner has had its turns.
        if (config_.synth == SynthMode::Hybrid && !polish_.empty()) return;
        while (static_cast<int>(llmCalls_.size()) < config_.llmConcurrency && committed() < config_.maxEvaluations) {
            auto plan = policy_->next(tree_, rng_);
            const Node* parent = plan ? tree_.find(plan->parent) : nullptr;
            if (!parent) {
                if (inFlight_.empty() && llmCalls_.empty() && queue_.empty()) exhausted_ = true;
                return;
            }
            auto source = sourceOf(parent->sourceHash);
            if (!source) {
                note(source.error().message);
                return;
            }
            const auto input = promptInput(*parent, *source, plan->op);
            auto job = llm_->prepare(input, parent->id, parent->sourceName, rng_);
            std::shared_ptr<synth::llm::StreamSink> sink;
            if (observer_) sink = std::make_shared<ObserverSink>(observer_, parent->id);
            LlmInFlight f;
            f.parent = parent->id;
            f.result = std::async(std::launch::async, [llm = llm_, job = std::move(job), sink, stop = llmStop_.get_token(),
                                                                     fn = problem_.backend == problem::Backend::Torch ? std::string("ModelNew") : problem_.function,
                                                                     language = problem_.backend == problem::Backend::Torch ? std::string("python") : std::string("cpp")] {
                return llm->run(job, sink.get(), stop, fn, language);
            });
            llmCalls_.push_back(std::move(f));
        }
    }

    synth::llm::PromptInput promptInput(const Node& parent, const std::string& source, synth::Operator op) {
        synth::llm::PromptInput in;
        in.problem = &problem_;
        in.machine = llm_->options().machine;
        in.source = source;
        in.params = paramsLine(parent.params);
        if (parent.evaluationId) {
            if (auto rec = store::EvaluationStore(db_).find(parent.evaluationId))
                if (auto r = eval::parseResultJson(rec->resultJson)) in.feedback = *r;
        }
        auto summarize = [&](const Node* n) {
            synth::llm::NodeSummary s;
            s.id = n->id;
            s.origin = originName(n->origin);
            s.status = n->status ? eval::statusName(*n->status) : (n->state == NodeState::Pending ? "pending" : "running");
            s.speedup = n->speedup;
            s.params = paramsLine(n->params);
            s.message = n->message;
            return s;
        };
        const auto ctx = buildContext(tree_, parent, config_.memory, {});
        for (const Node* a : ctx.ancestors) in.ancestors.push_back(summarize(a));
        for (const Node* sib : ctx.siblings) in.siblings.push_back(summarize(sib));
        in.hint = parent.hint;
        for (const auto& s : signalsOf(parent)) in.diagnosis.emplace_back(s.name, s.evidence);
        if (retriever_) {
            std::vector<std::string> diagnosis;
            if (parent.status) diagnosis.push_back(eval::statusName(*parent.status));
            for (const auto& s : signalsOf(parent)) diagnosis.push_back(s.name);
            in.knowledge = retriever_->retrieve(problem_, diagnosis, source);
        }
        in.operation = op == synth::Operator::Restart ? "restart" : parent.finished() && !parent.correct() ? "fix" : "improve";
        if (const Node* b = tree_.best()) in.bestSpeedup = b->fitness();
        in.targetSpeedup = config_.targetSpeedup;
        return in;
    }

    // Records every LLM call that ended: its row, and the node it produced
    // (or a failed node that says why there is no kernel).
    void collectLlm() {
        for (auto it = llmCalls_.begin(); it != llmCalls_.end();) {
            if (it->result.wait_for(std::chrono::milliseconds(0)) != std::future_status::ready) {
                ++it;
                continue;
            }
            const auto r = it->result.get();
            it = llmCalls_.erase(it);
            handleLlmResult(r);
        }
    }

    void handleLlmResult(const synth::LlmResult& r) {
        const auto& model = llm_->model(r.job.model);
        const auto& call = r.outcome.call;
        store::LlmCallRecord rec;
        rec.searchId = search_.id;
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
        rec.inputTokens = call.reply.usage.inputTokens;
        rec.outputTokens = call.reply.usage.outputTokens;
        rec.usageEstimated = call.reply.usageEstimated;
        rec.costUsd = r.costUsd;
        rec.latencyS = r.outcome.latencyS;
        rec.attempts = static_cast<int>(r.outcome.retries.size()) + 1;
        rec.status = r.proposal ? "ok" : "error";
        std::string error = r.error;
        for (const auto& a : r.outcome.retries)
            error += "\nretried after " + synth::llm::failureKindName(a.failure.kind) + " (waited " + std::to_string(a.waitedS) + " s): " + a.failure.message;
        rec.error = synth::llm::redact(error, model.apiKey);
        auto callId = store::LlmCallStore(db_).insert(rec);
        if (!callId) note("could not record an LLM call: " + callId.error().message);
        spend_.calls += 1;
        spend_.tokens += rec.inputTokens + rec.outputTokens;
        spend_.costUsd += rec.costUsd;

        if (!call.ok && call.failure.kind == synth::llm::FailureKind::Cancelled) return; // the search is ending
        const Node* parent = tree_.find(r.job.parent);
        std::optional<NodeId> nodeId;
        std::string why = synth::llm::redact(r.error, model.apiKey);
        if (r.proposal && parent) {
            if (!tree_.contains(sha256Hex(r.proposal->source), r.proposal->params)) {
                auto id = insert(*r.proposal, parent->hint);
                if (id) nodeId = *id;
                else why = "could not record the node: " + id.error().message;
            } else {
                why = "the reply repeats a kernel (source and params) already in the tree";
            }
        }
        if (nodeId) {
            llmFailuresInARow_ = 0;
        } else if (parent) {
            // The failure is a node of its own: visible in the tree, linked to the call.
            synth::Proposal p;
            p.parent = parent->id;
            p.origin = NodeOrigin::Llm;
            p.sourceName = "llm";
            p.source = "// No kernel: the synthesizer failed (LLM call " + std::to_string(callId ? *callId : 0) + ").\n// " + firstLine(why) + "\n";
            p.rationale = why;
            if (auto id = insert(p, {}, Queue::None)) {
                nodeId = *id;
                record(*id, eval::failedResult(eval::EvalStatus::SynthError, why), 0);
            }
            note(why);
            ++llmFailuresInARow_;
            if (!call.ok && call.failure.kind == synth::llm::FailureKind::Unauthorized) stopReason_ = "llm_unauthorized";
            else if (llmFailuresInARow_ >= kMaxLlmFailuresInARow) stopReason_ = "llm_failing";
        }
        if (callId && nodeId) (void)store::LlmCallStore(db_).attachNode(*callId, *nodeId);
        if (callId)
            for (const auto& k : r.job.knowledge)
                (void)store::LlmCallStore(db_).recordRetrieval(*callId, nodeId.value_or(0), k.docId, k.section, k.score, k.reason);
    }

    // Hybrid: the tuner's children of correct LLM nodes that declare params.
    bool proposePolish() {
        while (!polish_.empty()) {
            auto& [id, left] = polish_.front();
            const Node* n = tree_.find(id);
            if (!n || left <= 0) {
                polish_.pop_front();
                continue;
            }
            auto source = sourceOf(n->sourceHash);
            if (!source) {
                polish_.pop_front();
                continue;
            }
            synth::ExpansionRequest request;
            request.op = synth::Operator::Mutate;
            request.context = buildContext(tree_, *n, config_.memory, *source);
            auto proposal = tuner_.propose(request, [this](const std::string& h, const problem::ParamAssignment& a) { return tree_.contains(h, a); }, rng_);
            --left;
            if (!proposal || !*proposal) {
                polish_.pop_front();
                continue;
            }
            if (auto nid = insert(**proposal, n->hint); nid) return true;
        }
        return false;
    }

    // One new node from the policy and the tuner; false when none can be made.
    bool propose() {
        for (int attempt = 0; attempt < 32; ++attempt) {
            auto plan = policy_->next(tree_, rng_);
            if (!plan) break;
            const Node* parent = tree_.find(plan->parent);
            if (!parent) break;
            auto source = sourceOf(parent->sourceHash);
            if (!source) {
                note(source.error().message);
                return false;
            }
            synth::ExpansionRequest request;
            request.op = plan->op;
            request.context = buildContext(tree_, *parent, config_.memory, *source);
            request.partner = plan->partner ? tree_.find(plan->partner) : nullptr;
            auto proposal = tuner_.propose(request, [this](const std::string& h, const problem::ParamAssignment& a) { return tree_.contains(h, a); }, rng_);
            if (!proposal) {
                note("the tuner cannot expand node " + std::to_string(parent->id) + ": " + proposal.error().message);
                policy_->exhausted(parent->id, plan->op);
                continue;
            }
            if (!*proposal) {
                policy_->exhausted(parent->id, plan->op);
                continue;
            }
            auto id = insert(**proposal, parent->hint);
            if (!id) {
                note("could not record a node: " + id.error().message);
                return false;
            }
            return true;
        }
        if (inFlight_.empty()) exhausted_ = true;
        return false;
    }

    bool submit(NodeId id) {
        Node* n = tree_.find(id);
        auto source = sourceOf(n->sourceHash);
        if (!source) {
            note(source.error().message);
            return false;
        }
        eval::Candidate c{n->sourceName, *source, n->params};
        auto job = evaluator_.prepare(problem_, c, options_);
        InFlight f;
        f.node = id;
        if (!job) {
            // The candidate cannot even be prepared (e.g. a manual child with a
            // param outside its domain): a failed node, not a failed search.
            f.job.finished = eval::failedResult(eval::EvalStatus::CompileError, job.error().message);
        } else {
            f.job = std::move(*job);
            if (!f.job.finished) {
                f.link = std::make_unique<std::stop_callback<std::function<void()>>>(stop_, [s = f.cancel]() mutable { s.request_stop(); });
                f.job.request.stop = f.cancel.get_token();
                f.outcome = evaluator_.executor().submit(f.job.request);
            }
        }
        n->state = NodeState::Running;
        (void)store_.setNodeState(id, "running");
        inFlight_.push_back(std::move(f));
        return true;
    }

    // Waits briefly for any evaluation and records every one that ended.
    void collect() {
        bool any = false;
        for (auto it = inFlight_.begin(); it != inFlight_.end();) {
            const bool ready = !it->outcome.valid() || it->outcome.wait_for(std::chrono::milliseconds(0)) == std::future_status::ready;
            if (!ready) {
                ++it;
                continue;
            }
            eval::JobOutcome outcome;
            if (it->outcome.valid()) outcome = it->outcome.get();
            if (outcome.stopped) {
                // Cancelled: stays pending in the store and is rerun on resume
                // (a paused one in this run already, first of all).
                (void)store_.setNodeState(it->node, "pending");
                if (Node* n = tree_.find(it->node)) n->state = NodeState::Pending;
                if (it->requeue && !stop_.stop_requested()) queue_.push_front(it->node);
                it = inFlight_.erase(it);
                continue;
            }
            const auto result = evaluator_.finish(problem_, it->job, outcome);
            record(it->node, result, result.recordId);
            it = inFlight_.erase(it);
            any = true;
        }
        if (!any && (!inFlight_.empty() || !llmCalls_.empty())) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }

    // The node's diagnosis: profiled in this run, or stored by an earlier one.
    std::vector<profile::Signal> signalsOf(const Node& n) {
        if (auto it = signals_.find(n.id); it != signals_.end()) return it->second;
        return signals_[n.id] = profile::storedDiagnosis(db_, n.evaluationId);
    }

    // Roofline-level profile of a correct evaluation: stored with it, kept for
    // prompts and retrieval, and checked against stop_near_roofline.
    void profileNode(const Node& n, const eval::EvaluationResult& result) {
        if (!profiler_ || !result.correct() || result.timing.empty()) return;
        auto source = sourceOf(n.sourceHash);
        if (!source) return;
        const auto report = profiler_->profile(result, eval::ProfileLevel::Roofline, *source, jsonText(nlohmann::json(n.params)));
        signals_[n.id] = report.diagnosis;
        if (auto saved = profiler_->store(db_, n.evaluationId, report); !saved)
            log::search()->warn("node {}: profile not stored: {}", n.id, saved.error().message);
        if (config_.stopNearRoofline > 0 && report.roofline && report.roofline->total.rooflineFraction >= config_.stopNearRoofline) {
            log::search()->info("node {} reaches {:.0f}% of its roofline bound", n.id, report.roofline->total.rooflineFraction * 100);
            nearRooflineReached_ = true;
        }
    }

    void record(NodeId id, const eval::EvaluationResult& result, std::int64_t evaluationId) {
        Node* n = tree_.find(id);
        const double bestBefore = tree_.best() ? tree_.best()->fitness() : 0;
        n->state = NodeState::Done;
        n->status = result.status;
        n->speedup = result.speedup.value_or(0);
        n->flagged = result.implausibleSpeedup;
        n->message = result.message;
        n->evaluationId = evaluationId;
        profileNode(*n, result);
        ++done_;
        policy_->observe(tree_, *n);
        const Node* best = tree_.best();
        // A gain is an improvement of more than the timing noise (0.5%).
        if (best && best->fitness() > bestBefore * 1.005) lastBestAt_ = done_;
        if (config_.synth == SynthMode::Hybrid && n->origin == NodeOrigin::Llm && n->correct() && !n->params.empty() && config_.polishSteps > 0)
            polish_.push_back({n->id, config_.polishSteps});
        search_.evaluations = done_;
        if (best) {
            search_.bestNode = best->id;
            search_.bestSpeedup = best->fitness();
        }
        if (auto s = store_.finishNode(toRecord(*n, search_.id), search_); !s) note("could not record node " + std::to_string(id) + ": " + s.error().message);
        if (observer_) observer_->nodeFinished(*n);
    }

    Status applyCommands() {
        const auto now = Clock::now();
        if (now - lastCommandPoll_ < std::chrono::milliseconds(100)) return {};
        lastCommandPoll_ = now;
        auto commands = store_.pendingCommands(search_.id);
        if (!commands) return commands.error();
        for (const auto& c : *commands) (void)store_.markCommand(c.id, apply(c));
        return {};
    }

    std::string apply(const store::CommandRecord& c) {
        nlohmann::json args = nlohmann::json::parse(c.argsJson, nullptr, false);
        if (args.is_discarded() || !args.is_object()) return "rejected: arguments are not a JSON object";
        auto nodeArg = [&]() -> Node* { return args.contains("node") && args["node"].is_number_integer() ? tree_.find(args["node"].get<NodeId>()) : nullptr; };
        std::string outcome = "applied";
        if (c.verb == "pause") {
            paused_ = true;
            search_.status = "paused";
            // On a cluster, waiting jobs hold places in a queue others share:
            // a paused search takes its jobs back (elsewhere they drain).
            if (evaluator_.executor().cancelsOnPause())
                for (auto& f : inFlight_) {
                    f.requeue = true;
                    f.cancel.request_stop();
                }
        } else if (c.verb == "resume") {
            paused_ = false;
            search_.status = "running";
        } else if (c.verb == "stop") {
            stopReason_ = "stopped";
        } else if (c.verb == "budget") {
            if (!args.contains("max_evaluations") || !args["max_evaluations"].is_number_integer() || args["max_evaluations"].get<int>() < 1)
                return "rejected: budget needs max_evaluations >= 1";
            config_.maxEvaluations = args["max_evaluations"].get<int>();
            search_.configJson = jsonText(toJson(config_));
        } else if (c.verb == "prune" || c.verb == "unprune" || c.verb == "pin" || c.verb == "unpin" || c.verb == "boost" || c.verb == "hint") {
            Node* n = nodeArg();
            if (!n) return "rejected: no such node in search " + std::to_string(search_.id);
            if (c.verb == "prune") n->pruned = true;
            if (c.verb == "unprune") n->pruned = false;
            if (c.verb == "pin") n->pinned = true;
            if (c.verb == "unpin") n->pinned = false;
            if (c.verb == "boost") n->boost = args.value("amount", 1.0);
            if (c.verb == "hint") n->hint = args.value("text", "");
            if (c.verb == "prune") cancelPrunedPending();
            if (auto s = store_.updateNodeFlags(toRecord(*n, search_.id)); !s) return "failed: " + s.error().message;
        } else if (c.verb == "add_child") {
            Node* parent = nodeArg();
            if (!parent) return "rejected: no such parent node";
            synth::Proposal p;
            p.parent = parent->id;
            p.origin = NodeOrigin::Manual;
            p.sourceName = args.value("name", parent->sourceName);
            p.source = args.value("source", "");
            if (p.source.empty()) return "rejected: the manual child has no source";
            if (args.contains("params") && args["params"].is_object())
                for (auto it = args["params"].begin(); it != args["params"].end(); ++it)
                    p.params[it.key()] = it->is_string() ? it->get<std::string>() : it->dump();
            if (tree_.contains(sha256Hex(p.source), p.params)) return "rejected: this source and params are already in the tree";
            p.rationale = "manual child";
            // A person's candidate goes next, ahead of the policy's proposals.
            auto id = insert(p, args.value("hint", ""), Queue::Front);
            if (!id) return "failed: " + id.error().message;
            outcome = "applied: node " + std::to_string(*id);
        } else {
            return "rejected: unknown verb " + c.verb;
        }
        (void)store_.updateSearch(search_);
        note("command " + c.verb + " " + c.argsJson + ": " + outcome);
        return outcome;
    }

    void cancelPrunedPending() {
        for (auto it = queue_.begin(); it != queue_.end();) {
            if (tree_.inPrunedSubtree(*it)) it = queue_.erase(it);
            else ++it;
        }
        // Evaluations of pruned nodes under way are not wanted either.
        for (auto& f : inFlight_)
            if (tree_.inPrunedSubtree(f.node)) f.cancel.request_stop();
    }

    Result<SearchOutcome> finishRun() {
        SearchOutcome o;
        o.stopReason = stopReason_;
        o.status = stopReason_ == "stopped" ? "stopped" : "finished";
        o.evaluations = done_;
        if (const Node* b = tree_.best()) {
            o.bestNode = b->id;
            o.bestSpeedup = b->fitness();
        }
        search_.status = o.status;
        search_.stopReason = o.stopReason;
        search_.ownerPid.reset();
        if (auto s = store_.updateSearch(search_); !s) return s.error();
        (void)store_.appendEvent(search_.id, "search_ended", "{\"reason\":\"" + o.stopReason + "\"}");
        report(true);
        return o;
    }

    void report(bool force) {
        if (!observer_) return;
        const auto now = Clock::now();
        if (!force && now - lastReport_ < std::chrono::milliseconds(100)) return;
        lastReport_ = now;
        SearchProgress p;
        p.searchId = search_.id;
        p.done = done_;
        p.budget = config_.maxEvaluations;
        p.inFlight = static_cast<int>(inFlight_.size());
        if (const Node* b = tree_.best()) {
            p.bestNode = b->id;
            p.bestSpeedup = b->fitness();
        }
        p.elapsedSeconds = elapsed();
        const int thisRun = done_ - doneAtStart_;
        p.evaluationsPerMinute = p.elapsedSeconds > 0 ? thisRun / p.elapsedSeconds * 60 : 0;
        p.etaSeconds = thisRun > 0 ? (config_.maxEvaluations - done_) * p.elapsedSeconds / thisRun : 0;
        p.paused = paused_;
        p.llmInFlight = static_cast<int>(llmCalls_.size());
        p.llmCalls = spend_.calls;
        p.llmTokens = spend_.tokens;
        p.llmCostUsd = spend_.costUsd;
        observer_->progress(p);
    }

    double elapsed() const { return std::chrono::duration<double>(Clock::now() - started_).count(); }
    void note(const std::string& text) {
        log::search()->info("search {}: {}", search_.id, text);
        if (observer_) observer_->note(text);
    }

    static constexpr int kHistorySeeds = 3;         // earlier searches' best kernels, newest first
    static constexpr int kMaxLlmFailuresInARow = 8; // a broken endpoint ends the search instead of spending its budget

    const store::Database& db_;
    store::SearchStore store_;
    eval::Evaluator& evaluator_;
    eval::EvalOptions options_;
    store::SearchRecord search_;
    problem::ProblemSpec problem_;
    SearchConfig config_;
    std::stop_token stop_;
    SearchObserver* observer_;
    std::unique_ptr<SearchPolicy> policy_;
    synth::Tuner tuner_;
    std::mt19937_64 rng_;
    SearchTree tree_;
    std::map<std::string, std::string> sources_;
    std::map<NodeId, std::vector<profile::Signal>> signals_;
    bool nearRooflineReached_ = false;
    std::deque<NodeId> queue_;
    std::vector<InFlight> inFlight_;
    std::size_t slots_ = 1;
    int done_ = 0;
    int doneAtStart_ = 0;
    int lastBestAt_ = 0;
    int nextSeq_ = 1;
    bool paused_ = false;
    bool exhausted_ = false;
    std::string stopReason_;
    Clock::time_point started_ = Clock::now();
    Clock::time_point lastReport_{};
    Clock::time_point lastCommandPoll_{};
    std::shared_ptr<const synth::LlmSynthesizer> llm_;
    std::shared_ptr<synth::KnowledgeRetriever> retriever_;
    std::shared_ptr<const profile::Profiler> profiler_;
    std::stop_source llmStop_;
    std::stop_callback<std::function<void()>> stopLink_;
    std::vector<LlmInFlight> llmCalls_;
    store::LlmSpend spend_;
    int llmFailuresInARow_ = 0;
    std::deque<std::pair<NodeId, int>> polish_; // hybrid: (LLM node, tuner children left)
};

} // namespace

Result<Node> nodeFromRecord(const store::NodeRecord& r) {
    Node n;
    n.id = r.id;
    n.parent = r.parentId;
    n.seq = static_cast<int>(r.seq);
    auto origin = parseOrigin(r.origin);
    if (!origin) return makeError(ErrorCode::Database, "node " + std::to_string(r.id) + ": unknown origin " + r.origin);
    n.origin = *origin;
    n.sourceName = r.sourceName;
    n.sourceHash = r.sourceHash;
    auto params = nlohmann::json::parse(r.paramsJson, nullptr, false);
    if (params.is_discarded() || !params.is_object()) return makeError(ErrorCode::Database, "node " + std::to_string(r.id) + ": unreadable params");
    for (auto it = params.begin(); it != params.end(); ++it) n.params[it.key()] = it->get<std::string>();
    n.state = r.state == "done" ? NodeState::Done : r.state == "running" ? NodeState::Running : NodeState::Pending;
    if (r.status) n.status = eval::parseStatus(*r.status);
    n.speedup = r.speedup.value_or(0);
    n.flagged = r.flagged;
    n.message = r.message;
    n.evaluationId = r.evaluationId;
    n.pinned = r.pinned;
    n.pruned = r.pruned;
    n.boost = r.boost;
    n.hint = r.hint;
    return n;
}

Result<std::int64_t> SearchEngine::create(const store::Database& db, const problem::ProblemSpec& problem, const SearchConfig& config) {
    if (auto s = validate(config); !s) return s.error();
    store::SearchRecord r;
    r.problem = problem.name;
    r.problemDir = problem.dir.string();
    r.problemHash = problem.contentHash;
    r.configJson = jsonText(toJson(config));
    r.status = "created";
    return store::SearchStore(db).createSearch(r);
}

SearchEngine::SearchEngine(const store::Database& db, eval::Evaluator& evaluator, eval::EvalOptions options)
    : db_(db), evaluator_(evaluator), options_(std::move(options)) {}

Result<LoadedSearch> loadSearch(const store::Database& db, std::int64_t searchId) {
    auto search = store::SearchStore(db).loadSearch(searchId);
    if (!search) return search.error();
    auto config = configFromJson(nlohmann::json::parse(search->configJson, nullptr, false));
    if (!config) return config.error();
    auto problem = problem::loadProblem(search->problemDir);
    if (!problem) return makeError(ErrorCode::Validation, "search " + std::to_string(searchId) + ": its problem no longer loads:\n" + problem.error().message);
    if (problem->contentHash != search->problemHash)
        log::search()->warn("search {}: problem {} changed since the search started; results may not compare", searchId, problem->name);
    return LoadedSearch{std::move(*search), std::move(*config), std::move(*problem)};
}

Result<SearchOutcome> SearchEngine::run(std::int64_t searchId, std::stop_token stop, SearchObserver* observer) {
    auto loaded = loadSearch(db_, searchId);
    if (!loaded) return loaded.error();
    return run(*loaded, stop, observer);
}

Result<SearchOutcome> SearchEngine::run(const LoadedSearch& loaded, std::stop_token stop, SearchObserver* observer) {
    const auto& search = loaded.record;
    // The owner is read again: another process may have taken the search
    // since it was loaded.
    if (auto now = store::SearchStore(db_).loadSearch(search.id); now && now->ownerPid && *now->ownerPid != getpid() &&
                                                                   kill(static_cast<pid_t>(*now->ownerPid), 0) == 0)
        return makeError(ErrorCode::InvalidArgument, "search " + std::to_string(search.id) + " is being run by process " +
                                                         std::to_string(*now->ownerPid) + "; steer it instead of running it twice");
    Run run(db_, evaluator_, options_, search, loaded.problem, loaded.config, stop, observer, llm_, retriever_, profiler_);
    return run.execute();
}

} // namespace ks::search
