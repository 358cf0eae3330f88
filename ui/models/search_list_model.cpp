#include "models/search_list_model.h"

#include <nlohmann/json.hpp>

#include <QtCore/QDateTime>
#include <QtCore/QLocale>
#include <QtCore/QThread>

namespace ks::ui {

SearchRow SearchRow::fromRecord(const store::SearchRecord& r) {
    SearchRow row;
    row.id = r.id;
    row.problem = QString::fromStdString(r.problem);
    row.status = QString::fromStdString(r.status);
    row.stopReason = QString::fromStdString(r.stopReason);
    row.evaluations = r.evaluations;
    row.bestSpeedup = r.bestSpeedup;
    const auto created = QDateTime::fromString(QString::fromStdString(r.createdAt), Qt::ISODateWithMs).toLocalTime();
    row.created = created.isValid() ? created.toString(QStringLiteral("yyyy-MM-dd HH:mm")) : QString::fromStdString(r.createdAt);
    const auto cfg = nlohmann::json::parse(r.configJson, nullptr, false);
    if (cfg.is_object()) {
        row.policy = QString::fromStdString(cfg.value("policy", std::string()));
        row.synth = QString::fromStdString(cfg.value("synth", std::string()));
        row.budget = cfg.value("max_evaluations", 0);
    }
    return row;
}

SearchListModel::SearchListModel(QObject* parent) : QAbstractTableModel(parent) {}

void SearchListModel::setSearches(std::vector<SearchRow> rows) {
    Q_ASSERT(QThread::currentThread() == thread());
    beginResetModel();
    rows_ = std::move(rows);
    endResetModel();
}

const SearchRow& SearchListModel::searchAt(int row) const {
    Q_ASSERT(row >= 0 && static_cast<std::size_t>(row) < rows_.size());
    return rows_[static_cast<std::size_t>(row)];
}

int SearchListModel::rowOf(qint64 id) const {
    for (std::size_t i = 0; i < rows_.size(); ++i)
        if (rows_[i].id == id) return static_cast<int>(i);
    return -1;
}

int SearchListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int SearchListModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SearchListModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const auto& r = rows_[static_cast<std::size_t>(index.row())];
    if (role == Qt::TextAlignmentRole) {
        if (index.column() == Id || index.column() == Evaluations || index.column() == Best)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    if (role == Qt::ToolTipRole && index.column() == Status && !r.stopReason.isEmpty()) return tr("ended: %1").arg(r.stopReason);
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case Id:
        return r.id;
    case Problem:
        return r.problem;
    case Status:
        return r.stopReason.isEmpty() ? r.status : QStringLiteral("%1 (%2)").arg(r.status, r.stopReason);
    case Evaluations:
        return r.budget > 0 ? QStringLiteral("%1 / %2").arg(r.evaluations).arg(r.budget) : QString::number(r.evaluations);
    case Best:
        return r.bestSpeedup ? QStringLiteral("%1×").arg(QLocale().toString(*r.bestSpeedup, 'f', 2)) : QString();
    case Policy:
        return r.synth.isEmpty() ? r.policy : QStringLiteral("%1, %2").arg(r.policy, r.synth);
    case Created:
        return r.created;
    default:
        return {};
    }
}

QVariant SearchListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Id:
        return tr("#");
    case Problem:
        return tr("Problem");
    case Status:
        return tr("Status");
    case Evaluations:
        return tr("Evaluations");
    case Best:
        return tr("Best");
    case Policy:
        return tr("Policy");
    case Created:
        return tr("Created");
    default:
        return {};
    }
}

} // namespace ks::ui
