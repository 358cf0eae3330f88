#include "models/node_table_model.h"

#include "eval/evaluation_result.h"

#include <QtCore/QLocale>

namespace kw::ui {

NodeTableModel::NodeTableModel(QObject* parent)
    : RowTableModel<NodeSnapshot>(
          {tr("Node"), tr("Parent"), tr("Status"), tr("Speedup"), tr("Origin"), tr("Kernel"), tr("Params"), tr("Created")},
          parent) {}

QVariant NodeTableModel::cell(const NodeSnapshot& n, int column, int role) const {
    if (role == Qt::TextAlignmentRole) {
        if (column == Id || column == Parent || column == Speedup) return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
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
    case Origin:
        return n.origin;
    case Kernel:
        return n.sourceName;
    case Params:
        return n.params;
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
    invalidateFilter();
}

bool NodeFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex&) const {
    const auto* model = static_cast<const NodeTableModel*>(sourceModel());
    const NodeSnapshot& n = model->rowAt(sourceRow);
    if (!filter_.glyphs.empty() && !filter_.glyphs.count(static_cast<int>(n.glyph))) return false;
    if (filter_.minSpeedup > 0 && (n.glyph != NodeGlyph::Correct || n.speedup < filter_.minSpeedup)) return false;
    if (!filter_.text.isEmpty() && !n.params.contains(filter_.text, Qt::CaseInsensitive) &&
        !n.origin.contains(filter_.text, Qt::CaseInsensitive) && !n.sourceName.contains(filter_.text, Qt::CaseInsensitive))
        return false;
    return true;
}

} // namespace kw::ui
