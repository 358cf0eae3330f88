#include "tree/tree_snapshot.h"

namespace ks::ui {

NodeSnapshot NodeSnapshot::fromRecord(const store::NodeRecord& r) {
    NodeSnapshot n;
    n.id = r.id;
    n.parentId = r.parentId;
    n.seq = r.seq;
    n.evaluationId = r.evaluationId;
    n.origin = QString::fromStdString(r.origin);
    n.sourceName = QString::fromStdString(r.sourceName);
    n.params = QString::fromStdString(r.paramsJson);
    n.status = QString::fromStdString(r.status.value_or(""));
    n.message = QString::fromStdString(r.message);
    n.hint = QString::fromStdString(r.hint);
    n.pinned = r.pinned;
    n.createdAt = QDateTime::fromString(QString::fromStdString(r.createdAt), Qt::ISODateWithMs);
    if (!r.finishedAt.empty()) n.finishedAt = QDateTime::fromString(QString::fromStdString(r.finishedAt), Qt::ISODateWithMs);
    n.pruned = r.pruned;
    n.glyph = report::glyphOf(r.state, r.status, r.pruned);
    n.speedup = n.glyph == NodeGlyph::Correct ? r.speedup.value_or(0) : 0;
    return n;
}

QString glyphLabel(NodeGlyph glyph) {
    return QString::fromLatin1(report::glyphName(glyph));
}

} // namespace ks::ui
