// A search's record: made from a problem and a configuration, and read
// back (with its problem loaded again) each time it starts.
#include "problem/problem_loader.h"
#include "search/search_config_json.h"
#include "search/search_engine.h"
#include "util/json_text.h"
#include "util/log.h"

namespace kw::search {

Result<std::int64_t> SearchEngine::create(const store::Database& db, const problem::ProblemSpec& problem,
                                          const SearchConfig& config) {
    if (auto s = validate(config); !s) return s.error();
    store::SearchRecord r;
    r.problem = problem.name;
    r.problemDir = problem.dir.string();
    r.problemHash = problem.contentHash;
    r.configJson = jsonText(toJson(config));
    r.status = "created";
    return store::SearchStore(db).createSearch(r);
}

Result<LoadedSearch> loadSearch(const store::Database& db, std::int64_t searchId) {
    auto search = store::SearchStore(db).loadSearch(searchId);
    if (!search) return search.error();
    auto config = configFromJson(nlohmann::json::parse(search->configJson, nullptr, false));
    if (!config) return config.error();
    auto problem = problem::loadProblem(search->problemDir);
    if (!problem)
        return makeError(ErrorCode::Validation,
                         "search " + std::to_string(searchId) + ": its problem no longer loads:\n" + problem.error().message);
    if (problem->contentHash != search->problemHash)
        log::search()->warn("search {}: problem {} changed since the search started; results may not compare", searchId,
                            problem->name);
    return LoadedSearch{std::move(*search), std::move(*config), std::move(*problem)};
}

} // namespace kw::search
