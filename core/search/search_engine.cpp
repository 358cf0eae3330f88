#include "search/search_engine.h"

#include "problem/problem_loader.h"
#include "search/memory_operator.h"
#include "search/search_config_json.h"
#include "search/search_policy.h"
#include "synth/tuner.h"
#include "util/hash.h"
#include "util/log.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <deque>
#include <future>
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
    r.paramsJson = nlohmann::json(n.params).dump();
    r.state = n.state == NodeState::Pending ? "pending" : n.state == NodeState::Running ? "running" : "done";
    if (n.status) r.status = eval::statusName(*n.status);
    if (n.correct()) r.speedup = n.speedup;
    r.message = n.message;
    r.evaluationId = n.evaluationId;
    r.pinned = n.pinned;
    r.pruned = n.pruned;
    r.boost = n.boost;
    r.hint = n.hint;
    return r;
}

struct InFlight {
    NodeId node = 0;
    eval::PreparedJob job;
    std::future<eval::JobOutcome> outcome;
};

// The running state of one search; lives on the engine's thread only.
class Run {
public:
    Run(const store::Database& db, eval::Evaluator& evaluator, eval::EvalOptions options, store::SearchRecord search,
        problem::ProblemSpec problem, SearchConfig config, std::stop_token stop, SearchObserver* observer)
        : store_(db), evaluator_(evaluator), options_(std::move(options)), search_(std::move(search)),
          problem_(std::move(problem)), config_(config), stop_(stop), observer_(observer), policy_(makePolicy(config)),
          rng_(config.seed) {}

    Result<SearchOutcome> execute() {
        if (auto s = loadTree(); !s) return s.error();
        if (tree_.nodes().empty())
            if (auto s = addSeeds(); !s) return s.error();
        slots_ = config_.workers > 0 ? static_cast<std::size_t>(config_.workers) : evaluator_.executor().slots();
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
            if (inFlight_.empty() && (!stopReason_.empty() || (queue_.empty() && exhausted_))) break;
            if (inFlight_.empty() && paused_) {
                report(true);
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
                continue;
            }
            collect();
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
        return {};
    }

    Result<NodeId> insert(const synth::Proposal& p, const std::string& hint = {}) {
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
        queue_.push_back(n.id);
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
    }

    // Propose and submit until every slot is busy or the budget is committed.
    void fillSlots() {
        while (inFlight_.size() < slots_ && done_ + static_cast<int>(inFlight_.size()) < config_.maxEvaluations) {
            if (queue_.empty() && !propose()) break;
            const NodeId id = queue_.front();
            queue_.pop_front();
            if (!submit(id)) break;
        }
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
                f.job.request.stop = stop_;
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
                // Cancelled: stays pending in the store and is rerun on resume.
                (void)store_.setNodeState(it->node, "pending");
                it = inFlight_.erase(it);
                continue;
            }
            const auto result = evaluator_.finish(problem_, it->job, outcome);
            record(it->node, result, result.recordId);
            it = inFlight_.erase(it);
            any = true;
        }
        if (!any && !inFlight_.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }

    void record(NodeId id, const eval::EvaluationResult& result, std::int64_t evaluationId) {
        Node* n = tree_.find(id);
        const double bestBefore = tree_.best() ? tree_.best()->fitness() : 0;
        n->state = NodeState::Done;
        n->status = result.status;
        n->speedup = result.speedup.value_or(0);
        n->message = result.message;
        n->evaluationId = evaluationId;
        ++done_;
        policy_->observe(tree_, *n);
        const Node* best = tree_.best();
        // A gain is an improvement of more than the timing noise (0.5%).
        if (best && best->fitness() > bestBefore * 1.005) lastBestAt_ = done_;
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
        } else if (c.verb == "resume") {
            paused_ = false;
            search_.status = "running";
        } else if (c.verb == "stop") {
            stopReason_ = "stopped";
        } else if (c.verb == "budget") {
            if (!args.contains("max_evaluations") || !args["max_evaluations"].is_number_integer() || args["max_evaluations"].get<int>() < 1)
                return "rejected: budget needs max_evaluations >= 1";
            config_.maxEvaluations = args["max_evaluations"].get<int>();
            search_.configJson = toJson(config_).dump();
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
            auto id = insert(p, args.value("hint", ""));
            if (!id) return "failed: " + id.error().message;
            // A person's candidate goes next, ahead of the policy's proposals.
            queue_.pop_back();
            queue_.push_front(*id);
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
        observer_->progress(p);
    }

    double elapsed() const { return std::chrono::duration<double>(Clock::now() - started_).count(); }
    void note(const std::string& text) {
        log::search()->info("search {}: {}", search_.id, text);
        if (observer_) observer_->note(text);
    }

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
    r.configJson = toJson(config).dump();
    r.status = "created";
    return store::SearchStore(db).createSearch(r);
}

SearchEngine::SearchEngine(const store::Database& db, eval::Evaluator& evaluator, eval::EvalOptions options)
    : db_(db), evaluator_(evaluator), options_(std::move(options)) {}

Result<SearchOutcome> SearchEngine::run(std::int64_t searchId, std::stop_token stop, SearchObserver* observer) {
    store::SearchStore store(db_);
    auto search = store.loadSearch(searchId);
    if (!search) return search.error();
    if (search->ownerPid && *search->ownerPid != getpid() && kill(static_cast<pid_t>(*search->ownerPid), 0) == 0)
        return makeError(ErrorCode::InvalidArgument, "search " + std::to_string(searchId) + " is being run by process " +
                                                         std::to_string(*search->ownerPid) + "; steer it instead of running it twice");
    auto config = configFromJson(nlohmann::json::parse(search->configJson, nullptr, false));
    if (!config) return config.error();
    auto problem = problem::loadProblem(search->problemDir);
    if (!problem) return makeError(ErrorCode::Validation, "search " + std::to_string(searchId) + ": its problem no longer loads:\n" + problem.error().message);
    if (problem->contentHash != search->problemHash)
        log::search()->warn("search {}: problem {} changed since the search started; results may not compare", searchId, problem->name);
    Run run(db_, evaluator_, options_, *search, *problem, *config, stop, observer);
    return run.execute();
}

} // namespace ks::search
