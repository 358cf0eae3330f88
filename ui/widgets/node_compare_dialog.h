#pragma once
// Any two nodes of a search side by side: outcome, speedup, params and
// per-shape timings in one table, and the diff of their code as it ran
// (params baked in), so a change of params alone shows too. The nodes'
// details are read on a thread of its own; the dialog fills in when they come.
#include "inspect/node_details.h"
#include "tree/tree_snapshot.h"

#include <QtWidgets/QDialog>

#include <filesystem>

class QTextBrowser;

namespace kw::ui {

class CodeView;

class NodeCompareDialog : public QDialog {
    Q_OBJECT
  public:
    NodeCompareDialog(std::filesystem::path database, qint64 searchId, NodeSnapshot a, NodeSnapshot b, QWidget* parent = nullptr);

    // What the dialog shows once both nodes are read (tests read it).
    QString summaryHtml() const;
    const CodeView* diffView() const { return diff_; }

  signals:
    void loaded();

  private:
    void showNodes(const inspect::NodeDetails& a, const inspect::NodeDetails& b);
    void showError(const QString& message);

    NodeSnapshot a_, b_;
    QTextBrowser* summary_ = nullptr;
    CodeView* diff_ = nullptr;
};

} // namespace kw::ui
