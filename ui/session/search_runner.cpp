#include "session/search_runner.h"

#include "eval/evaluator.h"
#include "problem/problem_loader.h"
#include "profile/machine_cache.h"
#include "search/search_config_json.h"
#include "search/search_engine.h"
#include "search/llm_equip.h"
#include "synth/llm_setup.h"
#include "store/database.h"

#include <nlohmann/json.hpp>

namespace ks::ui {

SearchRunner::SearchRunner(SearchRequest request) : request_(std::move(request)) {}

void SearchRunner::run() {
    auto fail = [this](const std::string& m) { emit failed(QString::fromStdString(m)); };
    auto db = store::Database::open(request_.database);
    if (!db) return fail(db.error().message);
    auto problem = problem::loadProblem(request_.problemDir);
    if (!problem) return fail("the problem does not load:\n" + problem.error().message);
    auto cfgJson = nlohmann::json::parse(request_.configJson.toStdString(), nullptr, false);
    auto config = search::configFromJson(cfgJson);
    if (!config) return fail(config.error().message);
    auto choice = request_.executor;
    if (config->workers > 0) choice.local.workers = static_cast<std::size_t>(config->workers);
    auto executorMade = eval::makeExecutor(choice);
    if (!executorMade) return fail(executorMade.error().message);
    std::unique_ptr<eval::Executor> executor = std::move(*executorMade);
    // Models and keys are checked before the search exists, as the CLI does.
    std::shared_ptr<const synth::LlmSynthesizer> llm;
    if (config->synth != tree::SynthMode::Tuner) {
        auto made = synth::makeLlmSynthesizer(*config, request_.llmConfigFile.string());
        if (!made) return fail(made.error().message);
        llm = *made;
    }
    auto id = search::SearchEngine::create(*db, *problem, *config);
    if (!id) return fail(id.error().message);
    emit started(*id);
    eval::Evaluator evaluator(*executor, &*db);
    eval::EvalOptions options;
    options.timeBudgetS = request_.timeBudgetS;
    options.torchCompileBaseline = false; // as the CLI's searches: fitness is against eager PyTorch
    search::SearchEngine engine(*db, evaluator, options);
    if (llm) {
        auto equipped = search::equipWithLlm(engine, *db, *config, request_.llmConfigFile.string(), llm,
                                             [this](const std::string& m) { emit warning(QString::fromStdString(m)); });
        if (!equipped) return fail(equipped.error().message);
    }
    // This machine's roofline describes local jobs only.
    if (choice.kind == eval::ExecutorKind::Local)
        if (auto machine = profile::localMachine(false)) engine.setProfiler(profile::Profiler::forExecutor(*machine, executor->slotCount()));
    auto outcome = engine.run(*id, stop_.get_token(), nullptr);
    if (!outcome) return fail(outcome.error().message);
    emit finished(*id, QString::fromStdString(outcome->stopReason));
}

} // namespace ks::ui
