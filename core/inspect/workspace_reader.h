#pragma once
// The workbench's typed read API over a workspace: values for a node's
// details, a search's summary, the list of searches and evaluations, and a
// search's LLM spend over time. One reader holds one read-only connection and
// is used on one thread (the UI's loaders each open their own).
#include "inspect/node_details.h"
#include "inspect/progress_curves.h"
#include "inspect/steering_timeline.h"
#include "store/evaluation_store.h"
#include "store/llm_call_store.h"
#include "store/search_store.h"
#include "util/result.h"

#include <filesystem>
#include <memory>
#include <vector>

namespace kw::store {
class Database;
}

namespace kw::inspect {

class WorkspaceReader {
  public:
    static Result<WorkspaceReader> open(const std::filesystem::path& database);
    // Creates the workspace or brings its schema up to date (one writing
    // connection for the moment), then opens it for reading.
    static Result<WorkspaceReader> prepare(const std::filesystem::path& database);
    WorkspaceReader(WorkspaceReader&&) noexcept;
    WorkspaceReader& operator=(WorkspaceReader&&) noexcept;
    ~WorkspaceReader();

    const std::filesystem::path& path() const;
    int schemaVersion() const;

    Result<NodeDetails> nodeDetails(std::int64_t searchId, std::int64_t nodeId) const;
    Result<store::SearchRecord> search(std::int64_t searchId) const;
    Result<std::vector<store::SearchRecord>> searches() const;
    Result<std::vector<store::EvaluationRecord>> recentEvaluations(int limit) const;
    // A number that changes whenever another connection (a search, the CLI,
    // another machine on a shared file) commits to the workspace: SQLite's
    // data_version, one cheap read for "is there anything new?".
    Result<std::int64_t> changeCounter() const;
    // Another process removed or replaced the workspace's write-ahead log
    // under this connection (store::Database::walReplaced): what it reads is
    // stale until every connection of this process to the file has closed.
    bool walReplaced() const;
    Result<std::vector<store::LlmSpendPoint>> spendTimeline(std::int64_t searchId) const;
    // Who steered the search, how and when (inspect/steering_timeline.h).
    Result<std::vector<SteeringEntry>> steeringTimeline(std::int64_t searchId) const;
    // Each search's best speedup against its evaluations, to lay side by side.
    Result<std::vector<ProgressCurve>> progressCurves(const std::vector<std::int64_t>& searchIds) const;
    // The node's kernel as one file, params baked in (report::standaloneKernel).
    Result<std::string> standaloneKernel(std::int64_t searchId, std::int64_t nodeId) const;
    // The search's self-contained review report (report::searchReportHtml).
    Result<std::string> reportHtml(std::int64_t searchId) const;

  private:
    explicit WorkspaceReader(std::unique_ptr<store::Database> db);
    std::unique_ptr<store::Database> db_;
};

} // namespace kw::inspect
