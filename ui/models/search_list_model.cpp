#include "models/search_list_model.h"

#include "search/search_owner.h"

#include <nlohmann/json.hpp>

#include <QtCore/QDateTime>
#include <QtCore/QLocale>
#include <QtCore/QThread>
#include <QtGui/QFont>

namespace kw::ui {

SearchRow SearchRow::fromRecord(const store::SearchRecord& r) {
    SearchRow row;
    row.id = r.id;
    row.problem = QString::fromStdString(r.problem);
    // A search whose process died stays "running" in the store.
    row.interrupted = search::interrupted(r);
    row.status = row.interrupted ? QStringLiteral("interrupted") : QString::fromStdString(r.status);
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
    row.label = QString::fromStdString(r.label);
    row.notes = QString::fromStdString(r.notes);
    for (const auto& t : r.tags) row.tags << QString::fromStdString(t);
    row.archived = r.archived;
    return row;
}

void SearchListModel::setSearches(std::vector<SearchRow> rows) {
    all_ = std::move(rows);
    showRows();
}

void SearchListModel::setShowArchived(bool show) {
    if (show == showArchived_) return;
    showArchived_ = show;
    showRows();
}

void SearchListModel::showRows() {
    std::vector<SearchRow> shown;
    archivedHidden_ = 0;
    for (const auto& r : all_)
        if (!r.archived || showArchived_)
            shown.push_back(r);
        else
            ++archivedHidden_;
    setRows(std::move(shown));
}

SearchListModel::SearchListModel(QObject* parent)
    : RowTableModel({tr("#"), tr("Name"), tr("Problem"), tr("Status"), tr("Evaluations"), tr("Best"), tr("Policy"), tr("Tags"),
                     tr("Created")},
                    parent) {}

QVariant SearchListModel::cell(const SearchRow& r, int column, int role) const {
    if (role == Qt::TextAlignmentRole) {
        if (column == Id || column == Evaluations || column == Best)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    if (role == Qt::ToolTipRole && column == Status && r.interrupted)
        return tr("marked running, but the process that ran it is gone; `kernelwright-cli search resume %1` goes on with it")
            .arg(r.id);
    if (role == Qt::ToolTipRole && column == Status && !r.stopReason.isEmpty()) return tr("ended: %1").arg(r.stopReason);
    if (role == Qt::ToolTipRole && (column == Name || column == Id) && !r.notes.isEmpty()) return r.notes;
    if (role == Qt::FontRole && r.archived) {
        QFont italic;
        italic.setItalic(true);
        return italic;
    }
    if (role != Qt::DisplayRole) return {};
    switch (column) {
    case Id:
        return r.id;
    case Name:
        return r.archived ? tr("%1 (archived)").arg(r.label).trimmed() : r.label;
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
    case Tags:
        return r.tags.join(QStringLiteral(", "));
    case Created:
        return r.created;
    default:
        return {};
    }
}

} // namespace kw::ui
