#include "models/node_table_model.h"

#include "eval/evaluation_result.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QLocale>
#include <QtCore/QRegularExpression>

#include <algorithm>

namespace kw::ui {

QMap<QString, QString> parseParams(const QString& paramsJson) {
    QMap<QString, QString> out;
    const auto doc = QJsonDocument::fromJson(paramsJson.toUtf8());
    if (!doc.isObject()) return out;
    const auto object = doc.object();
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QVariant v = it.value().toVariant();
        out.insert(it.key(),
                   it.value().isBool() ? (v.toBool() ? QStringLiteral("true") : QStringLiteral("false")) : v.toString());
    }
    return out;
}

QString paramsText(const QMap<QString, QString>& params) {
    QStringList parts;
    for (auto it = params.begin(); it != params.end(); ++it) parts << it.key() + QLatin1Char('=') + it.value();
    return parts.join(QLatin1Char(' '));
}

namespace {

// A parameter's value as it sorts: numbers as numbers, before any text.
QVariant paramSortKey(const QString& value) {
    bool number = false;
    const double d = value.toDouble(&number);
    return number ? QVariant(d) : QVariant(value);
}

bool sameValue(const QString& a, const QString& b) {
    bool x = false, y = false;
    const double da = a.toDouble(&x), db = b.toDouble(&y);
    return x && y ? da == db : a.compare(b, Qt::CaseInsensitive) == 0;
}

} // namespace

NodeTableModel::NodeTableModel(QObject* parent)
    : RowTableModel<NodeSnapshot>({tr("Node"), tr("Parent"), tr("Status"), tr("Speedup"), tr("95 % interval"), tr("Origin"),
                                   tr("Kernel"), tr("Params"), tr("Created")},
                                  parent) {}

int NodeTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount + static_cast<int>(paramNames_.size());
}

QVariant NodeTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && section >= ColumnCount && section < columnCount()) {
        if (role == Qt::DisplayRole) return paramNames_[section - ColumnCount];
        if (role == Qt::ToolTipRole)
            return tr("Tunable parameter %1 (filter with %1=value)").arg(paramNames_[section - ColumnCount]);
        return {};
    }
    return RowTableModel<NodeSnapshot>::headerData(section, orientation, role);
}

void NodeTableModel::rowsReplaced() {
    params_.clear();
    rowById_.clear();
    QStringList names;
    for (int r = 0; r < static_cast<int>(rows().size()); ++r) {
        params_.push_back(parseParams(rowAt(r).params));
        rowById_.insert(rowAt(r).id, r);
        for (auto it = params_.back().begin(); it != params_.back().end(); ++it)
            if (!names.contains(it.key())) names << it.key();
    }
    std::sort(names.begin(), names.end());
    paramNames_ = names;
}

QVariant NodeTableModel::cell(const NodeSnapshot& n, int column, int role) const {
    if (column >= ColumnCount) {
        const int row = rowById_.value(n.id, -1);
        if (row < 0 || column - ColumnCount >= paramNames_.size()) return {};
        const auto& params = params_[static_cast<std::size_t>(row)];
        const QString& name = paramNames_[column - ColumnCount];
        if (role == Qt::DisplayRole) return params.value(name);
        if (role == SortRole) return params.contains(name) ? paramSortKey(params.value(name)) : QVariant();
        if (role == Qt::TextAlignmentRole) return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    if (role == Qt::TextAlignmentRole) {
        if (column == Id || column == Parent || column == Speedup || column == Interval)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    if (role == Qt::ToolTipRole && column == Interval)
        return tr("The speedup's 95 % interval over the timed rounds (paired with the reference's); two nodes whose "
                  "intervals overlap are not told apart by this measurement");
    if (role == Qt::ToolTipRole && (column == Status || column == Params))
        return n.message.isEmpty() ? n.params : n.message.left(400);
    if (role == SortRole) {
        switch (column) {
        case Id:
            return n.seq;
        case Parent:
            return n.parentSeq;
        case Speedup:
            return n.glyph == NodeGlyph::Correct ? n.speedup : -1.0; // failures after every correct node
        case Interval:
            return n.intervalHigh > 0 ? n.intervalLow : -1.0;
        case Created:
            return n.createdAt;
        default:
            return cell(n, column, Qt::DisplayRole);
        }
    }
    if (role != Qt::DisplayRole) return {};
    switch (column) {
    case Id:
        return n.seq;
    case Parent:
        return n.parentId ? QVariant(n.parentSeq) : QVariant(QString());
    case Status:
        return n.status ? QStringLiteral("%1 (%2)").arg(glyphLabel(n.glyph), QString::fromStdString(eval::statusName(*n.status)))
                        : glyphLabel(n.glyph);
    case Speedup:
        if (n.glyph != NodeGlyph::Correct) return QString();
        // Correct but never timed (a check-only search): no speedup to show.
        return n.speedup > 0 ? QStringLiteral("%1×").arg(QLocale().toString(n.speedup, 'f', 3)) : tr("checked");
    case Interval:
        return n.intervalHigh > 0 ? QStringLiteral("%1–%2×").arg(QLocale().toString(n.intervalLow, 'f', 2),
                                                                 QLocale().toString(n.intervalHigh, 'f', 2))
                                  : QString();
    case Origin:
        return n.origin;
    case Kernel:
        return n.sourceName;
    case Params: {
        const int row = rowById_.value(n.id, -1);
        return row >= 0 && !params_[static_cast<std::size_t>(row)].isEmpty() ? paramsText(params_[static_cast<std::size_t>(row)])
                                                                             : n.params;
    }
    case Created:
        return n.createdAt.toLocalTime().toString(QStringLiteral("HH:mm:ss"));
    default:
        return {};
    }
}

NodeFilterProxy::NodeFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(NodeTableModel::SortRole);
}

void NodeFilterProxy::setNodeFilter(NodeTableFilter filter) {
    filter_ = std::move(filter);
    paramTerms_.clear();
    words_.clear();
    static const QRegularExpression term(QStringLiteral("^([A-Za-z_][A-Za-z0-9_]*)=(.+)$"));
    for (const QString& w : filter_.text.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts)) {
        const auto m = term.match(w);
        if (m.hasMatch())
            paramTerms_.append({m.captured(1), m.captured(2)});
        else
            words_ << w;
    }
    invalidateFilter();
}

bool NodeFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex&) const {
    const auto* model = static_cast<const NodeTableModel*>(sourceModel());
    const NodeSnapshot& n = model->rowAt(sourceRow);
    if (!filter_.glyphs.empty() && !filter_.glyphs.count(static_cast<int>(n.glyph))) return false;
    if (filter_.minSpeedup > 0 && (n.glyph != NodeGlyph::Correct || n.speedup < filter_.minSpeedup)) return false;
    const auto& params = model->paramsAt(sourceRow);
    for (const auto& [name, value] : paramTerms_) {
        bool matched = false;
        for (auto p = params.begin(); p != params.end() && !matched; ++p)
            matched = p.key().compare(name, Qt::CaseInsensitive) == 0 && sameValue(p.value(), value);
        if (!matched) return false;
    }
    const QString shown = paramsText(params);
    for (const QString& w : words_)
        if (!shown.contains(w, Qt::CaseInsensitive) && !n.params.contains(w, Qt::CaseInsensitive) &&
            !n.origin.contains(w, Qt::CaseInsensitive) && !n.sourceName.contains(w, Qt::CaseInsensitive))
            return false;
    return true;
}

} // namespace kw::ui
