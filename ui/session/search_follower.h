#pragma once
// Follows one search through the workspace database, whoever runs it (this
// process's engine thread, a CLI process, another machine writing to a shared
// file): reads the events table for ids past the last one seen, reloads the
// nodes they name, and delivers them as immutable batches to the UI thread.
// Lives on its own thread with its own read-only connection, so a slow disk
// never stalls the UI.
#include "tree/tree_snapshot.h"

#include <QtCore/QObject>
#include <QtCore/QString>

#include <filesystem>
#include <memory>

class QTimer;

namespace kw::store {
class Database;
}

namespace kw::ui {

class SearchFollower : public QObject {
    Q_OBJECT
  public:
    SearchFollower(std::filesystem::path database, qint64 searchId, int pollMs = 100);
    ~SearchFollower() override;

    qint64 searchId() const { return searchId_; }

  public slots:
    // Call on the follower's thread (queued): the first load, then polling.
    void start();
    void stop();

  signals:
    void nodes(const kw::ui::NodeBatch& batch); // new or changed nodes
    void ended(const QString& reason);          // the search_ended event
    void failed(const QString& message);        // the database cannot be read; polling stops

  private:
    void poll();

    std::filesystem::path database_;
    qint64 searchId_;
    int pollMs_;
    qint64 lastEvent_ = 0;
    std::unique_ptr<store::Database> db_;
    QTimer* timer_ = nullptr;
};

} // namespace kw::ui
