#pragma once
// Nodes timed again alone (search/node_retime.h), from the tree's menu or
// the table's selection: a row a node, what the search measured beside the
// re-timing, filled in as each one finishes. The jobs run on a thread of
// their own, one after another, on this machine; closing the dialog stops
// after the node being timed.
#include "search/node_retime.h"

#include <QtWidgets/QDialog>

#include <filesystem>
#include <stop_token>
#include <vector>

class QLabel;
class QTableWidget;
class QThread;

namespace kw::ui {

class RetimeDialog : public QDialog {
    Q_OBJECT
  public:
    // nodes: workspace ids with their numbers in the search (#N), in the order to time them.
    RetimeDialog(const std::filesystem::path& database, qint64 searchId, std::vector<std::pair<qint64, qint64>> nodes,
                 double timeBudgetS = 2.0, QWidget* parent = nullptr);
    ~RetimeDialog() override;
    QTableWidget* table() const { return table_; }
    const std::vector<search::RetimeRow>& rows() const { return rows_; }

  signals:
    void rowTimed(int row);
    void allTimed(); // every node timed, or the reason none could be

  protected:
    void closeEvent(QCloseEvent* event) override;

  private:
    void showRow(const search::RetimeRow& row);
    void showEnd(const QString& error);

    QLabel* status_ = nullptr;
    QTableWidget* table_ = nullptr;
    QThread* worker_ = nullptr;
    std::stop_source stop_;
    std::vector<search::RetimeRow> rows_;
    int total_ = 0;
};

} // namespace kw::ui
