#pragma once
// Runs a search started in the workbench on an engine thread of its own: the
// engine, its executor and its database connection live there and nowhere
// else. The UI follows the search like any other (SearchFollower reads what
// the engine writes) and stops it through the stop token.
#include "eval/executor_profiles.h"
#include "util/result.h"

#include <QtCore/QObject>
#include <QtCore/QString>

#include <atomic>
#include <filesystem>
#include <optional>
#include <stop_token>

namespace kw::store {
class Database;
}

namespace kw::ui {

struct SearchRequest {
    std::filesystem::path database;
    std::filesystem::path problemDir;
    QString configJson;                  // tree::SearchConfig as JSON (search_config_json.h)
    std::filesystem::path llmConfigFile; // LLM settings; empty: KW_LLM_CONFIG, else the default file
    double timeBudgetS = 0.5;            // timing per shape and evaluation, as the CLI's --time-budget
    eval::ExecutorChoice executor;       // where candidates run: this machine (default), ssh hosts, a Slurm cluster
    bool checkOnly = false;              // correctness only (no timing), as the CLI's --check-only
    // Resumes this search (problemDir and configJson unused) with this many
    // evaluations in all, as `search resume ID --budget N` does; 0: a new search.
    qint64 resumeSearchId = 0;
    qint64 resumeBudget = 0;
};

class SearchRunner : public QObject {
    Q_OBJECT
  public:
    explicit SearchRunner(SearchRequest request);

    // Thread-safe: asks the running engine to stop (evaluations in flight are cancelled).
    void requestStop() { stop_.request_stop(); }

  public slots:
    void run(); // on the engine thread; returns when the search ends

  signals:
    void started(qint64 searchId);
    // note: what else the end brought ("" or the skill it distilled, or why none).
    void finished(qint64 searchId, const QString& reason, const QString& note);
    void failed(const QString& message);
    void warning(const QString& message); // the search goes on

  private:
    // A resumed search's new budget, in its stored config (what the engine reads).
    Status raiseBudget(const store::Database& db) const;

    SearchRequest request_;
    std::stop_source stop_;
};

} // namespace kw::ui
