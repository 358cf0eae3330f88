#include "search/node_record.h"

#include "report/tree_shape.h"

#include "util/json_text.h"

#include <nlohmann/json.hpp>

namespace kw::search {

store::NodeRecord toRecord(const Node& n, std::int64_t searchId) {
    store::NodeRecord r;
    r.id = n.id;
    r.searchId = searchId;
    r.parentId = n.parent;
    r.seq = n.seq;
    r.origin = originName(n.origin);
    r.sourceName = n.sourceName;
    r.sourceHash = n.sourceHash;
    r.paramsJson = jsonText(nlohmann::json(n.params));
    r.state = n.state == NodeState::Pending ? "pending" : n.state == NodeState::Running ? "running" : "done";
    if (n.status) r.status = eval::statusName(*n.status);
    if (n.correct()) r.speedup = n.speedup;
    r.message = n.message;
    r.evaluationId = n.evaluationId;
    r.pinned = n.pinned;
    r.pinOnce = n.pinOnce;
    r.flagged = n.flagged;
    r.pruned = n.pruned;
    r.boost = n.boost;
    r.hint = n.hint;
    return r;
}

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
    if (params.is_discarded() || !params.is_object())
        return makeError(ErrorCode::Database, "node " + std::to_string(r.id) + ": unreadable params");
    for (auto it = params.begin(); it != params.end(); ++it) n.params[it.key()] = it->get<std::string>();
    n.state = report::nodeStateOf(r.state);
    if (r.status) n.status = eval::parseStatus(*r.status);
    n.speedup = r.speedup.value_or(0);
    n.flagged = r.flagged;
    n.message = r.message;
    n.evaluationId = r.evaluationId;
    n.pinned = r.pinned;
    n.pinOnce = r.pinOnce;
    n.pruned = r.pruned;
    n.boost = r.boost;
    n.hint = r.hint;
    return n;
}

} // namespace kw::search
