#include "search/node_retime.h"

#include "eval/evaluator.h"
#include "problem/tunable_params.h"
#include "search/search_engine.h"
#include "store/database.h"
#include "store/search_store.h"

#include <cmath>

namespace kw::search {

std::pair<double, double> combinedInterval(const std::vector<std::pair<double, double>>& perShape) {
    double logLow = 0, logHigh = 0;
    for (const auto& [low, high] : perShape) {
        if (!(low > 0) || !(high >= low)) return {0, 0};
        logLow += std::log(low);
        logHigh += std::log(high);
    }
    if (perShape.empty()) return {0, 0};
    const double n = static_cast<double>(perShape.size());
    return {std::exp(logLow / n), std::exp(logHigh / n)};
}

Result<std::vector<RetimeRow>> retimeNodes(const RetimeRequest& request, const std::function<void(const RetimeRow&)>& onRow,
                                           std::stop_token stop) {
    auto db = store::Database::open(request.database);
    if (!db) return db.error();
    auto loaded = loadSearch(*db, request.searchId);
    if (!loaded) return loaded.error();
    store::SearchStore store(*db);
    auto nodes = store.loadNodesById(request.searchId, request.nodeIds);
    if (!nodes) return nodes.error();
    auto intervals = store.speedupIntervals(request.searchId, request.nodeIds);
    if (!intervals) return intervals.error();
    // One slot: the kernels are timed one after another, never beside each other.
    auto choice = request.executor;
    if (choice.kind == eval::ExecutorKind::Local) choice.local.workers = 1;
    auto executor = eval::makeExecutor(choice);
    if (!executor) return executor.error();
    eval::Evaluator evaluator(**executor, &*db);
    eval::EvalOptions options;
    options.timeBudgetS = request.timeBudgetS;
    options.useCache = false;
    // A torch problem's re-timing shows torch.compile beside it, as a bench finalist's does.
    options.torchCompileBaseline = loaded->problem.backend == problem::Backend::Torch;

    std::vector<RetimeRow> rows;
    for (const auto id : request.nodeIds) {
        if (stop.stop_requested()) break;
        const auto it = std::find_if(nodes->begin(), nodes->end(), [&](const auto& n) { return n.id == id; });
        RetimeRow row;
        row.nodeId = id;
        if (it == nodes->end()) {
            row.status = "missing";
            row.message = "search " + std::to_string(request.searchId) + " has no node with id " + std::to_string(id);
        } else {
            row.seq = it->seq;
            row.inSearch = it->speedup.value_or(0);
            if (const auto found = intervals->find(id); found != intervals->end()) row.inSearchInterval = found->second;
            auto source = store.sourceText(it->sourceHash);
            auto params = problem::parseAssignmentJson(it->paramsJson);
            if (!source || !params) {
                row.status = "missing";
                row.message = !source ? source.error().message : params.error().message;
            } else {
                auto result = evaluator.evaluate(loaded->problem, eval::Candidate{it->sourceName, *source, *params}, options);
                if (!result) {
                    row.status = "infra_error";
                    row.message = result.error().message;
                } else {
                    row.status = eval::statusName(result->status);
                    row.message = result->correct() ? "" : result->message;
                    row.alone = result->speedup.value_or(0);
                    std::vector<std::pair<double, double>> shapes;
                    for (const auto& t : result->timing) shapes.push_back(t.speedupInterval);
                    row.aloneInterval = combinedInterval(shapes);
                }
            }
        }
        if (onRow) onRow(row);
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace kw::search
