#include "search/steering.h"
#include "util/json_text.h"

#include "store/search_store.h"

#include <cmath>

namespace kw::search {
namespace {

SteeringCommand onNode(const char* verb, std::int64_t node, nlohmann::json args = nlohmann::json::object()) {
    args["node"] = node;
    return {verb, std::move(args), node, {}};
}

} // namespace

SteeringCommand SteeringCommand::budget(std::int64_t maxEvaluations) {
    return {"budget", {{"max_evaluations", maxEvaluations}}, 0, {}};
}
SteeringCommand SteeringCommand::prune(std::int64_t node, bool on) {
    return onNode(on ? "prune" : "unprune", node);
}
SteeringCommand SteeringCommand::pin(std::int64_t node, bool on, bool once) {
    return on ? onNode("pin", node, {{"once", once}}) : onNode("unpin", node);
}
SteeringCommand SteeringCommand::boost(std::int64_t node, double amount) {
    return onNode("boost", node, {{"amount", amount}});
}
SteeringCommand SteeringCommand::hint(std::int64_t node, const std::string& text) {
    return onNode("hint", node, {{"text", text}});
}
SteeringCommand SteeringCommand::addChild(std::int64_t node, const std::string& name, const std::string& source,
                                          const nlohmann::json& params) {
    return onNode("add_child", node, {{"name", name}, {"source", source}, {"params", params}});
}

Result<std::int64_t> postSteering(const store::Database& db, std::int64_t searchId, const SteeringCommand& c) {
    store::SearchStore store(db);
    auto search = store.loadSearch(searchId);
    if (!search) return search.error();
    const std::string id = std::to_string(searchId);
    if (search->status == "finished")
        return makeError(ErrorCode::InvalidArgument, "search " + id + " is finished (" + search->stopReason +
                                                         "); nothing changed. Continue it with `search resume " + id +
                                                         " --budget N`.");
    if (c.verb == "budget" && c.args.value("max_evaluations", 0) < 1)
        return makeError(ErrorCode::InvalidArgument, "the budget is a positive number of evaluations; nothing changed");
    if (c.verb == "boost" &&
        (!c.args.contains("amount") || !c.args["amount"].is_number() || !std::isfinite(c.args["amount"].get<double>())))
        return makeError(ErrorCode::InvalidArgument, "boost needs a finite amount; nothing changed");
    if (c.verb == "hint" && c.args.value("text", std::string()).empty())
        return makeError(ErrorCode::InvalidArgument, "a hint needs text; nothing changed");
    if (c.verb == "add_child" && c.args.value("source", std::string()).empty())
        return makeError(ErrorCode::InvalidArgument, "a manual child needs source code; nothing changed");
    if (c.node) {
        auto nodes = store.loadNodesById(searchId, {c.node});
        if (!nodes) return nodes.error();
        if (nodes->empty())
            return makeError(ErrorCode::NotFound,
                             "search " + id + " has no node " + std::to_string(c.node) + "; nothing changed");
    }
    return store.postCommand(searchId, c.verb, jsonText(c.args), c.origin);
}

Result<std::int64_t> postSteering(const std::filesystem::path& database, std::int64_t searchId, const SteeringCommand& c) {
    auto db = store::Database::open(database);
    if (!db) return db.error();
    return postSteering(*db, searchId, c);
}

} // namespace kw::search
