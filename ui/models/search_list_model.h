#pragma once
// The searches of a workspace, newest first: problem, status (and why it
// ended), evaluations, best speedup. Values handed over by the window, as in
// EvaluationListModel; the model never touches the database.
#include "store/search_store.h"

#include "models/row_table_model.h"

#include <QtCore/QString>

#include <optional>
#include <vector>

namespace kw::ui {

struct SearchRow {
    qint64 id = 0;
    QString problem, status, stopReason, created, policy, synth;
    qint64 evaluations = 0, budget = 0;
    std::optional<double> bestSpeedup;
    bool interrupted = false; // marked running, its process gone

    static SearchRow fromRecord(const store::SearchRecord& record);
};

class SearchListModel : public RowTableModel<SearchRow> {
    Q_OBJECT
  public:
    enum Column { Id, Problem, Status, Evaluations, Best, Policy, Created, ColumnCount };

    explicit SearchListModel(QObject* parent = nullptr);

    void setSearches(std::vector<SearchRow> rows) { setRows(std::move(rows)); }
    const SearchRow& searchAt(int row) const { return rowAt(row); }

  protected:
    QVariant cell(const SearchRow& row, int column, int role) const override;
};

} // namespace kw::ui
