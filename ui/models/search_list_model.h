#pragma once
// The searches of a workspace, newest first: problem, status (and why it
// ended), evaluations, best speedup. Values handed over by the window, as in
// EvaluationListModel; the model never touches the database.
#include "store/search_store.h"

#include <QtCore/QAbstractTableModel>
#include <QtCore/QString>

#include <optional>
#include <vector>

namespace ks::ui {

struct SearchRow {
    qint64 id = 0;
    QString problem, status, stopReason, created, policy, synth;
    qint64 evaluations = 0, budget = 0;
    std::optional<double> bestSpeedup;

    static SearchRow fromRecord(const store::SearchRecord& record);
};

class SearchListModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { Id, Problem, Status, Evaluations, Best, Policy, Created, ColumnCount };

    explicit SearchListModel(QObject* parent = nullptr);

    void setSearches(std::vector<SearchRow> rows);
    const SearchRow& searchAt(int row) const;
    int rowOf(qint64 id) const; // -1 when absent

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<SearchRow> rows_;
};

} // namespace ks::ui
