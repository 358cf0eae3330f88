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
    const std::string status = r.status.value_or("");
    if (r.pruned) n.glyph = NodeGlyph::Pruned;
    else if (r.state == "pending") n.glyph = NodeGlyph::Pending;
    else if (r.state == "running") n.glyph = NodeGlyph::Running;
    else if (status == "ok") n.glyph = NodeGlyph::Correct;
    else if (status == "compile_error" || status == "synth_error") n.glyph = NodeGlyph::CompileError;
    else if (status == "wrong_answer") n.glyph = NodeGlyph::Wrong;
    else n.glyph = NodeGlyph::Failed;
    n.speedup = n.glyph == NodeGlyph::Correct ? r.speedup.value_or(0) : 0;
    return n;
}

QString glyphName(NodeGlyph glyph) {
    switch (glyph) {
    case NodeGlyph::Pending: return QStringLiteral("pending");
    case NodeGlyph::Running: return QStringLiteral("running");
    case NodeGlyph::CompileError: return QStringLiteral("compile error");
    case NodeGlyph::Wrong: return QStringLiteral("wrong");
    case NodeGlyph::Failed: return QStringLiteral("failed");
    case NodeGlyph::Correct: return QStringLiteral("correct");
    case NodeGlyph::Pruned: return QStringLiteral("pruned");
    }
    return {};
}

} // namespace ks::ui
