#pragma once
// Asks the index what a search would be given: a query, the node's signals
// and a platform, typed or taken from a node of a search in the workspace;
// shows the ranked documents with their scores, the section chosen, the
// triggers that matched and why. The same query the synthesizer builds
// (kb/node_query.h) and the same call (kb::KbIndex::search), so what shows
// here is what a prompt gets.
#include "kb/kb_index.h"
#include "store/database.h"

#include <QtWidgets/QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QSpinBox;
class QTableWidget;

namespace kw::ui {

class RetrievalTester : public QWidget {
    Q_OBJECT
  public:
    // `workspace` holds the searches whose nodes can be picked.
    RetrievalTester(const kb::KbIndex& index, const store::Database& workspace, QWidget* parent = nullptr);

    void setQuery(const QString& text, const QStringList& signalNames, const QString& platform);
    kb::RetrievalQuery query() const;
    // Fills the query from node `nodeId` of search `searchId` (its problem, status,
    // stored diagnosis and this host's platform) and runs it; the error says why not.
    Status useNode(qint64 searchId, qint64 nodeId);
    // The workspace's searches again (one may have started since).
    void updateSearches();
    // Runs the query; the table shows the ranking.
    void run();
    // The platform choices again (a new platform may have joined).
    void updatePlatforms();

    QTableWidget* results() const { return results_; }

  signals:
    void openDocument(const QString& id);

  private:
    const kb::KbIndex& index_;
    const store::Database& workspace_;
    QComboBox* search_;
    QSpinBox* node_;
    QLineEdit* text_;
    QListWidget* signals_;
    QComboBox* platform_;
    QSpinBox* limit_;
    QCheckBox* pending_;
    QTableWidget* results_;
    QLabel* message_;
};

} // namespace kw::ui
