#pragma once
// The newest evaluations of a workspace, newest first. The window reads them
// from the store and hands them over as values; the model never touches the
// database, so a later version can read on a worker thread unchanged.
#include "store/evaluation_store.h"

#include "models/row_table_model.h"

#include <QtCore/QDateTime>
#include <QtCore/QString>

#include <optional>
#include <vector>

namespace kw::ui {

// What the list shows of one evaluation; the result JSON (logs, samples) is
// left behind in the store.
struct EvaluationRow {
    qint64 id = 0;
    qint64 searchId = 0, nodeSeq = 0; // the newest node that used it (0: none)
    QDateTime createdAt;              // local time; invalid when the store's text did not parse
    QString problem;
    QString status;
    std::optional<double> speedup;
    QString params; // the assignment as JSON text

    static EvaluationRow fromRecord(const store::EvaluationRecord& record);
};

class EvaluationListModel : public RowTableModel<EvaluationRow> {
    Q_OBJECT
  public:
    // Node: the search and the node's number in it, as the tree shows them
    // (the evaluation's own id is in the tooltip).
    enum Column { Node, Time, Problem, Status, Speedup, Params, ColumnCount };

    explicit EvaluationListModel(QObject* parent = nullptr);

    void setEvaluations(std::vector<EvaluationRow> rows) { setRows(std::move(rows)); }
    void clear() { setRows({}); }
    const EvaluationRow& evaluationAt(int row) const { return rowAt(row); }

  protected:
    QVariant cell(const EvaluationRow& row, int column, int role) const override;
};

} // namespace kw::ui
