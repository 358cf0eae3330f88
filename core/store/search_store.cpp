#include "store/search_store.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace kw::store {
namespace {
constexpr const char* kSearchColumns = "id, problem, problem_dir, problem_hash, config, status, stop_reason, evaluations, "
                                       "best_node, best_speedup, owner_pid, created_at, updated_at, label, notes, tags, archived";
constexpr const char* kNodeColumns =
    "id, search_id, parent_id, seq, origin, source_name, source_hash, params, state, status, "
    "speedup, message, evaluation_id, pinned, pruned, boost, hint, created_at, finished_at, flagged";

SearchRecord readSearch(const Statement& s) {
    SearchRecord r;
    r.id = s.int64(0);
    r.problem = s.text(1);
    r.problemDir = s.text(2);
    r.problemHash = s.text(3);
    r.configJson = s.text(4);
    r.status = s.text(5);
    r.stopReason = s.text(6);
    r.evaluations = s.int64(7);
    if (!s.isNull(8)) r.bestNode = s.int64(8);
    if (!s.isNull(9)) r.bestSpeedup = s.real(9);
    if (!s.isNull(10)) r.ownerPid = s.int64(10);
    r.createdAt = s.text(11);
    r.updatedAt = s.text(12);
    r.label = s.text(13);
    r.notes = s.text(14);
    // Tags as written by updateSearchNotes; anything else reads as none.
    const auto tags = nlohmann::json::parse(s.text(15), nullptr, false);
    if (tags.is_array())
        for (const auto& t : tags)
            if (t.is_string()) r.tags.push_back(t.get<std::string>());
    r.archived = s.int64(16) != 0;
    return r;
}

Result<std::int64_t> countOf(const Database& db, const std::string& sql, std::int64_t id) {
    auto stmt = db.prepare(sql);
    if (!stmt) return stmt.error();
    stmt->bind(1, id);
    auto row = stmt->step();
    if (!row) return row.error();
    return *row ? stmt->int64(0) : 0;
}

// One interval for a node from its shapes' ("low:high,..."): the geometric
// means of the lows and of the highs, as the node's speedup is the geometric
// mean of its shapes'. Nullopt when a shape has none.
std::optional<std::pair<double, double>> combinedInterval(const std::string& text) {
    double logLow = 0, logHigh = 0;
    int shapes = 0;
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t end = std::min(text.find(',', at), text.size());
        const std::string part = text.substr(at, end - at);
        const std::size_t colon = part.find(':');
        if (colon == std::string::npos) return std::nullopt;
        char* stop = nullptr;
        const double low = std::strtod(part.c_str(), &stop), high = std::strtod(part.c_str() + colon + 1, nullptr);
        if (!(low > 0) || !(high >= low)) return std::nullopt;
        logLow += std::log(low);
        logHigh += std::log(high);
        ++shapes;
        at = end + 1;
    }
    if (shapes == 0) return std::nullopt;
    return std::pair{std::exp(logLow / shapes), std::exp(logHigh / shapes)};
}

NodeRecord readNode(const Statement& s) {
    NodeRecord n;
    n.id = s.int64(0);
    n.searchId = s.int64(1);
    n.parentId = s.isNull(2) ? 0 : s.int64(2);
    n.seq = s.int64(3);
    n.origin = s.text(4);
    n.sourceName = s.text(5);
    n.sourceHash = s.text(6);
    n.paramsJson = s.text(7);
    n.state = s.text(8);
    if (!s.isNull(9)) n.status = s.text(9);
    if (!s.isNull(10)) n.speedup = s.real(10);
    n.message = s.text(11);
    n.evaluationId = s.isNull(12) ? 0 : s.int64(12);
    n.pinned = s.int64(13) != 0;
    n.pinOnce = s.int64(13) == 2;
    n.pruned = s.int64(14) != 0;
    n.boost = s.real(15);
    n.hint = s.text(16);
    n.createdAt = s.text(17);
    if (!s.isNull(18)) n.finishedAt = s.text(18);
    n.flagged = s.int64(19) != 0;
    return n;
}

Status insertEvent(const Database& db, std::int64_t searchId, const std::string& kind, const std::string& payload) {
    auto stmt = db.prepare("INSERT INTO events (search_id, kind, payload) VALUES (?, ?, ?)");
    if (!stmt) return stmt.error();
    stmt->bind(1, searchId).bind(2, kind).bind(3, payload);
    return stmt->run();
}
} // namespace

Result<std::int64_t> SearchStore::createSearch(const SearchRecord& r) const {
    std::int64_t id = 0;
    auto s = db_.transaction([&]() -> Status {
        auto stmt = db_.prepare(
            "INSERT INTO searches (problem, problem_dir, problem_hash, config, status, owner_pid) VALUES (?, ?, ?, ?, ?, ?)");
        if (!stmt) return stmt.error();
        stmt->bind(1, r.problem).bind(2, r.problemDir).bind(3, r.problemHash).bind(4, r.configJson).bind(5, r.status);
        if (r.ownerPid)
            stmt->bind(6, *r.ownerPid);
        else
            stmt->bindNull(6);
        if (auto st = stmt->run(); !st) return st;
        id = db_.lastInsertId();
        return insertEvent(db_, id, "search_created", "{\"search\":" + std::to_string(id) + "}");
    });
    if (!s) return s.error();
    return id;
}

Result<SearchRecord> SearchStore::loadSearch(std::int64_t id) const {
    auto stmt = db_.prepare(std::string("SELECT ") + kSearchColumns + " FROM searches WHERE id = ?");
    if (!stmt) return stmt.error();
    stmt->bind(1, id);
    auto row = stmt->step();
    if (!row) return row.error();
    if (!*row)
        return makeError(ErrorCode::NotFound,
                         "no search " + std::to_string(id) + " in " + db_.path().string() + " (see `search list`)");
    return readSearch(*stmt);
}

Result<std::vector<SearchRecord>> SearchStore::listSearches() const {
    auto stmt = db_.prepare(std::string("SELECT ") + kSearchColumns + " FROM searches ORDER BY id");
    if (!stmt) return stmt.error();
    return readAll<SearchRecord>(*stmt, readSearch);
}

Status SearchStore::updateSearch(const SearchRecord& r) const {
    auto stmt = db_.prepare("UPDATE searches SET status = ?, stop_reason = ?, evaluations = ?, best_node = ?, best_speedup = ?, "
                            "owner_pid = ?, config = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?");
    if (!stmt) return stmt.error();
    stmt->bind(1, r.status).bind(2, r.stopReason).bind(3, r.evaluations);
    if (r.bestNode)
        stmt->bind(4, *r.bestNode);
    else
        stmt->bindNull(4);
    stmt->bind(5, r.bestSpeedup);
    if (r.ownerPid)
        stmt->bind(6, *r.ownerPid);
    else
        stmt->bindNull(6);
    stmt->bind(7, r.configJson).bind(8, r.id);
    return stmt->run();
}

Status SearchStore::updateSearchNotes(std::int64_t id, const std::function<Status(SearchRecord&)>& change) const {
    return db_.transaction([&]() -> Status {
        auto record = loadSearch(id);
        if (!record) return record.error();
        if (auto s = change(*record); !s) return s;
        auto stmt = db_.prepare("UPDATE searches SET label = ?, notes = ?, tags = ?, archived = ? WHERE id = ?");
        if (!stmt) return stmt.error();
        stmt->bind(1, record->label).bind(2, record->notes).bind(3, nlohmann::json(record->tags).dump());
        stmt->bind(4, static_cast<std::int64_t>(record->archived ? 1 : 0)).bind(5, id);
        return stmt->run();
    });
}

Result<SearchDeletion> SearchStore::deleteSearch(std::int64_t id, const std::function<Status(const SearchRecord&)>& allow) const {
    SearchDeletion gone;
    // Children before parents: retrievals name LLM calls and nodes, LLM calls
    // name nodes, nodes name the search (foreign keys are on).
    static const char* kRetrievals = "kb_retrievals WHERE llm_call_id IN (SELECT id FROM llm_calls WHERE search_id = ?1) "
                                     "OR node_id IN (SELECT id FROM nodes WHERE search_id = ?1)";
    const std::pair<const char*, std::int64_t*> tables[] = {{kRetrievals, &gone.retrievals},
                                                            {"llm_calls WHERE search_id = ?1", &gone.llmCalls},
                                                            {"commands WHERE search_id = ?1", &gone.commands},
                                                            {"events WHERE search_id = ?1", &gone.events},
                                                            {"nodes WHERE search_id = ?1", &gone.nodes},
                                                            {"searches WHERE id = ?1", nullptr}};
    auto s = db_.transaction([&]() -> Status {
        auto found = loadSearch(id);
        if (!found) return found.error();
        if (auto allowed = allow(*found); !allowed) return allowed;
        for (const auto& [where, count] : tables) {
            if (count) {
                auto n = countOf(db_, std::string("SELECT COUNT(*) FROM ") + where, id);
                if (!n) return n.error();
                *count = *n;
            }
            auto stmt = db_.prepare(std::string("DELETE FROM ") + where);
            if (!stmt) return stmt.error();
            stmt->bind(1, id);
            if (auto st = stmt->run(); !st) return st;
        }
        return {};
    });
    if (!s) return s.error();
    return gone;
}

Status SearchStore::putSource(const std::string& hash, const std::string& text) const {
    auto stmt = db_.prepare("INSERT OR IGNORE INTO sources (hash, text) VALUES (?, ?)");
    if (!stmt) return stmt.error();
    stmt->bind(1, hash).bind(2, text);
    return stmt->run();
}

Result<std::string> SearchStore::sourceText(const std::string& hash) const {
    auto stmt = db_.prepare("SELECT text FROM sources WHERE hash = ?");
    if (!stmt) return stmt.error();
    stmt->bind(1, hash);
    auto row = stmt->step();
    if (!row) return row.error();
    if (!*row) return makeError(ErrorCode::NotFound, "source " + hash.substr(0, 12) + " is missing from the workspace");
    return stmt->text(0);
}

Result<std::int64_t> SearchStore::insertNode(const NodeRecord& n) const {
    std::int64_t id = 0;
    auto s = db_.transaction([&]() -> Status {
        auto stmt =
            db_.prepare("INSERT INTO nodes (search_id, parent_id, seq, origin, source_name, source_hash, params, state, hint) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
        if (!stmt) return stmt.error();
        stmt->bind(1, n.searchId);
        if (n.parentId)
            stmt->bind(2, n.parentId);
        else
            stmt->bindNull(2);
        stmt->bind(3, n.seq)
            .bind(4, n.origin)
            .bind(5, n.sourceName)
            .bind(6, n.sourceHash)
            .bind(7, n.paramsJson)
            .bind(8, n.state)
            .bind(9, n.hint);
        if (auto st = stmt->run(); !st) return st;
        id = db_.lastInsertId();
        return insertEvent(db_, n.searchId, "node_added",
                           "{\"node\":" + std::to_string(id) + ",\"parent\":" + std::to_string(n.parentId) + "}");
    });
    if (!s) return s.error();
    return id;
}

Status SearchStore::setNodeState(std::int64_t nodeId, const std::string& state) const {
    auto stmt = db_.prepare("UPDATE nodes SET state = ? WHERE id = ?");
    if (!stmt) return stmt.error();
    stmt->bind(1, state).bind(2, nodeId);
    return stmt->run();
}

Status SearchStore::finishNode(const NodeRecord& n, const SearchRecord& search) const {
    return db_.transaction([&]() -> Status {
        auto stmt =
            db_.prepare("UPDATE nodes SET state = ?, status = ?, speedup = ?, message = ?, evaluation_id = ?, flagged = ?, "
                        "finished_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?");
        if (!stmt) return stmt.error();
        stmt->bind(1, n.state);
        if (n.status)
            stmt->bind(2, *n.status);
        else
            stmt->bindNull(2);
        stmt->bind(3, n.speedup).bind(4, n.message);
        if (n.evaluationId)
            stmt->bind(5, n.evaluationId);
        else
            stmt->bindNull(5);
        stmt->bind(6, static_cast<std::int64_t>(n.flagged ? 1 : 0));
        stmt->bind(7, n.id);
        if (auto st = stmt->run(); !st) return st;
        if (auto st = updateSearch(search); !st) return st;
        return insertEvent(db_, n.searchId, "node_finished",
                           "{\"node\":" + std::to_string(n.id) + ",\"status\":\"" + n.status.value_or("") + "\"}");
    });
}

Status SearchStore::updateNodeFlags(const NodeRecord& n) const {
    return db_.transaction([&]() -> Status {
        auto stmt = db_.prepare("UPDATE nodes SET pinned = ?, pruned = ?, boost = ?, hint = ? WHERE id = ?");
        if (!stmt) return stmt.error();
        stmt->bind(1, static_cast<std::int64_t>(n.pinned ? (n.pinOnce ? 2 : 1) : 0))
            .bind(2, static_cast<std::int64_t>(n.pruned))
            .bind(3, n.boost)
            .bind(4, n.hint)
            .bind(5, n.id);
        if (auto st = stmt->run(); !st) return st;
        return insertEvent(db_, n.searchId, "node_changed", "{\"node\":" + std::to_string(n.id) + "}");
    });
}

Result<std::vector<NodeRecord>> SearchStore::loadNodes(std::int64_t searchId) const {
    auto stmt = db_.prepare(std::string("SELECT ") + kNodeColumns + " FROM nodes WHERE search_id = ? ORDER BY seq");
    if (!stmt) return stmt.error();
    stmt->bind(1, searchId);
    return readAll<NodeRecord>(*stmt, readNode);
}

Result<std::map<std::int64_t, std::pair<double, double>>>
SearchStore::speedupIntervals(std::int64_t searchId, const std::vector<std::int64_t>& ids) const {
    // Each timing shape's interval, "low:high,low:high", read from the result
    // in SQLite; a shape without one reads "-:-", so that the node has none.
    const std::string each = "SELECT n.id, (SELECT group_concat(coalesce(json_extract(t.value, '$.speedup_interval[0]'), "
                             "'-') || ':' || coalesce(json_extract(t.value, '$.speedup_interval[1]'), '-'), ',') "
                             "FROM evaluations e, json_each(CASE WHEN json_valid(e.result) THEN e.result ELSE '{}' END, "
                             "'$.timing') t WHERE e.id = n.evaluation_id) FROM nodes n WHERE n.search_id = ? "
                             "AND n.evaluation_id IS NOT NULL";
    std::map<std::int64_t, std::pair<double, double>> out;
    // All of the search's nodes, or `ids` in chunks of bound parameters (as loadNodesById).
    for (std::size_t begin = 0; begin < std::max<std::size_t>(ids.size(), 1); begin += 500) {
        const std::size_t end = std::min(ids.size(), begin + 500);
        std::string sql = each;
        if (!ids.empty()) {
            sql += " AND n.id IN (";
            for (std::size_t i = begin; i < end; ++i) sql += i == begin ? "?" : ", ?";
            sql += ")";
        }
        auto stmt = db_.prepare(sql);
        if (!stmt) return stmt.error();
        stmt->bind(1, searchId);
        for (std::size_t i = begin; i < end; ++i) stmt->bind(static_cast<int>(i - begin) + 2, ids[i]);
        auto rows = readAll<std::pair<std::int64_t, std::optional<std::string>>>(*stmt, [](const Statement& r) {
            return std::pair{r.int64(0), r.isNull(1) ? std::nullopt : std::optional(r.text(1))};
        });
        if (!rows) return rows.error();
        for (const auto& [id, text] : *rows)
            if (text)
                if (auto interval = combinedInterval(*text)) out[id] = *interval;
    }
    return out;
}

Result<std::vector<NodeRecord>> SearchStore::loadNodesById(std::int64_t searchId, const std::vector<std::int64_t>& ids) const {
    std::vector<NodeRecord> out;
    // Bound parameters in chunks (SQLite's default limit on variables is far above 500).
    for (std::size_t begin = 0; begin < ids.size(); begin += 500) {
        const std::size_t end = std::min(ids.size(), begin + 500);
        std::string sql = std::string("SELECT ") + kNodeColumns + " FROM nodes WHERE search_id = ? AND id IN (";
        for (std::size_t i = begin; i < end; ++i) sql += i == begin ? "?" : ", ?";
        sql += ") ORDER BY id";
        auto stmt = db_.prepare(sql);
        if (!stmt) return stmt.error();
        stmt->bind(1, searchId);
        for (std::size_t i = begin; i < end; ++i) stmt->bind(static_cast<int>(i - begin) + 2, ids[i]);
        auto part = readAll<NodeRecord>(*stmt, readNode);
        if (!part) return part.error();
        out.insert(out.end(), part->begin(), part->end());
    }
    return out;
}

Result<std::int64_t> SearchStore::nodeIdOfNumber(std::int64_t searchId, std::int64_t seq) const {
    auto stmt = db_.prepare("SELECT id FROM nodes WHERE search_id = ? AND seq = ?");
    if (!stmt) return stmt.error();
    stmt->bind(1, searchId).bind(2, seq);
    auto row = stmt->step();
    if (!row) return row.error();
    if (!*row)
        return makeError(ErrorCode::NotFound, "search " + std::to_string(searchId) + " has no node #" + std::to_string(seq) +
                                                  " (nodes are numbered from 1 in the order the search made them)");
    return stmt->int64(0);
}

Result<std::int64_t> SearchStore::postCommand(std::int64_t searchId, const std::string& verb, const std::string& argsJson,
                                              const std::string& origin) const {
    auto stmt = db_.prepare("INSERT INTO commands (search_id, verb, args, origin) VALUES (?, ?, ?, ?)");
    if (!stmt) return stmt.error();
    stmt->bind(1, searchId).bind(2, verb).bind(3, argsJson);
    if (origin.empty())
        stmt->bindNull(4);
    else
        stmt->bind(4, origin);
    return db_.insert(*stmt);
}

Result<std::vector<CommandRecord>> SearchStore::commandsOf(std::int64_t searchId) const {
    auto stmt = db_.prepare("SELECT id, search_id, verb, args, created_at, COALESCE(origin, ''), COALESCE(applied_at, ''), "
                            "COALESCE(outcome, '') FROM commands WHERE search_id = ? ORDER BY id");
    if (!stmt) return stmt.error();
    stmt->bind(1, searchId);
    return readAll<CommandRecord>(*stmt, [](const Statement& s) {
        return CommandRecord{s.int64(0), s.int64(1), s.text(2), s.text(3), s.text(4), s.text(5), s.text(6), s.text(7)};
    });
}

Result<std::vector<CommandRecord>> SearchStore::pendingCommands(std::int64_t searchId) const {
    auto stmt = db_.prepare(
        "SELECT id, search_id, verb, args, created_at FROM commands WHERE search_id = ? AND applied_at IS NULL ORDER BY id");
    if (!stmt) return stmt.error();
    stmt->bind(1, searchId);
    return readAll<CommandRecord>(*stmt, [](const Statement& s) {
        return CommandRecord{s.int64(0), s.int64(1), s.text(2), s.text(3), s.text(4), {}, {}, {}};
    });
}

Status SearchStore::markCommand(std::int64_t commandId, const std::string& outcome) const {
    auto stmt = db_.prepare("UPDATE commands SET applied_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), outcome = ? WHERE id = ?");
    if (!stmt) return stmt.error();
    stmt->bind(1, outcome).bind(2, commandId);
    return stmt->run();
}

Status SearchStore::appendEvent(std::int64_t searchId, const std::string& kind, const std::string& payload) const {
    return insertEvent(db_, searchId, kind, payload);
}

Result<std::int64_t> SearchStore::lastEventId(std::int64_t searchId) const {
    auto stmt = db_.prepare("SELECT COALESCE(MAX(id), 0) FROM events WHERE search_id = ?");
    if (!stmt) return stmt.error();
    stmt->bind(1, searchId);
    auto row = stmt->step();
    if (!row) return row.error();
    return *row ? stmt->int64(0) : 0;
}

Result<std::vector<EventRecord>> SearchStore::eventsAfter(std::int64_t searchId, std::int64_t afterId, int limit) const {
    auto stmt = db_.prepare("SELECT id, kind, payload FROM events WHERE search_id = ? AND id > ? ORDER BY id LIMIT ?");
    if (!stmt) return stmt.error();
    stmt->bind(1, searchId).bind(2, afterId).bind(3, static_cast<std::int64_t>(limit));
    return readAll<EventRecord>(*stmt, [](const Statement& s) { return EventRecord{s.int64(0), s.text(1), s.text(2)}; });
}

} // namespace kw::store
