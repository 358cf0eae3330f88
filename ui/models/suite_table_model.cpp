#include "models/suite_table_model.h"

#include "theme/app_theme.h"

#include <QtCore/QLocale>
#include <QtGui/QBrush>
#include <QtGui/QPalette>

#include <map>

namespace ks::ui {

std::vector<SuiteRow> suiteRows(const suite::Suite& s, const std::vector<suite::Entry>& entries) {
    std::map<std::string, const suite::Entry*> byName;
    for (const auto& e : entries) byName[e.problem] = &e;
    std::vector<SuiteRow> rows;
    for (const auto& dir : s.problems) {
        SuiteRow r;
        r.problem = QString::fromStdString(dir.filename().string());
        if (auto it = byName.find(dir.filename().string()); it != byName.end()) {
            const auto& e = *it->second;
            r.ran = true;
            r.status = QString::fromStdString(e.status);
            r.message = QString::fromStdString(e.message);
            r.speedup = e.speedup;
            r.speedupCompile = e.speedupCompile;
            r.wallS = e.wallS;
            r.searchId = e.searchId;
        } else {
            r.status = QObject::tr("not run");
        }
        rows.push_back(std::move(r));
    }
    return rows;
}

SuiteTableModel::SuiteTableModel(QObject* parent)
    : RowTableModel({tr("Problem"), tr("Status"), tr("vs eager"), tr("vs torch.compile"), tr("Wall"), tr("Search")}, parent) {}

QVariant SuiteTableModel::cell(const SuiteRow& r, int column, int role) const {
    const auto times = [](const std::optional<double>& s) {
        return s ? QStringLiteral("%1×").arg(QLocale().toString(*s, 'f', 3)) : QString();
    };
    if (role == Qt::TextAlignmentRole)
        return column >= VsEager ? QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    const bool offItself = referenceMode_ && column == VsEager && r.speedup && !suite::agreesWithItself(*r.speedup);
    if (role == Qt::ToolTipRole) {
        if (offItself)
            return tr("The reference against itself read %1: outside 1.00 ± 0.03, where a judge that times the same code "
                      "twice alike reads 1.00")
                .arg(times(r.speedup));
        if (!r.message.isEmpty()) return r.message;
        if (r.searchId) return tr("Double-click to open search %1").arg(r.searchId);
        return {};
    }
    if (role == Qt::ForegroundRole && ((column == Status && r.ran && r.status != QLatin1String("ok")) || offItself))
        return QBrush(QColor(errorColorName(QPalette()))); // the theme's error color: failures stand out
    if (role != Qt::DisplayRole) return {};
    switch (column) {
    case Problem:
        return r.problem;
    case Status:
        return r.status;
    case VsEager:
        return times(r.speedup);
    case VsCompile:
        return times(r.speedupCompile);
    case Wall:
        return r.ran ? QStringLiteral("%1 s").arg(QLocale().toString(r.wallS, 'f', 1)) : QString();
    case Search:
        return r.searchId ? QString::number(r.searchId) : QString();
    default:
        return {};
    }
}

} // namespace ks::ui
