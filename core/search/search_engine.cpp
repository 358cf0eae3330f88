#include "search/search_engine.h"

#include "search/evaluation_slots.h"
#include "search/llm_source.h"
#include "search/node_profiling.h"
#include "search/node_record.h"
#include "search/search_config_json.h"
#include "search/search_owner.h"
#include "search/search_policy.h"
#include "search/seed_source.h"
#include "search/steering_apply.h"
#include "search/tuner_source.h"
#include "store/profile_store.h"
#include "util/hash.h"
#include "util/json_text.h"
#include "util/log.h"

#include <unistd.h>

#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <set>
#include <thread>

namespace kw::search {
namespace {

using Clock = std::chrono::steady_clock;

// The running state of one search; lives on the engine's thread only.
class Run final : public SteeringTarget {
  public:
    Run(const store::Database& db, eval::Evaluator& evaluator, eval::EvalOptions options, store::SearchRecord search,
        problem::ProblemSpec problem, SearchConfig config, std::stop_token stop, SearchObserver* observer,
        std::shared_ptr<const synth::LlmSynthesizer> llm, std::shared_ptr<synth::KnowledgeRetriever> retriever,
        std::shared_ptr<const profile::Profiler> profiler)
        : db_(db), store_(db), evaluator_(evaluator), options_(std::move(options)), search_(std::move(search)),
          problem_(std::move(problem)), config_(config), stop_(stop), observer_(observer), policy_(makePolicy(config)),
          rng_(config.seed), slots_(evaluator.executor(), stop), profiling_(db, std::move(profiler), config.stopNearRoofline),
          llmSource_(llm ? std::make_unique<LlmSource>(std::move(llm), std::move(retriever), db, problem_, config_) : nullptr),
          // A stopped search cancels its LLM calls; so does a budget stop (below).
          stopLink_(stop_, [this] {
              if (llmSource_) llmSource_->cancel();
          }) {}

    Run(const Run&) = delete;
    Run& operator=(const Run&) = delete;

    Result<SearchOutcome> execute() {
        if (config_.synth != SynthMode::Tuner && !llmSource_)
            return makeError(ErrorCode::InvalidArgument, "search " + std::to_string(search_.id) + " uses the " +
                                                             synthModeName(config_.synth) +
                                                             " synthesizer but no language model was configured for this run");
        if (auto s = loadTree(); !s) return s.error();
        if (auto spend = store::LlmCallStore(db_).spend(search_.id)) spend_ = *spend;
        if (tree_.nodes().empty())
            if (auto s = addSeeds(); !s) return s.error();
        slotCount_ = config_.workers > 0 ? static_cast<std::size_t>(config_.workers) : evaluator_.executor().slotCount();
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
            if (!stopReason_.empty() && llmRunning()) llmSource_->cancel();
            if (slots_.empty() && !llmRunning() && (!stopReason_.empty() || (queue_.empty() && exhausted_))) break;
            if (slots_.empty() && !llmRunning() && paused_) {
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
        const auto say = [this](const std::string& text) { note(text); };
        for (const auto& p : seedProposals(problem_, say))
            if (auto s = insert(p); !s) return s.error();
        if (!config_.seedFromHistory) return {};
        // The best kernels of earlier searches of the same problem on this
        // workspace (same operator, same machine) join the seeds.
        auto history = historyProposals(store_, search_.id, problem_, tree_, kHistorySeeds, say);
        if (!history) return history.error();
        for (const auto& p : *history) {
            if (tree_.contains(sha256Hex(p.source), p.params)) continue; // two earlier searches with one best
            if (auto s = insert(p); !s) return s.error();
        }
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
        // A pin for one expansion is spent once its node has a child.
        if (Node* parent = tree_.find(p.parent); parent && parent->pinned && parent->pinOnce) {
            parent->pinned = parent->pinOnce = false;
            if (auto s = flagsChanged(*parent); !s) return s.error();
        }
        if (queue == Queue::Back)
            queue_.push_back(n.id);
        else if (queue == Queue::Front)
            queue_.push_front(n.id);
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
        if (config_.targetSpeedup > 0 && best && best->fitness() >= config_.targetSpeedup)
            stopReason_ = "target";
        else if (done_ >= config_.maxEvaluations)
            stopReason_ = "budget";
        else if (config_.maxWallSeconds > 0 && elapsed() >= config_.maxWallSeconds)
            stopReason_ = "wall_time";
        else if (config_.stallEvaluations > 0 && done_ - lastBestAt_ >= config_.stallEvaluations)
            stopReason_ = "stall";
        else if (config_.maxTokens > 0 && static_cast<double>(spend_.tokens) >= config_.maxTokens)
            stopReason_ = "token_budget";
        else if (config_.maxCostUsd > 0 && spend_.costUsd >= config_.maxCostUsd)
            stopReason_ = "cost_budget";
        else if (profiling_.nearRooflineReached())
            stopReason_ = "near_roofline";
    }

    // Propose and submit until every slot is busy or the budget is committed.
    void fillSlots() {
        while (slots_.size() < slotCount_ && done_ + static_cast<int>(slots_.size()) < config_.maxEvaluations) {
            if (queue_.empty() && !(config_.synth == SynthMode::Tuner ? propose() : proposePolish())) break;
            const NodeId id = queue_.front();
            queue_.pop_front();
            if (!submit(id)) break;
        }
        if (config_.synth != SynthMode::Tuner) startLlmCalls();
    }

    // Every node or call that will count against the budget.
    int committed() const {
        return done_ + static_cast<int>(slots_.size() + queue_.size()) + (llmSource_ ? llmSource_->running() : 0);
    }
    bool llmRunning() const { return llmSource_ && llmSource_->running() > 0; }

    // Starts LLM expansions (asynchronously) up to the configured concurrency.
    void startLlmCalls() {
        // Hybrid: polishing a correct LLM child is cheap and immediate; the
        // next LLM call waits until the tuner has had its turns.
        if (config_.synth == SynthMode::Hybrid && tunerSource_.polishing()) return;
        const LlmSource::Context ctx{tree_,
                                     *policy_,
                                     rng_,
                                     [this] { return committed() < config_.maxEvaluations; },
                                     [this](const std::string& hash) { return sourceOf(hash); },
                                     [this](const Node& n) { return profiling_.signalsOf(n); },
                                     [this](const std::string& text) { note(text); },
                                     observer_};
        if (!llmSource_->start(ctx) && slots_.empty() && !llmRunning() && queue_.empty()) exhausted_ = true;
    }

    // Records every LLM call that ended: its row, and the node it produced
    // (or a failed node that says why there is no kernel).
    void collectLlm() {
        if (!llmSource_) return;
        for (const auto& r : llmSource_->ended()) handleLlmResult(r);
    }

    void handleLlmResult(const synth::LlmResult& r) {
        const auto callId = llmSource_->record(r, search_.id, spend_, [this](const std::string& text) { note(text); });
        const auto& call = r.outcome.call;
        if (!r.outcome.warning.empty() && warned_.insert(r.outcome.warning.substr(0, r.outcome.warning.find(':'))).second)
            note(r.outcome.warning);                                                     // once per model
        if (!call.ok && call.failure.kind == synth::llm::FailureKind::Cancelled) return; // the search is ending
        const Node* parent = tree_.find(r.job.parent);
        NodeId nodeId = 0;
        std::string why = llmSource_->failure(r);
        if (r.proposal && parent) {
            if (tree_.contains(sha256Hex(r.proposal->source), r.proposal->params))
                why = "the reply repeats a kernel (source and params) already in the tree";
            else if (auto id = insert(*r.proposal, parent->hint))
                nodeId = *id;
            else
                why = "could not record the node: " + id.error().message;
        }
        if (nodeId) {
            llmFailuresInARow_ = 0;
        } else if (parent) {
            if (auto id = insert(LlmSource::failureNode(parent->id, callId, why), {}, Queue::None)) {
                nodeId = *id;
                record(*id, eval::failedResult(eval::EvalStatus::SynthError, why), 0);
            }
            note(why);
            ++llmFailuresInARow_;
            if (!call.ok && call.failure.kind == synth::llm::FailureKind::Unauthorized)
                stopReason_ = "llm_unauthorized";
            else if (!call.ok && call.failure.kind == synth::llm::FailureKind::Quota)
                stopReason_ = "llm_quota";
            else if (llmFailuresInARow_ >= kMaxLlmFailuresInARow)
                stopReason_ = "llm_failing";
        }
        llmSource_->link(callId, nodeId, r);
    }

    TunerSource::Context tunerContext() {
        return {tree_,
                *policy_,
                rng_,
                config_.memory,
                [this](const std::string& hash) { return sourceOf(hash); },
                [this](const std::string& text) { note(text); }};
    }

    // Hybrid: the tuner's children of correct LLM nodes that declare params.
    bool proposePolish() {
        const auto ctx = tunerContext();
        while (auto p = tunerSource_.nextPolish(ctx))
            if (insert(*p, hintOf(p->parent))) return true;
        return false;
    }

    // One new node from the policy and the tuner; false when none can be made.
    bool propose() {
        auto p = tunerSource_.next(tunerContext());
        if (!p) {
            note(p.error().message);
            return false;
        }
        if (!*p) {
            if (slots_.empty()) exhausted_ = true;
            return false;
        }
        if (auto id = insert(**p, hintOf((*p)->parent)); !id) {
            note("could not record a node: " + id.error().message);
            return false;
        }
        return true;
    }

    // A child inherits its parent's hint.
    std::string hintOf(NodeId parent) const {
        const Node* n = tree_.find(parent);
        return n ? n->hint : std::string();
    }

    bool submit(NodeId id) {
        Node* n = tree_.find(id);
        auto source = sourceOf(n->sourceHash);
        if (!source) {
            note(source.error().message);
            return false;
        }
        eval::Candidate c{n->sourceName, *source, n->params};
        auto job = evaluator_.prepare(problem_, c, optionsFor(*n));
        if (!job) {
            // The candidate cannot even be prepared (e.g. a manual child with a
            // param outside its domain): a failed node, not a failed search.
            eval::PreparedJob failed;
            failed.finished = eval::failedResult(eval::EvalStatus::CompileError, job.error().message);
            job = std::move(failed);
        }
        n->state = NodeState::Running;
        (void)store_.setNodeState(id, "running");
        slots_.submit(id, std::move(*job));
        return true;
    }

    // Waits briefly for any evaluation and records every one that ended.
    void collect() {
        bool any = false;
        for (auto& e : slots_.ended()) {
            if (e.outcome.stopped) {
                // Cancelled: stays pending in the store and is rerun on resume
                // (a paused one in this run already, first of all).
                (void)store_.setNodeState(e.node, "pending");
                if (Node* n = tree_.find(e.node)) n->state = NodeState::Pending;
                if (e.requeue && !stop_.stop_requested()) queue_.push_front(e.node);
                continue;
            }
            const auto result = evaluator_.finish(problem_, e.job, e.outcome);
            record(e.node, result, result.recordId);
            any = true;
        }
        if (!any && (!slots_.empty() || llmRunning())) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }

    // GPU problems (torch, cuda): every ncu_every-th node also runs Nsight
    // Compute (a job that profiles bypasses the result cache; the job notes a
    // host without ncu).
    bool profilesWithNcu(const Node& n) const {
        return problem::runsOnGpu(problem_.backend) && config_.ncuEvery > 0 && n.seq % config_.ncuEvery == 0 &&
               options_.profile == eval::ProfileLevel::None && !options_.checkOnly;
    }

    eval::EvalOptions optionsFor(const Node& n) const {
        if (!profilesWithNcu(n)) return options_;
        eval::EvalOptions o = options_;
        o.profile = eval::ProfileLevel::Ncu;
        return o;
    }

    // The node's diagnosis: profiled in this run, or stored by an earlier one.
    // Roofline-level profile of a correct evaluation: stored with it, kept for
    // prompts and retrieval, and checked against stop_near_roofline.
    void profileNode(const Node& n, const eval::EvaluationResult& result) {
        if (!profiling_.enabled() || !result.correct() || result.timing.empty()) return;
        const auto level = profilesWithNcu(n)                             ? eval::ProfileLevel::Ncu
                           : options_.profile != eval::ProfileLevel::None ? options_.profile
                                                                          : eval::ProfileLevel::Roofline;
        if (auto source = sourceOf(n.sourceHash)) profiling_.profile(n, result, *source, level);
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
        if (config_.synth == SynthMode::Hybrid && n->origin == NodeOrigin::Llm && n->correct() && !n->params.empty() &&
            config_.polishSteps > 0)
            tunerSource_.polish(n->id, config_.polishSteps);
        search_.evaluations = done_;
        if (best) {
            search_.bestNode = best->id;
            search_.bestSpeedup = best->fitness();
        }
        if (auto s = store_.finishNode(toRecord(*n, search_.id), search_); !s)
            note("could not record node " + std::to_string(id) + ": " + s.error().message);
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
        const std::string outcome = applySteering(c, search_.id, *this);
        if (outcome.rfind("applied", 0) == 0) (void)store_.updateSearch(search_);
        note("command " + c.verb + " " + c.argsJson + ": " + outcome);
        return outcome;
    }

    // SteeringTarget: what a person may do to the running search.
    void pause() override {
        paused_ = true;
        search_.status = "paused";
        // On a cluster, waiting jobs hold places in a queue others share:
        // a paused search takes its jobs back (elsewhere they drain).
        if (evaluator_.executor().cancelsOnPause()) slots_.cancelAllForRequeue();
    }
    void resume() override {
        paused_ = false;
        search_.status = "running";
    }
    void stop() override { stopReason_ = "stopped"; }
    void setBudget(int maxEvaluations) override {
        config_.maxEvaluations = maxEvaluations;
        search_.configJson = jsonText(toJson(config_));
    }
    Node* findNode(NodeId id) override { return tree_.find(id); }
    bool readsHints() const override { return config_.synth != SynthMode::Tuner; }
    Status flagsChanged(Node& n) override {
        if (n.pruned) cancelPrunedPending();
        return store_.updateNodeFlags(toRecord(n, search_.id));
    }
    bool inTree(const synth::Proposal& p) const override { return tree_.contains(sha256Hex(p.source), p.params); }
    Result<NodeId> addManualChild(const synth::Proposal& p, const std::string& hint) override {
        return insert(p, hint, Queue::Front);
    }

    void cancelPrunedPending() {
        for (auto it = queue_.begin(); it != queue_.end();) {
            if (tree_.inPrunedSubtree(*it))
                it = queue_.erase(it);
            else
                ++it;
        }
        // Evaluations of pruned nodes under way are not wanted either.
        slots_.cancelIf([this](NodeId id) { return tree_.inPrunedSubtree(id); });
    }

    Result<SearchOutcome> finishRun() {
        SearchOutcome o;
        o.stopReason = stopReason_;
        o.status = stopReason_ == "stopped" ? "stopped" : "finished";
        o.evaluations = done_;
        if (const Node* b = tree_.best()) {
            o.bestNode = b->id;
            o.bestNumber = b->seq;
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
        p.inFlight = static_cast<int>(slots_.size());
        if (const Node* b = tree_.best()) {
            p.bestNode = b->id;
            p.bestNumber = b->seq;
            p.bestSpeedup = b->fitness();
        }
        p.elapsedSeconds = elapsed();
        const int thisRun = done_ - doneAtStart_;
        p.evaluationsPerMinute = p.elapsedSeconds > 0 ? thisRun / p.elapsedSeconds * 60 : 0;
        p.etaSeconds = thisRun > 0 ? (config_.maxEvaluations - done_) * p.elapsedSeconds / thisRun : 0;
        p.paused = paused_;
        p.llmInFlight = llmSource_ ? llmSource_->running() : 0;
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
    TunerSource tunerSource_;
    std::mt19937_64 rng_;
    SearchTree tree_;
    std::map<std::string, std::string> sources_;
    std::deque<NodeId> queue_;
    EvaluationSlots slots_;
    std::size_t slotCount_ = 1;
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
    NodeProfiling profiling_;
    std::unique_ptr<LlmSource> llmSource_; // before stopLink_, which may call it as it is made
    std::stop_callback<std::function<void()>> stopLink_;
    store::LlmSpend spend_;
    int llmFailuresInARow_ = 0;
    std::set<std::string> warned_; // models whose prompt-cut warning was noted
};

} // namespace

SearchEngine::SearchEngine(const store::Database& db, eval::Evaluator& evaluator, eval::EvalOptions options)
    : db_(db), evaluator_(evaluator), options_(std::move(options)) {}

Result<SearchOutcome> SearchEngine::run(std::int64_t searchId, std::stop_token stop, SearchObserver* observer) {
    auto loaded = loadSearch(db_, searchId);
    if (!loaded) return loaded.error();
    return run(*loaded, stop, observer);
}

Result<SearchOutcome> SearchEngine::run(const LoadedSearch& loaded, std::stop_token stop, SearchObserver* observer) {
    const auto& search = loaded.record;
    // The owner is read again: another process may have taken the search
    // since it was loaded.
    if (auto now = store::SearchStore(db_).loadSearch(search.id); now && ownerAlive(*now))
        return makeError(ErrorCode::InvalidArgument, "search " + std::to_string(search.id) + " is being run by process " +
                                                         std::to_string(*now->ownerPid) +
                                                         "; steer it instead of running it twice");
    Run run(db_, evaluator_, options_, search, loaded.problem, loaded.config, stop, observer, llm_, retriever_, profiler_);
    return run.execute();
}

} // namespace kw::search
