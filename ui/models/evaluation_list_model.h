#pragma once
// The newest evaluations of a workspace, newest first. The window reads them
// from the store and hands them over as values; the model never touches the
// database, so a later version can read on a worker thread unchanged.
#include "store/evaluation_store.h"

#include <QtCore/QAbstractTableModel>
#include <QtCore/QDateTime>
#include <QtCore/QString>

#include <optional>
#include <vector>

namespace ks::ui {

// What the list shows of one evaluation; the result JSON (logs, samples) is
// left behind in the store.
struct EvaluationRow {
    qint64 id = 0;
    QDateTime createdAt; // local time; invalid when the store's text did not parse
    QString problem;
    QString status;
    std::optional<double> speedup;
    QString params; // the assignment as JSON text

    static EvaluationRow fromRecord(const store::EvaluationRecord& record);
};

class EvaluationListModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { Id, Time, Problem, Status, Speedup, Params, ColumnCount };

    explicit EvaluationListModel(QObject* parent = nullptr);

    void setEvaluations(std::vector<EvaluationRow> rows);
    void clear() { setEvaluations({}); }
    const EvaluationRow& evaluationAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<EvaluationRow> rows_;
};

} // namespace ks::ui
