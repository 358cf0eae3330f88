#include "inspect/workspace_reader.h"

#include "profile/ncu_report.h"
#include "report/search_report.h"
#include "report/standalone_kernel.h"
#include "store/database.h"
#include "store/profile_store.h"

#include <nlohmann/json.hpp>

#include <map>

namespace kw::inspect {
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
    if (j.contains("ncu") && j["ncu"].is_array()) {
        std::vector<profile::NcuKernel> kernels;
        for (const auto& k : j["ncu"]) kernels.push_back(profile::ncuKernelFromJson(k));
        // The longest kernel speaks for the candidate, as in the diagnosis.
        if (const auto* k = profile::dominantKernel(kernels)) {
            p.ncuKernel = k->name.substr(0, k->name.find('('));
            const std::pair<const char*, double> shown[] = {{"duration (us)", k->durationNs / 1000},
                                                            {"DRAM throughput (%)", k->dramPct},
                                                            {"SM throughput (%)", k->smPct},
                                                            {"achieved occupancy (%)", k->achievedOccupancyPct},
                                                            {"theoretical occupancy (%)", k->theoreticalOccupancyPct},
                                                            {"grid size", k->gridSize},
                                                            {"block size", k->blockSize},
                                                            {"registers per thread", k->registersPerThread},
                                                            {"waves per SM", k->wavesPerSm},
                                                            {"local-memory bytes (spills)", k->localBytes},
                                                            {"shared bank conflicts", k->sharedBankConflicts},
                                                            {"global sectors per request", k->globalSectorsPerRequest},
                                                            {"L2 throughput (%)", k->l2Pct},
                                                            {"L1 hit rate (%)", k->l1HitPct},
                                                            {"L2 hit rate (%)", k->l2HitPct}};
            for (const auto& [label, v] : shown) p.ncuMetrics.emplace_back(label, v);
            if (!k->stalls.empty())
                p.ncuMetrics.emplace_back("top stall: " + k->stalls.front().first + " (per issue)", k->stalls.front().second);
        }
    }
    if (j.contains("breakdown")) p.breakdown = profile::breakdownFromJson(j["breakdown"]);
    if (j.contains("provenance")) p.provenance = profile::provenanceFromJson(j["provenance"]);
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

bool WorkspaceReader::walReplaced() const {
    return db_->walReplaced();
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
    // Up the tree: the parent (its source and profile), then on to the nearest
    // ancestor with ncu metrics, each node read once (a bounded walk: a
    // malformed workspace's parent links cannot loop it forever).
    std::int64_t up = node.parentId;
    for (int steps = 0; up && steps < 256 && !d.ncuBaseline; ++steps) {
        auto ancestor = ss.loadNodesById(searchId, {up});
        if (!ancestor || ancestor->empty()) break;
        const auto& a = ancestor->front();
        auto summary = profileOf(a.evaluationId);
        if (steps == 0) {
            if (auto text = ss.sourceText(a.sourceHash)) d.parentSource = *text;
            d.parentProfile = summary;
        }
        if (summary && !summary->ncuMetrics.empty()) {
            d.ncuBaseline = std::move(summary);
            d.ncuBaselineSeq = a.seq;
            d.ncuBaselineIsParent = steps == 0;
        }
        up = a.parentId;
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

Result<std::vector<SteeringEntry>> WorkspaceReader::steeringTimeline(std::int64_t searchId) const {
    store::SearchStore store(*db_);
    auto commands = store.commandsOf(searchId);
    if (!commands) return commands.error();
    std::vector<std::int64_t> ids;
    for (const auto& c : *commands) {
        const auto args = nlohmann::json::parse(c.argsJson, nullptr, false);
        if (args.is_object() && args.contains("node") && args["node"].is_number_integer())
            ids.push_back(args["node"].get<std::int64_t>());
    }
    std::map<std::int64_t, std::int64_t> seq;
    if (!ids.empty()) {
        auto nodes = store.loadNodesById(searchId, ids);
        if (!nodes) return nodes.error();
        for (const auto& n : *nodes) seq[n.id] = n.seq;
    }
    return inspect::steeringTimeline(*commands, seq);
}

Result<std::vector<ProgressCurve>> WorkspaceReader::progressCurves(const std::vector<std::int64_t>& searchIds) const {
    store::SearchStore store(*db_);
    std::vector<ProgressCurve> curves;
    for (const auto id : searchIds) {
        auto search = store.loadSearch(id);
        if (!search) return search.error();
        auto nodes = store.loadNodes(id);
        if (!nodes) return nodes.error();
        curves.push_back(progressCurve(*search, *nodes));
    }
    return curves;
}

Result<std::string> WorkspaceReader::standaloneKernel(std::int64_t searchId, std::int64_t nodeId) const {
    return report::standaloneKernel(*db_, searchId, nodeId);
}

Result<std::string> WorkspaceReader::reportHtml(std::int64_t searchId) const {
    return report::searchReportHtml(*db_, searchId);
}

} // namespace kw::inspect
