#include "kb/node_query.h"

#include "problem/problem_loader.h"
#include "profile/profiler.h"
#include "store/search_store.h"

namespace kw::kb {

std::string retrievalPlatform(const problem::ProblemSpec& problem) {
    if (problem.backend == problem::Backend::Cpp) return hostPlatform();
    if (problem.backend == problem::Backend::Cuda && problem.cudaArch.rfind("sm_90", 0) == 0) return "hopper";
    return {};
}

RetrievalQuery retrievalQueryFor(const problem::ProblemSpec& problem, std::vector<std::string> signalNames,
                                 std::string platform) {
    RetrievalQuery q;
    q.text = problem.title + " " + problem.description;
    q.diagnosis = std::move(signalNames);
    q.platform = std::move(platform);
    return q;
}

Result<RetrievalQuery> retrievalQueryForNode(const store::Database& db, std::int64_t searchId, std::int64_t nodeId) {
    const store::SearchStore searches(db);
    auto search = searches.loadSearch(searchId);
    if (!search) return search.error();
    auto nodes = searches.loadNodesById(searchId, {nodeId});
    if (!nodes) return nodes.error();
    if (nodes->empty())
        return makeError(ErrorCode::NotFound, "search " + std::to_string(searchId) + " has no node " + std::to_string(nodeId));
    auto problem = problem::loadProblem(search->problemDir);
    if (!problem)
        return makeError(problem.error().code, "the problem of search " + std::to_string(searchId) + " (" + search->problemDir +
                                                   ") cannot be read: " + problem.error().message);
    const auto& node = nodes->front();
    std::vector<std::string> signalNames;
    if (node.status) signalNames.push_back(*node.status);
    for (const auto& s : profile::storedDiagnosis(db, node.evaluationId)) signalNames.push_back(s.name);
    return retrievalQueryFor(*problem, std::move(signalNames), retrievalPlatform(*problem));
}

} // namespace kw::kb
