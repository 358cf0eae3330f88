#include "session/search_runner.h"

#include "problem/problem_loader.h"
#include "search/search_config_json.h"
#include "search/search_launcher.h"
#include "search/search_owner.h"
#include "store/database.h"
#include "store/search_store.h"
#include "util/json_text.h"

#include <nlohmann/json.hpp>

namespace kw::ui {

SearchRunner::SearchRunner(SearchRequest request) : request_(std::move(request)) {}

void SearchRunner::run() {
    auto fail = [this](const std::string& m) { emit failed(QString::fromStdString(m)); };
    auto db = store::Database::open(request_.database);
    if (!db) return fail(db.error().message);
    search::SearchLaunch launch;
    launch.llmConfigFile = request_.llmConfigFile.string();
    Result<std::int64_t> id = request_.resumeSearchId;
    if (request_.resumeSearchId) {
        if (auto s = raiseBudget(*db); !s) return fail(s.error().message);
    } else {
        auto problem = problem::loadProblem(request_.problemDir);
        if (!problem) return fail("the problem does not load:\n" + problem.error().message);
        auto config = search::configFromJson(nlohmann::json::parse(request_.configJson.toStdString(), nullptr, false));
        if (!config) return fail(config.error().message);
        id = search::createSearch(*db, *problem, *config, launch.llmConfigFile, &launch.llm);
        if (!id) return fail(id.error().message);
    }
    emit started(*id);
    launch.searchId = *id;
    launch.executor = request_.executor;
    launch.evalOptions.timeBudgetS = request_.timeBudgetS;
    launch.evalOptions.checkOnly = request_.checkOnly;
    launch.evalOptions.torchCompileBaseline = false; // as the CLI's searches: fitness is against eager PyTorch
    launch.note = [this](const std::string& m) { emit warning(QString::fromStdString(m)); };
    auto launched = search::launchSearch(*db, std::move(launch));
    if (!launched) return fail(launched.error().message);
    auto outcome = (*launched)->run(stop_.get_token(), nullptr);
    if (!outcome) return fail(outcome.error().message);
    QString note;
    if (!outcome->skillFile.empty())
        note = tr("skill %1 written, pending review in the Knowledge Base").arg(QString::fromStdString(outcome->skillId));
    else if (!outcome->skillError.empty())
        note = tr("no skill distilled: %1").arg(QString::fromStdString(outcome->skillError));
    emit finished(*id, QString::fromStdString(outcome->stopReason), note);
}

Status SearchRunner::raiseBudget(const store::Database& db) const {
    store::SearchStore store(db);
    auto search = store.loadSearch(request_.resumeSearchId);
    if (!search) return search.error();
    if (search::ownerAlive(*search))
        return makeError(ErrorCode::InvalidArgument, "search " + std::to_string(search->id) + " runs in process " +
                                                         std::to_string(*search->ownerPid) + ": steer it there instead");
    if (request_.resumeBudget <= search->evaluations)
        return makeError(ErrorCode::InvalidArgument, "search " + std::to_string(search->id) + " has made " +
                                                         std::to_string(search->evaluations) +
                                                         " evaluations: give it a budget above that to go on");
    auto config = nlohmann::json::parse(search->configJson, nullptr, false);
    if (!config.is_object())
        return makeError(ErrorCode::Database, "search " + std::to_string(search->id) + ": its config does not parse");
    config["max_evaluations"] = request_.resumeBudget;
    search->configJson = jsonText(config);
    return store.updateSearch(*search);
}

} // namespace kw::ui
