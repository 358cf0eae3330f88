#include "store/llm_call_store.h"

namespace kw::store {
namespace {
constexpr const char* kColumns =
    "id, search_id, parent_node_id, node_id, provider, model_name, model, system_prompt, prompt, prompt_cut, "
    "reply, reasoning, input_tokens, output_tokens, usage_estimated, cost_usd, latency_s, attempts, status, "
    "error, created_at";

LlmCallRecord readCall(const Statement& s) {
    LlmCallRecord r;
    r.id = s.int64(0);
    r.searchId = s.isNull(1) ? 0 : s.int64(1);
    r.parentNodeId = s.isNull(2) ? 0 : s.int64(2);
    r.nodeId = s.isNull(3) ? 0 : s.int64(3);
    r.provider = s.text(4);
    r.modelName = s.text(5);
    r.model = s.text(6);
    r.systemPrompt = s.text(7);
    r.prompt = s.text(8);
    r.promptCutJson = s.text(9);
    r.reply = s.text(10);
    r.reasoning = s.text(11);
    r.inputTokens = s.int64(12);
    r.outputTokens = s.int64(13);
    r.usageEstimated = s.int64(14) != 0;
    r.costUsd = s.real(15);
    r.latencyS = s.real(16);
    r.attempts = static_cast<int>(s.int64(17));
    r.status = s.text(18);
    r.error = s.text(19);
    r.createdAt = s.text(20);
    return r;
}

void bindOptionalId(Statement& s, int index, std::int64_t id) {
    if (id > 0)
        s.bind(index, id);
    else
        s.bindNull(index);
}
} // namespace

Result<std::int64_t> LlmCallStore::insert(const LlmCallRecord& r) const {
    auto stmt =
        db_.prepare("INSERT INTO llm_calls (search_id, parent_node_id, node_id, provider, model_name, model, system_prompt, "
                    "prompt, prompt_cut, reply, "
                    "reasoning, input_tokens, output_tokens, usage_estimated, cost_usd, latency_s, attempts, status, error) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    if (!stmt) return stmt.error();
    bindOptionalId(*stmt, 1, r.searchId);
    bindOptionalId(*stmt, 2, r.parentNodeId);
    bindOptionalId(*stmt, 3, r.nodeId);
    stmt->bind(4, r.provider)
        .bind(5, r.modelName)
        .bind(6, r.model)
        .bind(7, r.systemPrompt)
        .bind(8, r.prompt)
        .bind(9, r.promptCutJson);
    stmt->bind(10, r.reply).bind(11, r.reasoning).bind(12, r.inputTokens).bind(13, r.outputTokens);
    stmt->bind(14, static_cast<std::int64_t>(r.usageEstimated ? 1 : 0)).bind(15, r.costUsd).bind(16, r.latencyS);
    stmt->bind(17, static_cast<std::int64_t>(r.attempts)).bind(18, r.status).bind(19, r.error);
    return db_.insert(*stmt);
}

Status LlmCallStore::attachNode(std::int64_t callId, std::int64_t nodeId) const {
    auto stmt = db_.prepare("UPDATE llm_calls SET node_id = ? WHERE id = ?");
    if (!stmt) return stmt.error();
    stmt->bind(1, nodeId).bind(2, callId);
    return stmt->run();
}

Result<std::vector<LlmCallRecord>> LlmCallStore::forSearch(std::int64_t searchId) const {
    auto stmt = db_.prepare(std::string("SELECT ") + kColumns + " FROM llm_calls WHERE search_id = ? ORDER BY id");
    if (!stmt) return stmt.error();
    stmt->bind(1, searchId);
    return readAll<LlmCallRecord>(*stmt, readCall);
}

Result<std::optional<LlmCallRecord>> LlmCallStore::forNode(std::int64_t nodeId) const {
    auto stmt = db_.prepare(std::string("SELECT ") + kColumns + " FROM llm_calls WHERE node_id = ? ORDER BY id DESC LIMIT 1");
    if (!stmt) return stmt.error();
    stmt->bind(1, nodeId);
    auto row = stmt->step();
    if (!row) return row.error();
    if (!*row) return std::optional<LlmCallRecord>();
    return std::optional<LlmCallRecord>(readCall(*stmt));
}

Result<LlmSpend> LlmCallStore::spend(std::int64_t searchId) const {
    auto stmt = db_.prepare("SELECT COUNT(*), COALESCE(SUM(input_tokens + output_tokens), 0), COALESCE(SUM(cost_usd), 0) FROM "
                            "llm_calls WHERE search_id = ?");
    if (!stmt) return stmt.error();
    stmt->bind(1, searchId);
    auto row = stmt->step();
    if (!row) return row.error();
    LlmSpend spend;
    if (*row) {
        spend.calls = stmt->int64(0);
        spend.tokens = stmt->int64(1);
        spend.costUsd = stmt->real(2);
    }
    return spend;
}

Result<std::vector<LlmSpendPoint>> LlmCallStore::spendTimeline(std::int64_t searchId) const {
    auto stmt =
        db_.prepare("SELECT created_at, input_tokens + output_tokens, cost_usd FROM llm_calls WHERE search_id = ? ORDER BY id");
    if (!stmt) return stmt.error();
    stmt->bind(1, searchId);
    return readAll<LlmSpendPoint>(*stmt, [](const Statement& s) { return LlmSpendPoint{s.text(0), s.int64(1), s.real(2)}; });
}

Status LlmCallStore::recordRetrieval(std::int64_t callId, std::int64_t nodeId, const std::string& docId,
                                     const std::string& section, double score, const std::string& reason) const {
    auto stmt =
        db_.prepare("INSERT INTO kb_retrievals (llm_call_id, node_id, doc_id, section, score, reason) VALUES (?, ?, ?, ?, ?, ?)");
    if (!stmt) return stmt.error();
    stmt->bind(1, callId);
    bindOptionalId(*stmt, 2, nodeId);
    stmt->bind(3, docId).bind(4, section).bind(5, score).bind(6, reason);
    return stmt->run();
}

Result<std::vector<RetrievedDoc>> LlmCallStore::retrievedDocs(std::int64_t callId) const {
    // The title from the index as it is now; a document removed since keeps its id.
    auto stmt = db_.prepare("SELECT r.doc_id, coalesce(d.title, ''), r.section, r.score, r.reason FROM kb_retrievals r "
                            "LEFT JOIN kb_docs d ON d.id = r.doc_id WHERE r.llm_call_id = ? ORDER BY r.id");
    if (!stmt) return stmt.error();
    stmt->bind(1, callId);
    return readAll<RetrievedDoc>(*stmt, [](const Statement& s) {
        RetrievedDoc d;
        d.docId = s.text(0);
        d.title = s.text(1);
        d.section = s.text(2);
        d.score = s.real(3);
        d.reason = s.text(4);
        return d;
    });
}

} // namespace kw::store
