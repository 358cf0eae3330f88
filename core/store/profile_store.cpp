#include "store/profile_store.h"

#include "util/text.h"

namespace kw::store {
namespace {

// Deeper levels sort later: the latest() of an evaluation is its deepest profile.
constexpr const char* kSelect =
    "SELECT id, evaluation_id, level, report, diagnosis, machine, created_at FROM profiles WHERE evaluation_id = ? "
    "ORDER BY CASE level WHEN 'roofline' THEN 1 WHEN 'counters' THEN 2 WHEN 'cachegrind' THEN 3 WHEN 'ncu' THEN 4 ELSE 0 END, id";

} // namespace

Status ProfileStore::save(const ProfileRecord& r) const {
    auto stmt =
        db_.prepare("INSERT INTO profiles (evaluation_id, level, report, diagnosis, machine) VALUES (?, ?, ?, ?, ?) "
                    "ON CONFLICT (evaluation_id, level) DO UPDATE SET report = excluded.report, diagnosis = excluded.diagnosis, "
                    "machine = excluded.machine, created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')");
    if (!stmt) return stmt.error();
    stmt->bind(1, r.evaluationId).bind(2, r.level).bind(3, r.reportJson).bind(4, joinComma(r.diagnosis)).bind(5, r.machine);
    return stmt->run();
}

Result<std::vector<ProfileRecord>> ProfileStore::all(std::int64_t evaluationId) const {
    auto stmt = db_.prepare(kSelect);
    if (!stmt) return stmt.error();
    stmt->bind(1, evaluationId);
    return readAll<ProfileRecord>(*stmt, [](const Statement& s) {
        return ProfileRecord{s.int64(0), s.int64(1), s.text(2), s.text(3), splitComma(s.text(4)), s.text(5), s.text(6)};
    });
}

Result<std::optional<ProfileRecord>> ProfileStore::latest(std::int64_t evaluationId) const {
    auto rows = all(evaluationId);
    if (!rows) return rows.error();
    if (rows->empty()) return std::optional<ProfileRecord>{};
    return std::optional<ProfileRecord>{rows->back()};
}

} // namespace kw::store
