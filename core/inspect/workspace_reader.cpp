#include "inspect/workspace_reader.h"

#include "report/search_report.h"
#include "report/standalone_kernel.h"
#include "store/database.h"
#include "store/profile_store.h"

#include <nlohmann/json.hpp>

namespace ks::inspect {
namespace {

std::optional<ProfileSummary> summarize(const store::ProfileRecord& rec) {
    ProfileSummary p;
    p.level = rec.level;
    const auto j = nlohmann::json::parse(rec.reportJson, nullptr, false);
    if (!j.is_object()) return p;
    if (j.contains("roofline") && j["roofline"].is_object() && j["roofline"].contains("total")) {
        const auto& t = j["roofline"]["total"];
        if (t.is_object()) {
            p.hasRoofline = true;
            p.gbs = t.value("gbs", 0.0);
            p.gflops = t.value("gflops", 0.0);
            p.rooflineFraction = t.value("roofline_fraction", 0.0);
            p.intensity = t.value("intensity", 0.0);
        }
        if (const auto& r = j["roofline"]; r.contains("roofs") && r["roofs"].is_object()) {
            p.roofBandwidthGBs = r["roofs"].value("bandwidth_gbs", 0.0);
            p.roofGflops = r["roofs"].value("peak_gflops", 0.0);
            p.device = r["roofs"].value("device", std::string());
        }
    }
    if (j.contains("ncu") && j["ncu"].is_array() && !j["ncu"].empty()) {
        // The longest kernel speaks for the candidate, as in the diagnosis.
        const nlohmann::json* longest = nullptr;
        for (const auto& k : j["ncu"])
            if (k.is_object() && (!longest || k.value("duration_ns", 0.0) > longest->value("duration_ns", 0.0))) longest = &k;
        if (longest) {
            const auto& k = *longest;
            const std::string name = k.value("name", std::string());
            p.ncuKernel = name.substr(0, name.find('('));
            const std::pair<const char*, const char*> shown[] = {{"duration (us)", "duration_ns"},
                                                                 {"DRAM throughput (%)", "dram_pct"},
                                                                 {"SM throughput (%)", "sm_pct"},
                                                                 {"achieved occupancy (%)", "achieved_occupancy_pct"},
                                                                 {"theoretical occupancy (%)", "theoretical_occupancy_pct"},
                                                                 {"grid size", "grid_size"},
                                                                 {"block size", "block_size"},
                                                                 {"registers per thread", "registers_per_thread"},
                                                                 {"waves per SM", "waves_per_sm"},
                                                                 {"local-memory bytes (spills)", "local_bytes"},
                                                                 {"shared bank conflicts", "shared_bank_conflicts"},
                                                                 {"global sectors per request", "global_sectors_per_request"}};
            for (const auto& [label, key] : shown) {
                if (!k.contains(key) || !k[key].is_number()) continue;
                double v = k[key].get<double>();
                if (std::string(key) == "duration_ns" && v >= 0) v /= 1000;
                p.ncuMetrics.emplace_back(label, v);
            }
            if (k.contains("stalls") && k["stalls"].is_array() && !k["stalls"].empty() && k["stalls"][0].is_object())
                p.ncuMetrics.emplace_back("top stall: " + k["stalls"][0].value("reason", std::string()) + " (per issue)",
                                          k["stalls"][0].value("per_issue", -1.0));
        }
    }
    if (j.contains("breakdown")) p.breakdown = profile::breakdownFromJson(j["breakdown"]);
    if (j.contains("signals") && j["signals"].is_array())
        for (const auto& s : j["signals"])
            if (s.is_object()) p.findings.emplace_back(s.value("signal", std::string()), s.value("evidence", std::string()));
    return p;
}

} // namespace

WorkspaceReader::WorkspaceReader(std::unique_ptr<store::Database> db) : db_(std::move(db)) {}
WorkspaceReader::WorkspaceReader(WorkspaceReader&&) noexcept = default;
WorkspaceReader& WorkspaceReader::operator=(WorkspaceReader&&) noexcept = default;
WorkspaceReader::~WorkspaceReader() = default;

Result<WorkspaceReader> WorkspaceReader::open(const std::filesystem::path& database) {
    auto db = store::Database::open(database, store::Database::Mode::ReadOnly);
    if (!db) return db.error();
    return WorkspaceReader(std::make_unique<store::Database>(std::move(*db)));
}

Result<WorkspaceReader> WorkspaceReader::prepare(const std::filesystem::path& database) {
    {
        auto writable = store::Database::open(database);
        if (!writable) return writable.error();
    }
    return open(database);
}

const std::filesystem::path& WorkspaceReader::path() const {
    return db_->path();
}

int WorkspaceReader::schemaVersion() const {
    return db_->schemaVersion();
}

Result<NodeDetails> WorkspaceReader::nodeDetails(std::int64_t searchId, std::int64_t nodeId) const {
    store::SearchStore ss(*db_);
    auto nodes = ss.loadNodesById(searchId, {nodeId});
    if (!nodes) return nodes.error();
    if (nodes->empty())
        return makeError(ErrorCode::NotFound, "search " + std::to_string(searchId) + " has no node " + std::to_string(nodeId));
    const auto& node = nodes->front();
    NodeDetails d;
    d.searchId = searchId;
    d.nodeId = nodeId;
    d.parentId = node.parentId;
    if (auto text = ss.sourceText(node.sourceHash)) d.source = *text;
    if (auto baked = report::standaloneKernel(*db_, searchId, nodeId)) d.asRun = std::move(*baked);
    // The parent's and the search's best node's profiles, to place beside this one.
    const auto profileOf = [&](std::int64_t evaluationId) -> std::optional<ProfileSummary> {
        if (!evaluationId) return std::nullopt;
        auto profile = store::ProfileStore(*db_).latest(evaluationId);
        if (!profile || !*profile) return std::nullopt;
        return summarize(**profile);
    };
    if (node.parentId)
        if (auto parents = ss.loadNodesById(searchId, {node.parentId}); parents && !parents->empty()) {
            if (auto text = ss.sourceText(parents->front().sourceHash)) d.parentSource = *text;
            d.parentProfile = profileOf(parents->front().evaluationId);
        }
    if (node.evaluationId) {
        auto rec = store::EvaluationStore(*db_).find(node.evaluationId);
        auto result = rec ? eval::parseResultJson(rec->resultJson) : Result<eval::EvaluationResult>(rec.error());
        if (result)
            d.evaluation = std::move(*result);
        else
            d.evaluationError = result.error().message;
        d.profile = profileOf(node.evaluationId);
    }
    if (auto search = ss.loadSearch(searchId); search && search->bestNode && *search->bestNode != nodeId)
        if (auto best = ss.loadNodesById(searchId, {*search->bestNode}); best && !best->empty())
            d.bestProfile = profileOf(best->front().evaluationId);
    store::LlmCallStore calls(*db_);
    if (auto call = calls.forNode(nodeId); call && *call) {
        if (auto docs = calls.retrievedDocs((*call)->id)) d.retrievedDocs = std::move(*docs);
        d.llmCall = std::move(**call);
    }
    return d;
}

Result<store::SearchRecord> WorkspaceReader::search(std::int64_t searchId) const {
    return store::SearchStore(*db_).loadSearch(searchId);
}

Result<std::vector<store::SearchRecord>> WorkspaceReader::searches() const {
    return store::SearchStore(*db_).listSearches();
}

Result<std::vector<store::EvaluationRecord>> WorkspaceReader::recentEvaluations(int limit) const {
    return store::EvaluationStore(*db_).recent(limit);
}

Result<std::int64_t> WorkspaceReader::changeCounter() const {
    auto stmt = db_->prepare("PRAGMA data_version");
    if (!stmt) return stmt.error();
    auto row = stmt->step();
    if (!row) return row.error();
    return *row ? stmt->int64(0) : 0;
}

Result<std::vector<store::LlmSpendPoint>> WorkspaceReader::spendTimeline(std::int64_t searchId) const {
    return store::LlmCallStore(*db_).spendTimeline(searchId);
}

Result<std::string> WorkspaceReader::standaloneKernel(std::int64_t searchId, std::int64_t nodeId) const {
    return report::standaloneKernel(*db_, searchId, nodeId);
}

Result<std::string> WorkspaceReader::reportHtml(std::int64_t searchId) const {
    return report::searchReportHtml(*db_, searchId);
}

} // namespace ks::inspect
