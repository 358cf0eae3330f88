#include "models/evaluation_list_model.h"

#include <QtCore/QLocale>
#include <QtCore/QThread>

namespace ks::ui {

EvaluationRow EvaluationRow::fromRecord(const store::EvaluationRecord& record) {
    EvaluationRow row;
    row.id = record.id;
    // The store writes UTC as "2024-05-01T12:00:00.123Z".
    row.createdAt = QDateTime::fromString(QString::fromStdString(record.createdAt), Qt::ISODateWithMs).toLocalTime();
    row.problem = QString::fromStdString(record.problem);
    row.status = QString::fromStdString(record.status);
    row.speedup = record.speedup;
    row.params = QString::fromStdString(record.paramsJson);
    return row;
}

EvaluationListModel::EvaluationListModel(QObject* parent) : QAbstractTableModel(parent) {}

void EvaluationListModel::setEvaluations(std::vector<EvaluationRow> rows) {
    Q_ASSERT(QThread::currentThread() == thread());
    beginResetModel();
    rows_ = std::move(rows);
    endResetModel();
}

const EvaluationRow& EvaluationListModel::evaluationAt(int row) const {
    Q_ASSERT(row >= 0 && static_cast<std::size_t>(row) < rows_.size());
    return rows_[static_cast<std::size_t>(row)];
}

int EvaluationListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int EvaluationListModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant EvaluationListModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const auto& row = rows_[static_cast<std::size_t>(index.row())];
    if (role == Qt::TextAlignmentRole) {
        if (index.column() == Id || index.column() == Speedup) return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    if (role == Qt::ToolTipRole && index.column() == Params) return row.params;
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case Id:
        return row.id;
    case Time:
        return row.createdAt.isValid() ? row.createdAt.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) : QString();
    case Problem:
        return row.problem;
    case Status:
        return row.status;
    case Speedup:
        // Only a correct candidate has a speedup; an empty cell says "not measured", not 0.
        return row.speedup ? QStringLiteral("%1×").arg(QLocale().toString(*row.speedup, 'f', 2)) : QString();
    case Params:
        return row.params;
    default:
        return {};
    }
}

QVariant EvaluationListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Id:
        return tr("#");
    case Time:
        return tr("Time");
    case Problem:
        return tr("Problem");
    case Status:
        return tr("Status");
    case Speedup:
        return tr("Speedup");
    case Params:
        return tr("Params");
    default:
        return {};
    }
}

} // namespace ks::ui
