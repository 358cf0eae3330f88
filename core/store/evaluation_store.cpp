#include "store/evaluation_store.h"

namespace kw::store {
namespace {
constexpr const char* kColumns =
    "id, cache_key, problem, problem_hash, candidate_hash, params, status, speedup, result, created_at";
constexpr int kColumnCount = 10; // readRow's columns; any that a query adds come after

EvaluationRecord readRow(const Statement& s) {
    EvaluationRecord r;
    r.id = s.int64(0);
    r.cacheKey = s.text(1);
    r.problem = s.text(2);
    r.problemHash = s.text(3);
    r.candidateHash = s.text(4);
    r.paramsJson = s.text(5);
    r.status = s.text(6);
    if (!s.isNull(7)) r.speedup = s.real(7);
    r.resultJson = s.text(8);
    r.createdAt = s.text(9);
    return r;
}
} // namespace

Result<std::int64_t> EvaluationStore::insert(const EvaluationRecord& r) const {
    std::int64_t id = 0;
    auto status = db_.transaction([&]() -> Status {
        auto stmt = db_.prepare("INSERT INTO evaluations (cache_key, problem, problem_hash, candidate_hash, params, "
                                "status, speedup, result) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
        if (!stmt) return stmt.error();
        stmt->bind(1, r.cacheKey)
            .bind(2, r.problem)
            .bind(3, r.problemHash)
            .bind(4, r.candidateHash)
            .bind(5, r.paramsJson)
            .bind(6, r.status)
            .bind(7, r.speedup)
            .bind(8, r.resultJson);
        if (auto s = stmt->run(); !s) return s;
        id = db_.lastInsertId();
        auto event = db_.prepare("INSERT INTO events (kind, payload) VALUES ('evaluation', ?)");
        if (!event) return event.error();
        event->bind(1, "{\"evaluation\":" + std::to_string(id) + ",\"status\":\"" + r.status + "\"}");
        return event->run();
    });
    if (!status) return status.error();
    return id;
}

Result<std::optional<EvaluationRecord>> EvaluationStore::findCached(const std::string& cacheKey) const {
    auto stmt = db_.prepare(std::string("SELECT ") + kColumns +
                            " FROM evaluations WHERE cache_key = ? AND status != 'infra_error' ORDER BY id DESC LIMIT 1");
    if (!stmt) return stmt.error();
    stmt->bind(1, cacheKey);
    auto row = stmt->step();
    if (!row) return row.error();
    if (!*row) return std::optional<EvaluationRecord>{};
    return std::optional<EvaluationRecord>{readRow(*stmt)};
}

Result<std::vector<EvaluationRecord>> EvaluationStore::recent(int limit) const {
    // Each evaluation with the latest node that ran it (its search and number), looked up once.
    auto stmt = db_.prepare(std::string("SELECT e.*, n.search_id, n.seq FROM (SELECT ") + kColumns +
                            " FROM evaluations ORDER BY id DESC LIMIT ?) AS e"
                            " LEFT JOIN nodes n ON n.id = (SELECT max(id) FROM nodes WHERE evaluation_id = e.id)"
                            " ORDER BY e.id DESC");
    if (!stmt) return stmt.error();
    stmt->bind(1, static_cast<std::int64_t>(limit));
    return readAll<EvaluationRecord>(*stmt, [](const Statement& s) {
        EvaluationRecord r = readRow(s);
        if (!s.isNull(kColumnCount)) r.searchId = s.int64(kColumnCount);
        if (!s.isNull(kColumnCount + 1)) r.nodeSeq = s.int64(kColumnCount + 1);
        return r;
    });
}

Result<EvaluationRecord> EvaluationStore::find(std::int64_t id) const {
    auto stmt = db_.prepare(std::string("SELECT ") + kColumns + " FROM evaluations WHERE id = ?");
    if (!stmt) return stmt.error();
    stmt->bind(1, id);
    auto row = stmt->step();
    if (!row) return row.error();
    if (!*row) return makeError(ErrorCode::NotFound, "no evaluation " + std::to_string(id) + " in the workspace");
    return readRow(*stmt);
}

} // namespace kw::store
