#include "search/search_launcher.h"

#include "kb/kb_index.h"
#include "kb/kb_retriever.h"
#include "kb/skill_distiller.h"
#include "machine/machine_cache.h"
#include "synth/llm_setup.h"

namespace kw::search {

namespace {

// A missing model or key is the user's to fix: an invalid argument.
Result<std::shared_ptr<const synth::LlmSynthesizer>> buildLlm(const SearchConfig& config, const std::string& llmConfigFile) {
    auto made = synth::makeLlmSynthesizer(config, llmConfigFile);
    if (!made) return makeError(ErrorCode::InvalidArgument, made.error().message);
    return std::shared_ptr<const synth::LlmSynthesizer>(std::move(*made));
}

} // namespace

Result<std::int64_t> createSearch(const store::Database& db, const problem::ProblemSpec& problem, const SearchConfig& config,
                                  const std::string& llmConfigFile, std::shared_ptr<const synth::LlmSynthesizer>* llmOut) {
    if (config.synth != tree::SynthMode::Tuner) {
        // Models and keys are checked before the search exists, not after.
        auto made = buildLlm(config, llmConfigFile);
        if (!made) return made.error();
        if (llmOut) *llmOut = *made;
    }
    return SearchEngine::create(db, problem, config);
}

std::string LaunchedSearch::placement() const {
    return evaluator_->executor().placement();
}

Result<SearchOutcome> LaunchedSearch::run(std::stop_token stop, SearchObserver* observer) {
    auto outcome = engine_->run(loaded_, stop, observer);
    // Here rather than in a front end, so that a search started from the
    // workbench, the CLI or a resume distills alike.
    if (outcome && loaded_.config.distillSkill && outcome->status == "finished" && outcome->bestSpeedup > 0) {
        auto skill = kb::distillSkill(*db_, loaded_.record.id, kb::userKbDir() / "skills");
        if (skill) {
            outcome->skillFile = skill->file.string();
            outcome->skillId = skill->doc.id;
        } else {
            outcome->skillError = skill.error().message;
        }
    }
    return outcome;
}

Result<std::unique_ptr<LaunchedSearch>> launchSearch(const store::Database& db, SearchLaunch request) {
    auto loaded = loadSearch(db, request.searchId);
    if (!loaded) return loaded.error();
    std::unique_ptr<LaunchedSearch> launched(new LaunchedSearch(std::move(*loaded)));
    launched->db_ = &db;
    const SearchConfig& config = launched->loaded_.config;
    if (request.sharedEvaluator) {
        launched->evaluator_ = request.sharedEvaluator;
    } else {
        auto choice = request.executor;
        // The search's own worker count wins over the executor's.
        if (choice.kind == eval::ExecutorKind::Local && config.workers > 0)
            choice.local.workers = static_cast<std::size_t>(config.workers);
        auto executor = eval::makeExecutor(choice);
        if (!executor) return executor.error();
        launched->executor_ = std::move(*executor);
        launched->ownEvaluator_ = std::make_unique<eval::Evaluator>(*launched->executor_, &db);
        launched->evaluator_ = launched->ownEvaluator_.get();
    }
    launched->engine_ = std::make_unique<SearchEngine>(db, *launched->evaluator_, request.evalOptions);
    auto& executor = launched->evaluator_->executor();
    if (request.profiler) {
        launched->engine_->setProfiler(request.profiler);
    } else if (request.profileLocalJobs && executor.kind() == eval::ExecutorKind::Local) {
        // The first search on a host probes it (seconds) and caches the model.
        machine::ProbeOptions probe{3, [&request](const std::string& what) {
                                        if (request.note)
                                            request.note("first search on this host: probing " + what +
                                                         " (cached afterwards)...");
                                    }};
        const auto need =
            problem::runsOnGpu(launched->loaded_.problem.backend) ? machine::RoofsOf::GpusOnly : machine::RoofsOf::Cpu;
        if (auto machine = machine::localMachine(false, probe, need))
            launched->engine_->setProfiler(profile::Profiler::forExecutor(*machine, executor.slotCount()));
        else if (request.note)
            request.note("no roofline profiles: " + machine.error().message);
    } else if (request.profileLocalJobs) {
        // Jobs on another host: no roofline of this host's, but what the job
        // measured itself (a GPU's kernel breakdown, ncu) is kept, against the
        // roofs of a GPU probe imported for that host (machine import-gpu).
        launched->engine_->setProfiler(std::make_shared<const profile::Profiler>(std::nullopt, 1));
    }
    if (config.synth != tree::SynthMode::Tuner) {
        auto llm = request.llm;
        if (!llm) {
            auto made = buildLlm(config, request.llmConfigFile);
            if (!made) return made.error();
            llm = *made;
        }
        // Indexed (by hash, so unchanged files cost nothing) before the first
        // prompt; documents that fail are reported and left out.
        if (auto synced = kb::KbIndex(db).sync(kb::defaultKbRoots()); !synced && request.note)
            request.note("knowledge base: " + synced.error().message);
        launched->engine_->setLlm(std::move(llm), std::make_shared<kb::KbRetriever>(db));
    }
    return launched;
}

} // namespace kw::search
