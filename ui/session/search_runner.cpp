#include "session/search_runner.h"

#include "problem/problem_loader.h"
#include "search/search_config_json.h"
#include "search/search_launcher.h"
#include "store/database.h"

#include <nlohmann/json.hpp>

namespace kw::ui {

SearchRunner::SearchRunner(SearchRequest request) : request_(std::move(request)) {}

void SearchRunner::run() {
    auto fail = [this](const std::string& m) { emit failed(QString::fromStdString(m)); };
    auto db = store::Database::open(request_.database);
    if (!db) return fail(db.error().message);
    auto problem = problem::loadProblem(request_.problemDir);
    if (!problem) return fail("the problem does not load:\n" + problem.error().message);
    auto config = search::configFromJson(nlohmann::json::parse(request_.configJson.toStdString(), nullptr, false));
    if (!config) return fail(config.error().message);
    search::SearchLaunch launch;
    launch.llmConfigFile = request_.llmConfigFile.string();
    auto id = search::createSearch(*db, *problem, *config, launch.llmConfigFile, &launch.llm);
    if (!id) return fail(id.error().message);
    emit started(*id);
    launch.searchId = *id;
    launch.executor = request_.executor;
    launch.evalOptions.timeBudgetS = request_.timeBudgetS;
    launch.evalOptions.torchCompileBaseline = false; // as the CLI's searches: fitness is against eager PyTorch
    launch.note = [this](const std::string& m) { emit warning(QString::fromStdString(m)); };
    auto launched = search::launchSearch(*db, std::move(launch));
    if (!launched) return fail(launched.error().message);
    auto outcome = (*launched)->run(stop_.get_token(), nullptr);
    if (!outcome) return fail(outcome.error().message);
    emit finished(*id, QString::fromStdString(outcome->stopReason));
}

} // namespace kw::ui
