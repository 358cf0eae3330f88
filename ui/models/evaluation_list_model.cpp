#include "models/evaluation_list_model.h"

#include <QtCore/QLocale>

namespace kw::ui {

EvaluationRow EvaluationRow::fromRecord(const store::EvaluationRecord& record) {
    EvaluationRow row;
    row.id = record.id;
    row.searchId = record.searchId;
    row.nodeSeq = record.nodeSeq;
    // The store writes UTC as "2024-05-01T12:00:00.123Z".
    row.createdAt = QDateTime::fromString(QString::fromStdString(record.createdAt), Qt::ISODateWithMs).toLocalTime();
    row.problem = QString::fromStdString(record.problem);
    row.status = QString::fromStdString(record.status);
    row.speedup = record.speedup;
    row.params = QString::fromStdString(record.paramsJson);
    return row;
}

EvaluationListModel::EvaluationListModel(QObject* parent)
    : RowTableModel({tr("Node"), tr("Time"), tr("Problem"), tr("Status"), tr("Speedup"), tr("Params")}, parent) {}

QVariant EvaluationListModel::cell(const EvaluationRow& row, int column, int role) const {
    if (role == Qt::TextAlignmentRole) {
        if (column == Speedup) return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    if (role == Qt::ToolTipRole && column == Params) return row.params;
    if (role == Qt::ToolTipRole && column == Node)
        return row.nodeSeq ? tr("evaluation %1, used by node #%2 of search %3").arg(row.id).arg(row.nodeSeq).arg(row.searchId)
                           : tr("evaluation %1, of no search's node (an eval or bench run)").arg(row.id);
    if (role != Qt::DisplayRole) return {};
    switch (column) {
    case Node:
        return row.nodeSeq ? tr("search %1 · #%2").arg(row.searchId).arg(row.nodeSeq) : QString();
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

} // namespace kw::ui
