#pragma once
// Keeps the workbench's Searches and Recent evaluations docks current without
// F5: on a thread of its own with its own read-only connection, it polls the
// workspace's change counter and, when anything was committed (a search
// started from the CLI, an evaluation, a search that finished), reads the
// searches and the recent evaluations and delivers them as immutable values
// to the UI thread.
#include "models/evaluation_list_model.h"
#include "models/search_list_model.h"

#include <QtCore/QObject>
#include <QtCore/QString>

#include <filesystem>
#include <memory>
#include <vector>

class QTimer;

namespace kw::inspect {
class WorkspaceReader;
}

namespace kw::ui {

struct WorkspaceLists {
    std::vector<SearchRow> searches;        // newest first
    std::vector<EvaluationRow> evaluations; // newest first
};

class WorkspaceWatcher : public QObject {
    Q_OBJECT
  public:
    WorkspaceWatcher(std::filesystem::path database, int evaluationLimit, int pollMs = 500);
    ~WorkspaceWatcher() override;

  public slots:
    // On the watcher's thread (queued): the first read, then polling.
    void start();
    void stop();

  signals:
    void changed(std::shared_ptr<const kw::ui::WorkspaceLists> lists);
    void failed(const QString& message); // the workspace cannot be read; polling stops
    // Another process removed the workspace's write-ahead log under this
    // process's connections; polling stops. Only closing them all and
    // opening the workspace again reads it as it is.
    void filesReplaced();

  private:
    void poll();

    std::filesystem::path database_;
    int evaluationLimit_;
    int pollMs_;
    std::int64_t lastCounter_ = -1;
    std::unique_ptr<inspect::WorkspaceReader> reader_;
    QTimer* timer_ = nullptr;
};

} // namespace kw::ui

Q_DECLARE_METATYPE(std::shared_ptr<const kw::ui::WorkspaceLists>)
