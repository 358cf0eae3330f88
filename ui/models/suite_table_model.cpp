#include "models/suite_table_model.h"

#include "theme/app_theme.h"

#include <QtCore/QLocale>
#include <QtGui/QBrush>
#include <QtGui/QPalette>

#include <algorithm>
#include <map>

namespace kw::ui {

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
            r.interval = e.interval;
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
    if (role == SortRole) {
        const auto value = [](const std::optional<double>& v) {
            return v ? *v : -1.0; // not timed: before every speedup
        };
        switch (column) {
        case Problem:
            return naturalSortKey(r.problem);
        case Status:
            return r.status;
        case VsEager:
            return value(r.speedup);
        case VsCompile:
            return value(r.speedupCompile);
        case Wall:
            return r.ran ? r.wallS : -1.0;
        case Search:
            return r.searchId;
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole)
        return column >= VsEager ? QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    const bool offItself = column == VsEager && readOffItself(r, referenceMode_);
    if (role == Qt::ToolTipRole) {
        if (column == Problem) // the name may be elided in its column
            return r.message.isEmpty() ? r.problem : r.problem + QStringLiteral("\n") + r.message;
        if (offItself) {
            QString text = tr("The reference against itself read %1: outside 1.00 ± 0.03, where a judge that times the "
                              "same code twice alike reads 1.00")
                               .arg(times(r.speedup));
            if (r.interval)
                text += suite::intervalHoldsOne(r.interval)
                            ? tr("; its 95% interval, %1–%2, holds 1.00: the judge's noise (more rounds narrow it)")
                                  .arg(times(r.interval->first), times(r.interval->second))
                            : tr("; its 95% interval, %1–%2, does not hold 1.00")
                                  .arg(times(r.interval->first), times(r.interval->second));
            return text;
        }
        if (!r.message.isEmpty()) return r.message;
        if (r.searchId) return tr("Double-click to open search %1").arg(r.searchId);
        return {};
    }
    // An outlier whose interval holds 1.00 is the judge's noise, not a judge
    // that reads the same code differently: in the ordinary colour (its
    // tooltip says so, and the outlier filter still shows it).
    const bool noise = offItself && suite::intervalHoldsOne(r.interval);
    if (role == Qt::ForegroundRole && ((column == Status && r.ran && r.status != QLatin1String("ok")) || (offItself && !noise)))
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

QString naturalSortKey(const QString& name) {
    QString key;
    key.reserve(name.size() + 16);
    for (qsizetype i = 0; i < name.size();) {
        if (!name[i].isDigit()) {
            key += name[i++];
            continue;
        }
        qsizetype end = i;
        while (end < name.size() && name[end].isDigit()) ++end;
        QString digits = name.mid(i, end - i);
        while (digits.size() > 1 && digits.front() == QLatin1Char('0')) digits.remove(0, 1);
        key += digits.rightJustified(std::max<qsizetype>(10, digits.size()), QLatin1Char('0'));
        i = end;
    }
    return key;
}

bool readOffItself(const SuiteRow& row, bool referenceMode) {
    return referenceMode && row.speedup && !suite::agreesWithItself(*row.speedup);
}

bool needsALook(const SuiteRow& row, bool referenceMode) {
    return row.ran && (row.status != QLatin1String("ok") || readOffItself(row, referenceMode));
}

SuiteFilterProxy::SuiteFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(SuiteTableModel::SortRole);
}

void SuiteFilterProxy::setSuiteFilter(SuiteTableFilter filter) {
    filter_ = std::move(filter);
    invalidateFilter();
}

bool SuiteFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex&) const {
    const auto* model = static_cast<const SuiteTableModel*>(sourceModel());
    const SuiteRow& r = model->rowAt(sourceRow);
    if (!filter_.text.isEmpty() && !r.problem.contains(filter_.text, Qt::CaseInsensitive)) return false;
    return !filter_.onlyToLook || needsALook(r, model->referenceMode());
}

} // namespace kw::ui
