// kernelwright-cli search start|resume|list|show|export and the steering verbs.
#include "args.h"
#include "command_table.h"
#include "commands.h"
#include "executor_options.h"
#include "exit_codes.h"
#include "search_notes_command.h"
#include "search_retime_command.h"
#include "synth/llm_setup.h"
#include "util/json_text.h"
#include "verdict_printer.h"

#include "eval/evaluator.h"
#include "kb/kb_index.h"
#include "machine/machine_cache.h"
#include "problem/problem_loader.h"
#include "report/secret_scrubber.h"
#include "report/standalone_kernel.h"
#include "search/search_config_json.h"
#include "search/search_engine.h"
#include "search/search_launcher.h"
#include "search/search_owner.h"
#include "search/steering.h"
#include "store/evaluation_store.h"
#include "store/llm_call_store.h"
#include "store/search_store.h"
#include "util/files.h"
#include "util/paths.h"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <thread>
#include <unistd.h>

namespace kw::cli {
namespace {

// "over the best baseline": the speedup beyond what already exists (a
// library, torch.compile), from the node's stored evaluation.
void printOverBestBaseline(const store::Database& db, std::int64_t evaluationId) {
    if (evaluationId <= 0) return;
    auto rec = store::EvaluationStore(db).find(evaluationId);
    if (!rec) return;
    auto r = eval::parseResultJson(rec->resultJson);
    if (!r || r->timing.empty() || r->timing.front().baselines.size() < 2) return;
    if (const auto best = r->speedupOverBestBaseline())
        std::printf("      %.3gx over the best baseline of each shape (mostly %s)\n", *best, r->bestBaselineName().c_str());
}

const char* kSearchHelp = R"(usage: kernelwright-cli search COMMAND ...

  start --problem DIR|NAME [--policy {policies}]
        [--budget N] [--workers N] [--seed S] [--memory {memory}]
        [--target X] [--stall K] [--time SECONDS] [--time-budget S] [--check-only]
        [--stop-near-roofline F]         end once a kernel reaches fraction F of its roofline bound
        [--sandbox POLICY]               run a new search
        [--synth {synths}]{synths-pad}who proposes children (default tuner)
        [--model NAME[:WEIGHT] ...]      llm/hybrid: the models (see `llm models`)
        [--max-tokens N] [--max-cost USD] [--llm-concurrency N] [--llm-config FILE]
        [--seed-from-history]            also start from earlier searches' best kernels
        [--distill]                      at the end, write what worked as a skill (pending review)
        [--executor local|ssh|slurm] [--executor-profile NAME] [--ssh-* ...] [--slurm-* ...]
                                         where candidates run (below)
  resume ID [--budget N] [--llm-config FILE] [--executor ... | --executor-profile NAME]
                                         continue an interrupted or paused search
  list [--all]                           the workspace's searches (--all: archived ones too)
  show ID [--all]                        the tree as text and the best node
  calls ID [--node N] [--full]           the LLM calls: model, tokens, cost, reply
                                         (nodes by their number in the search, #N)
  retime ID NODE... [--time-budget S]    time nodes again alone (2 s a shape), beside
                                         what the search measured
  export ID --best FILE                  the best kernel, its params baked in
                                         (export best ID --out DIR adds its results; see export --help)

what you keep about a search (also while it runs):
  rename ID NAME | note ID TEXT          its name, its notes ("" clears either)
  tag ID TAG... | untag ID TAG...        tags: letters, digits and - _ . : + = (VEC=8, sweep:v2)
  archive ID | unarchive ID              out of the lists, kept (search list --all shows it)
  delete ID --yes                        remove an ended search, its nodes and LLM calls
                                         (its evaluations stay, as the workspace's cache)

steering (also while the search runs in another process):
  pause ID | stop ID | budget ID N
  prune ID NODE | unprune ID NODE | pin ID NODE [--sticky] | unpin ID NODE
  boost ID NODE AMOUNT | hint ID NODE TEXT
  (NODE: the node's number in the search, #N, as search show lists it)
  (a pin makes the search expand NODE next, once; --sticky keeps it there
  until unpin)
  add-child ID PARENT FILE [--param K=V ...]

where candidates run (start, resume):
)";

// The help's choices come from the engine's name tables, so a policy, memory
// mode or synthesizer added there is offered here without a second list.
std::string searchHelp() {
    const auto joined = [](const std::vector<std::string>& names) {
        std::string text;
        for (const auto& n : names) text += (text.empty() ? "" : "|") + n;
        return text;
    };
    const std::string synths = joined(search::synthModeNames());
    std::string help = kSearchHelp;
    for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
             {"{policies}", joined(search::policyNames())},
             {"{memory}", joined(search::memoryModeNames())},
             {"{synths}", synths},
             {"{synths-pad}", std::string(std::max<std::size_t>(1, 23 - synths.size()), ' ')}})
        for (std::size_t at; (at = help.find(key)) != std::string::npos;) help.replace(at, key.size(), value);
    return help;
}

void printHelp(std::FILE* out) {
    std::fputs(searchHelp().c_str(), out);
    std::fputs(kExecutorHelp, out);
}

volatile std::sig_atomic_t gInterrupted = 0;
void onInterrupt(int) {
    gInterrupted = 1;
}

bool toInt(const std::string& s, long long& out) {
    try {
        std::size_t used = 0;
        out = std::stoll(s, &used);
        return used == s.size();
    } catch (const std::exception&) {
        return false;
    }
}

class ProgressPrinter final : public search::SearchObserver {
  public:
    ProgressPrinter() : tty_(isatty(STDOUT_FILENO) != 0) {}
    void progress(const search::SearchProgress& p) override {
        char line[384];
        std::snprintf(line, sizeof line, "search %lld: %d/%d evaluated, %d running, best %.3gx (node #%d), %.1f/min, ETA %s%s",
                      static_cast<long long>(p.searchId), p.done, p.budget, p.inFlight, p.bestSpeedup, p.bestNumber,
                      p.evaluationsPerMinute, p.etaSeconds > 0 ? formatDuration(p.etaSeconds).c_str() : "-",
                      p.paused ? " [paused]" : "");
        if (p.llmCalls > 0 || p.llmInFlight > 0) {
            const std::size_t used = std::strlen(line);
            std::snprintf(line + used, sizeof line - used, "; LLM %lld call(s), %d waiting, %lld tokens, $%.4f",
                          static_cast<long long>(p.llmCalls), p.llmInFlight, static_cast<long long>(p.llmTokens), p.llmCostUsd);
        }
        if (tty_) {
            std::printf("\r\033[K%s", line);
            std::fflush(stdout);
        } else if (p.done != lastDone_ || p.paused != lastPaused_) {
            // Plain lines for logs and pipes: one per finished evaluation at most.
            std::printf("%s\n", line);
            std::fflush(stdout);
        }
        lastDone_ = p.done;
        lastPaused_ = p.paused;
    }
    void note(const std::string& text) override {
        if (tty_) std::printf("\r\033[K");
        std::printf("note: %s\n", text.c_str());
        std::fflush(stdout);
    }
    void finish() {
        if (tty_) std::printf("\n");
    }

  private:
    bool tty_;
    int lastDone_ = -1;
    bool lastPaused_ = false;
};

Result<store::Database> openWorkspace(const GlobalOptions& global) {
    const std::filesystem::path path =
        global.database.empty() ? paths::defaultDatabase() : std::filesystem::path(global.database);
    return store::Database::open(path);
}

// llm: the synthesizer when the caller has built it already (start checks the
// models before creating the search); otherwise built here from the config.
int runEngine(store::Database& db, std::int64_t searchId, const Args& args,
              std::shared_ptr<const synth::LlmSynthesizer> llm = nullptr) {
    search::SearchLaunch launch;
    launch.searchId = searchId;
    auto choice = executorChoice(args, 0);
    if (!choice) {
        std::fprintf(stderr, "search: %s\n", choice.error().message.c_str());
        return kExitUsage;
    }
    launch.executor = *choice;
    launch.evalOptions.checkOnly = args.has("check-only");
    // torch problems: fitness is against eager PyTorch; compiling torch.compile's
    // baseline in every job would cost more than the kernel (eval and bench time it).
    launch.evalOptions.torchCompileBaseline = false;
    launch.evalOptions.timeBudgetS = 0.5;
    if (auto v = args.value("time-budget")) launch.evalOptions.timeBudgetS = std::stod(*v); // a number: Args::parse checked it
    launch.llmConfigFile = args.value("llm-config").value_or("");
    launch.llm = std::move(llm);
    launch.note = [](const std::string& m) { std::fprintf(stderr, "search: %s\n", m.c_str()); };
    auto launched = search::launchSearch(db, std::move(launch));
    if (!launched) {
        std::fprintf(stderr, "search: %s\n", launched.error().message.c_str());
        return exitCodeFor(launched.error());
    }
    std::stop_source stop;
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    std::jthread watcher([&stop](std::stop_token own) {
        while (!own.stop_requested() && !gInterrupted) std::this_thread::sleep_for(std::chrono::milliseconds(50));
        if (gInterrupted) stop.request_stop();
    });
    ProgressPrinter printer;
    auto outcome = (*launched)->run(stop.get_token(), &printer);
    printer.finish();
    watcher.request_stop();
    if (!outcome) {
        std::fprintf(stderr, "search: %s\n", outcome.error().message.c_str());
        return kExitError;
    }
    if (outcome->bestSpeedup > 0)
        std::printf("search %lld %s (%s): %d evaluations, best %.3gx at node #%d\n", static_cast<long long>(searchId),
                    outcome->status.c_str(), outcome->stopReason.c_str(), outcome->evaluations, outcome->bestSpeedup,
                    outcome->bestNumber);
    else
        std::printf("search %lld %s (%s): %d evaluations, no timed kernel%s\n", static_cast<long long>(searchId),
                    outcome->status.c_str(), outcome->stopReason.c_str(), outcome->evaluations,
                    outcome->bestNumber ? (" (node #" + std::to_string(outcome->bestNumber) + " checked first)").c_str() : "");
    if (outcome->status == "stopped")
        std::printf("continue with: kernelwright-cli search resume %lld\n", static_cast<long long>(searchId));
    // What the search learned (distill_skill), as a skill awaiting review.
    if (!outcome->skillError.empty()) std::fprintf(stderr, "search: no skill distilled: %s\n", outcome->skillError.c_str());
    if (!outcome->skillFile.empty())
        std::printf("skill %s written to %s (pending: kernelwright-cli kb skills approve %s)\n", outcome->skillId.c_str(),
                    outcome->skillFile.c_str(), outcome->skillId.c_str());
    return kExitOk;
}

int start(const Args& args, const GlobalOptions& global) {
    auto problemArg = args.value("problem");
    if (!problemArg) {
        std::fprintf(stderr, "search start: --problem DIR|NAME is required\n");
        return kExitUsage;
    }
    auto problem = problem::loadProblem(resolveProblemDir(*problemArg));
    if (!problem) {
        std::fprintf(stderr, "search start: invalid problem\n%s\n", problem.error().message.c_str());
        return kExitInvalidProblem;
    }
    nlohmann::json cfg = nlohmann::json::object();
    auto number = [&](const char* flag, const char* key, bool integer) -> bool {
        auto v = args.value(flag);
        if (!v) return true;
        try {
            std::size_t used = 0;
            if (integer)
                cfg[key] = std::stoll(*v, &used);
            else
                cfg[key] = std::stod(*v, &used);
            if (used != v->size()) throw std::invalid_argument(*v);
        } catch (const std::exception&) {
            std::fprintf(stderr, "search start: --%s expects a number, got '%s'\n", flag, v->c_str());
            return false;
        }
        return true;
    };
    if (auto p = args.value("policy")) cfg["policy"] = *p;
    if (auto v = args.value("synth")) cfg["synth"] = *v;
    if (args.has("seed-from-history")) cfg["seed_from_history"] = true;
    if (args.has("distill")) cfg["distill_skill"] = true;
    for (const auto& m : args.all("model")) {
        const auto choice = synth::parseModelChoice(m);
        cfg["models"].push_back({{"name", choice.name}, {"weight", choice.weight}});
    }
    if (!number("max-tokens", "max_tokens", false) || !number("max-cost", "max_cost_usd", false) ||
        !number("llm-concurrency", "llm_concurrency", true) || !number("polish", "polish_steps", true))
        return kExitUsage;
    if (auto m = args.value("memory")) cfg["memory"] = *m;
    if (!number("budget", "max_evaluations", true) || !number("workers", "workers", true) || !number("seed", "seed", true) ||
        !number("target", "target_speedup", false) || !number("stall", "stall_evaluations", true) ||
        !number("time", "max_wall_seconds", false) || !number("exploration", "mcts_exploration", false) ||
        !number("stop-near-roofline", "stop_near_roofline", false))
        return kExitUsage;
    auto config = search::configFromJson(cfg);
    if (!config) {
        std::fprintf(stderr, "search start: %s\n", config.error().message.c_str());
        return kExitUsage;
    }
    auto db = openWorkspace(global);
    if (!db) {
        std::fprintf(stderr, "search start: %s\n", db.error().message.c_str());
        return kExitError;
    }
    std::shared_ptr<const synth::LlmSynthesizer> llm;
    auto id = search::createSearch(*db, *problem, *config, args.value("llm-config").value_or(""), &llm);
    if (!id) {
        std::fprintf(stderr, "search start: %s\n", id.error().message.c_str());
        return exitCodeFor(id.error());
    }
    std::printf("search %lld: %s on %s, budget %d, policy %s, synth %s, seed %llu\n", static_cast<long long>(*id),
                problem->name.c_str(), db->path().c_str(), config->maxEvaluations, tree::policyName(config->policy).c_str(),
                tree::synthModeName(config->synth).c_str(), static_cast<unsigned long long>(config->seed));
    return runEngine(*db, *id, args, llm);
}

Result<store::SearchRecord> loadSearchArg(const store::Database& db, const std::string& idText) {
    long long id = 0;
    if (!toInt(idText, id))
        return makeError(ErrorCode::InvalidArgument, "'" + idText + "' is not a search id (see `search list`)");
    return store::SearchStore(db).loadSearch(id);
}

// The workspace and the search named on the command line, or a printed error
// and the exit code to return.
struct OpenedSearch {
    std::optional<store::Database> db;
    store::SearchRecord search;
    int failure = kExitOk;
};

OpenedSearch openSearch(const GlobalOptions& global, const std::string& idText, const char* verb) {
    OpenedSearch o;
    auto db = openWorkspace(global);
    if (!db) {
        std::fprintf(stderr, "search %s: %s\n", verb, db.error().message.c_str());
        o.failure = kExitError;
        return o;
    }
    auto search = loadSearchArg(*db, idText);
    if (!search) {
        std::fprintf(stderr, "search %s: %s\n", verb, search.error().message.c_str());
        o.failure = kExitUsage;
        return o;
    }
    o.db.emplace(std::move(*db));
    o.search = *search;
    return o;
}

int resume(const Args& args, const GlobalOptions& global) {
    const auto& pos = args.positional();
    if (pos.size() != 2) {
        std::fprintf(stderr, "usage: kernelwright-cli search resume ID [--budget N]\n");
        return kExitUsage;
    }
    auto opened = openSearch(global, pos[1], "resume");
    if (opened.failure) return opened.failure;
    auto& db = opened.db;
    auto* search = &opened.search;
    store::SearchStore store(*db);
    if (search::ownerAlive(*search)) {
        // Running elsewhere: resuming means un-pausing it.
        (void)store.postCommand(search->id, "resume", "{}");
        std::printf("search %lld runs in process %lld: asked it to resume\n", static_cast<long long>(search->id),
                    static_cast<long long>(*search->ownerPid));
        return kExitOk;
    }
    if (auto budget = args.value("budget")) {
        long long n = 0;
        if (!toInt(*budget, n) || n < 1) {
            std::fprintf(stderr, "search resume: --budget expects a positive number\n");
            return kExitUsage;
        }
        auto cfg = nlohmann::json::parse(search->configJson);
        cfg["max_evaluations"] = n;
        search->configJson = jsonText(cfg);
        if (auto s = store.updateSearch(*search); !s) {
            std::fprintf(stderr, "search resume: %s\n", s.error().message.c_str());
            return kExitError;
        }
    } else if (search->status == "finished" && search->stopReason != "stopped") {
        std::fprintf(stderr, "search %lld is finished (%s); give it more with --budget N\n", static_cast<long long>(search->id),
                     search->stopReason.c_str());
        return kExitUsage;
    }
    return runEngine(*db, search->id, args);
}

int list(const Args& args, const GlobalOptions& global) {
    auto db = openWorkspace(global);
    if (!db) {
        std::fprintf(stderr, "search list: %s\n", db.error().message.c_str());
        return kExitError;
    }
    auto searches = store::SearchStore(*db).listSearches();
    if (!searches) {
        std::fprintf(stderr, "search list: %s\n", searches.error().message.c_str());
        return kExitError;
    }
    std::printf("%4s  %-16s %-12s %-10s %6s %9s  %-24s %s\n", "id", "problem", "status", "policy", "evals", "best", "started",
                "name [tags]");
    int archived = 0;
    for (const auto& s : *searches) {
        if (s.archived && !args.has("all")) {
            ++archived;
            continue;
        }
        std::string kept = s.label;
        for (std::size_t i = 0; i < s.tags.size(); ++i) kept += (i ? ", " : (kept.empty() ? "[" : " [")) + s.tags[i];
        if (!s.tags.empty()) kept += "]";
        if (s.archived) kept += " (archived)";
        const auto cfg = nlohmann::json::parse(s.configJson, nullptr, false);
        std::string status = s.status;
        if (search::interrupted(s)) status = "interrupted";
        if (status == "finished" || status == "stopped") status += "/" + s.stopReason;
        char best[32] = "-";
        // A check-only search times nothing: no best speed, not 0x.
        if (s.bestSpeedup && *s.bestSpeedup > 0) std::snprintf(best, sizeof best, "%.3gx", *s.bestSpeedup);
        std::printf("%4lld  %-16s %-12s %-10s %6lld %9s  %-24s %s\n", static_cast<long long>(s.id), s.problem.c_str(),
                    status.c_str(), cfg.is_object() ? cfg.value("policy", "?").c_str() : "?",
                    static_cast<long long>(s.evaluations), best, s.createdAt.c_str(), kept.c_str());
    }
    if (archived) std::printf("(%d archived; search list --all lists them too)\n", archived);
    return kExitOk;
}

std::string paramsText(const store::NodeRecord& n) {
    const auto params = nlohmann::json::parse(n.paramsJson, nullptr, false);
    return params.is_object() ? problem::formatAssignment(params.get<problem::ParamAssignment>()) : n.paramsJson;
}

void printTree(const std::vector<store::NodeRecord>& nodes, std::int64_t bestNode, bool all) {
    std::map<std::int64_t, std::vector<const store::NodeRecord*>> children;
    for (const auto& n : nodes) children[n.parentId].push_back(&n);
    std::set<std::int64_t> onBestPath;
    std::map<std::int64_t, const store::NodeRecord*> byId;
    for (const auto& n : nodes) byId[n.id] = &n;
    for (auto id = bestNode; id && byId.count(id); id = byId[id]->parentId) onBestPath.insert(id);
    int hidden = 0;
    std::function<void(std::int64_t, const std::string&)> walk = [&](std::int64_t parent, const std::string& indent) {
        const auto& kids = children[parent];
        for (std::size_t i = 0; i < kids.size(); ++i) {
            const auto* n = kids[i];
            const bool last = i + 1 == kids.size();
            // Without --all: the best path, and failures and leaves only near it.
            if (!all && !onBestPath.count(n->id) && !onBestPath.count(n->parentId)) {
                ++hidden;
                continue;
            }
            char speed[32] = "";
            if (n->speedup && *n->speedup > 0)
                std::snprintf(speed, sizeof speed, " %.3gx", *n->speedup);
            else if (n->status == eval::statusName(eval::EvalStatus::Ok))
                std::snprintf(speed, sizeof speed, " (checked, not timed)");
            std::printf("%s%s#%lld %s%s [%s]%s %s%s%s\n", indent.c_str(), last ? "└─ " : "├─ ", static_cast<long long>(n->seq),
                        n->status.value_or(n->state).c_str(), speed, n->origin.c_str(), onBestPath.count(n->id) ? " *" : "",
                        paramsText(*n).c_str(), n->pruned ? " (pruned)" : "", n->pinned ? " (pinned)" : "");
            walk(n->id, indent + (last ? "   " : "│  "));
        }
    };
    walk(0, "");
    if (hidden) std::printf("(%d nodes off the best path hidden; --all shows them)\n", hidden);
}

int show(const Args& args, const GlobalOptions& global) {
    const auto& pos = args.positional();
    if (pos.size() != 2) {
        std::fprintf(stderr, "usage: kernelwright-cli search show ID [--all]\n");
        return kExitUsage;
    }
    auto opened = openSearch(global, pos[1], "show");
    if (opened.failure) return opened.failure;
    auto& db = opened.db;
    auto* search = &opened.search;
    auto nodes = store::SearchStore(*db).loadNodes(search->id);
    if (!nodes) {
        std::fprintf(stderr, "search show: %s\n", nodes.error().message.c_str());
        return kExitError;
    }
    std::printf("search %lld: %s, %s%s, %lld evaluations\n  config %s\n", static_cast<long long>(search->id),
                search->problem.c_str(), search->status.c_str(),
                search->stopReason.empty() ? "" : (" (" + search->stopReason + ")").c_str(),
                static_cast<long long>(search->evaluations), search->configJson.c_str());
    printSearchNotes(*search, stdout);
    std::map<std::string, int> statuses;
    for (const auto& n : *nodes) ++statuses[n.status.value_or(n.state)];
    std::printf("  nodes  ");
    for (const auto& [s, c] : statuses) std::printf(" %s %d", s.c_str(), c);
    std::printf("\n");
    printTree(*nodes, search->bestNode.value_or(0), args.has("all"));
    if (search->bestNode) {
        for (const auto& n : *nodes)
            if (n.id == *search->bestNode) {
                if (n.speedup.value_or(0) > 0)
                    std::printf("best: node #%lld, %.3gx, %s %s\n", static_cast<long long>(n.seq), *n.speedup,
                                n.sourceName.c_str(), paramsText(n).c_str());
                else
                    std::printf("first correct: node #%lld (checked, not timed), %s %s\n", static_cast<long long>(n.seq),
                                n.sourceName.c_str(), paramsText(n).c_str());
                printOverBestBaseline(*db, n.evaluationId);
            }
    }
    return kExitOk;
}

int exportBest(const Args& args, const GlobalOptions& global) {
    const auto& pos = args.positional();
    auto file = args.value("best");
    if (pos.size() != 2 || !file) {
        std::fprintf(stderr, "usage: kernelwright-cli search export ID --best FILE\n");
        return kExitUsage;
    }
    auto opened = openSearch(global, pos[1], "export");
    if (opened.failure) return opened.failure;
    auto& db = opened.db;
    auto* search = &opened.search;
    if (!search->bestNode) {
        std::fprintf(stderr, "search export: search %lld has no correct node yet\n", static_cast<long long>(search->id));
        return kExitError;
    }
    auto text = report::standaloneKernel(*db, search->id, *search->bestNode);
    if (!text) {
        std::fprintf(stderr, "search export: %s\n", text.error().message.c_str());
        return kExitError;
    }
    if (auto s =
            writeFileAtomic(*file, report::SecretScrubber::fromEnvironment(args.value("llm-config").value_or("")).scrub(*text));
        !s) {
        std::fprintf(stderr, "search export: %s\n", s.error().message.c_str());
        return kExitError;
    }
    auto best = store::SearchStore(*db).loadNodesById(search->id, {*search->bestNode});
    std::printf("wrote node #%lld (%.3gx) to %s\n", static_cast<long long>(best && !best->empty() ? best->front().seq : 0),
                search->bestSpeedup.value_or(0), file->c_str());
    return kExitOk;
}

// A node given by its number in the search ("#N" or "N", as `search show` and
// the workbench list them): its id.
Result<std::int64_t> nodeIdFromArg(const store::Database& db, std::int64_t searchId, const std::string& text) {
    long long number = 0;
    if (!toInt(!text.empty() && text[0] == '#' ? text.substr(1) : text, number))
        return makeError(ErrorCode::Validation, "'" + text + "' is not a node number (#N, as search show lists them)");
    return store::SearchStore(db).nodeIdOfNumber(searchId, number);
}

int steer(const std::string& verb, const Args& args, const GlobalOptions& global) {
    const auto& pos = args.positional();
    static const std::map<std::string, std::size_t> arity{{"pause", 2},   {"stop", 2},     {"budget", 3}, {"prune", 3},
                                                          {"unprune", 3}, {"pin", 3},      {"unpin", 3},  {"boost", 4},
                                                          {"hint", 4},    {"add-child", 4}};
    if (pos.size() != arity.at(verb)) {
        std::fprintf(stderr, "search %s: wrong arguments (see search --help)\n", verb.c_str());
        return kExitUsage;
    }
    auto opened = openSearch(global, pos[1], verb.c_str());
    if (opened.failure) return opened.failure;
    auto& db = opened.db;
    auto* search = &opened.search;
    long long number = 0; // budget: evaluations; the other verbs with an argument: the node's id
    if (verb == "budget" && !toInt(pos[2], number)) {
        std::fprintf(stderr, "search budget: '%s' is not a number of evaluations\n", pos[2].c_str());
        return kExitUsage;
    }
    if (pos.size() >= 3 && verb != "budget") {
        auto id = nodeIdFromArg(*db, search->id, pos[2]);
        if (!id) {
            std::fprintf(stderr, "search %s: %s\n", verb.c_str(), id.error().message.c_str());
            return exitCodeFor(id.error());
        }
        number = *id;
    }
    search::SteeringCommand command;
    if (verb == "pause")
        command = search::SteeringCommand::pause();
    else if (verb == "stop")
        command = search::SteeringCommand::stop();
    else if (verb == "budget")
        command = search::SteeringCommand::budget(number);
    else if (verb == "prune" || verb == "unprune")
        command = search::SteeringCommand::prune(number, verb == "prune");
    else if (verb == "pin" || verb == "unpin")
        command = search::SteeringCommand::pin(number, verb == "pin", !args.has("sticky"));
    else if (verb == "hint")
        command = search::SteeringCommand::hint(number, pos[3]);
    else if (verb == "boost") {
        try {
            command = search::SteeringCommand::boost(number, std::stod(pos[3]));
        } catch (const std::exception&) {
            std::fprintf(stderr, "search boost: AMOUNT must be a number\n");
            return kExitUsage;
        }
    } else if (verb == "add-child") {
        auto text = readTextFile(pos[3]);
        if (!text) {
            std::fprintf(stderr, "search add-child: %s\n", text.error().message.c_str());
            return kExitUsage;
        }
        nlohmann::json params = nlohmann::json::object();
        for (const auto& kv : args.all("param")) {
            const auto eq = kv.find('=');
            if (eq == std::string::npos) {
                std::fprintf(stderr, "search add-child: --param expects NAME=VALUE\n");
                return kExitUsage;
            }
            params[kv.substr(0, eq)] = kv.substr(eq + 1);
        }
        command = search::SteeringCommand::addChild(number, std::filesystem::path(pos[3]).stem().string(), *text, params);
    }
    command.origin = "cli";
    auto id = search::postSteering(*db, search->id, command);
    if (!id) {
        std::fprintf(stderr, "search %s: %s\n", verb.c_str(), id.error().message.c_str());
        return id.error().code == ErrorCode::Database || id.error().code == ErrorCode::Io ? kExitError : kExitUsage;
    }
    if (search::ownerAlive(*search))
        std::printf("search %lld: %s sent to the running search (command %lld)\n", static_cast<long long>(search->id),
                    verb.c_str(), static_cast<long long>(*id));
    else
        std::printf("search %lld is not running: %s queued (command %lld), applied when it resumes\n",
                    static_cast<long long>(search->id), verb.c_str(), static_cast<long long>(*id));
    return kExitOk;
}

int calls(const Args& args, const GlobalOptions& global) {
    const auto& pos = args.positional();
    if (pos.size() != 2) {
        std::fprintf(stderr, "usage: kernelwright-cli search calls ID [--node N] [--full]\n");
        return kExitUsage;
    }
    auto opened = openSearch(global, pos[1], "calls");
    if (opened.failure) return opened.failure;
    auto records = store::LlmCallStore(*opened.db).forSearch(opened.search.id);
    if (!records) {
        std::fprintf(stderr, "search calls: %s\n", records.error().message.c_str());
        return kExitError;
    }
    // Nodes by their number in the search (#N), as everywhere people see them.
    // Only the nodes the calls name, not the whole tree.
    std::vector<std::int64_t> named;
    for (const auto& c : *records)
        for (std::int64_t id : {c.nodeId, c.parentNodeId})
            if (id) named.push_back(id);
    std::map<std::int64_t, std::int64_t> numberOf;
    if (auto nodes = store::SearchStore(*opened.db).loadNodesById(opened.search.id, named))
        for (const auto& n : *nodes) numberOf[n.id] = n.seq;
    long long onlyNode = 0;
    if (auto n = args.value("node")) {
        auto id = nodeIdFromArg(*opened.db, opened.search.id, *n);
        if (!id) {
            std::fprintf(stderr, "search calls: --node: %s\n", id.error().message.c_str());
            return exitCodeFor(id.error());
        }
        onlyNode = *id;
    }
    double cost = 0;
    long long tokens = 0;
    for (const auto& c : *records) {
        cost += c.costUsd;
        tokens += c.inputTokens + c.outputTokens;
        if (onlyNode && c.nodeId != onlyNode && c.parentNodeId != onlyNode) continue;
        std::printf("call %lld: %s (%s %s) from node #%lld -> node #%lld, %s, %lld+%lld tokens%s, $%.5f, %.1f s, %d attempt(s)\n",
                    static_cast<long long>(c.id), c.modelName.c_str(), c.provider.c_str(), c.model.c_str(),
                    static_cast<long long>(numberOf[c.parentNodeId]), static_cast<long long>(numberOf[c.nodeId]),
                    c.status.c_str(), static_cast<long long>(c.inputTokens), static_cast<long long>(c.outputTokens),
                    c.usageEstimated ? " (estimated)" : "", c.costUsd, c.latencyS, c.attempts);
        if (!c.error.empty()) std::printf("  error: %s\n", c.error.c_str());
        if (c.promptCutJson != "[]") std::printf("  cut from the prompt: %s\n", c.promptCutJson.c_str());
        if (args.has("full")) {
            std::printf("--- system\n%s\n--- prompt\n%s\n--- reasoning\n%s\n--- reply\n%s\n---\n", c.systemPrompt.c_str(),
                        c.prompt.c_str(), c.reasoning.c_str(), c.reply.c_str());
        } else if (!c.reasoning.empty()) {
            std::printf("  reasoning: %s\n", c.reasoning.substr(0, 200).c_str());
        }
    }
    std::printf("%zu call(s), %lld tokens, $%.4f\n", records->size(), tokens, cost);
    return kExitOk;
}

} // namespace

int runSearchCommand(const std::vector<std::string>& argv, const GlobalOptions& global) {
    std::string error;
    auto args = Args::parse(argv, verb("search").valued, verb("search").flags, error, "search");
    if (!args) {
        std::fprintf(stderr, "search: %s\n", error.c_str());
        return kExitUsage;
    }
    const auto& pos = args->positional();
    if (args->has("help") || pos.empty()) {
        if (!args->has("help") && !argv.empty()) {
            // Options without a command: most often a search meant to start.
            std::string line = "kernelwright-cli search start";
            for (const auto& a : argv) line += " " + a;
            std::fprintf(stderr, "search: which command? To start a search with these options: %s\n\n", line.c_str());
        }
        printHelp(args->has("help") ? stdout : stderr);
        return args->has("help") ? kExitOk : kExitUsage;
    }
    const auto& verb = pos[0];
    if (verb == "start") return start(*args, global);
    if (verb == "resume") return resume(*args, global);
    if (verb == "list") return list(*args, global);
    if (isSearchNotesVerb(verb)) return runSearchNotesVerb(verb, *args, global);
    if (verb == "retime") return runSearchRetime(*args, global);
    if (verb == "show") return show(*args, global);
    if (verb == "export") return exportBest(*args, global);
    if (verb == "calls") return calls(*args, global);
    static const std::set<std::string> steering{"pause", "stop",  "budget", "prune", "unprune",
                                                "pin",   "unpin", "boost",  "hint",  "add-child"};
    if (steering.count(verb)) return steer(verb, *args, global);
    std::fprintf(stderr, "search: unknown command '%s'\n\n", verb.c_str());
    printHelp(stderr);
    return kExitUsage;
}

} // namespace kw::cli
