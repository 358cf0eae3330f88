#pragma once
// What the workbench knows of one search tree node: an immutable value built
// from the store's record on the reading thread (SearchFollower) and handed
// to the UI thread.
#include "eval/evaluation_result.h"
#include "report/tree_shape.h"

#include <QtCore/QDateTime>
#include <QtCore/QMetaType>
#include <QtCore/QString>
#include <QtCore/QVector>

#include <cstdint>

namespace kw::ui {

using NodeGlyph = report::Glyph;

struct NodeSnapshot {
    qint64 id = 0, parentId = 0, seq = 0, evaluationId = 0;
    qint64 parentSeq = 0; // the parent's number in the search (0: a root; filled by TreeLayout::allNodes)
    QString origin, sourceName, params, message, hint;
    std::optional<eval::EvalStatus> status; // none until evaluated
    NodeGlyph glyph = NodeGlyph::Pending;
    double speedup = 0;                       // 0 unless correct
    double intervalLow = 0, intervalHigh = 0; // the speedup's 95 % interval; 0: not known
    bool pinned = false, pruned = false;
    bool pinOnce = false; // the pin is released after the node's next expansion
    double boost = 0;     // priority a person added (steering)
    QDateTime createdAt;  // when the node was proposed (UTC)
    QDateTime finishedAt; // when its result was recorded (invalid while pending or running)
};

// Nodes that changed since the last delivery, in store order (a parent always
// before its children, since ids grow).
using NodeBatch = QVector<NodeSnapshot>;

// The glyph's name as the workbench shows it.
QString glyphLabel(NodeGlyph glyph);

// How far a correct node's speedup can be trusted, from its 95 % interval:
// Unsure when the interval holds 1× (not told apart from the reference),
// Noisy when its ends are more than kNoisyRatio apart, Apart otherwise;
// Unknown without an interval. The tree badges the first two.
enum class SpeedupTrust { Unknown, Apart, Noisy, Unsure };
inline constexpr double kNoisyRatio = 1.5;
SpeedupTrust speedupTrust(const NodeSnapshot& node);
// The interval in words for a tool tip ("" without one).
QString trustText(const NodeSnapshot& node);

} // namespace kw::ui

Q_DECLARE_METATYPE(kw::ui::NodeSnapshot)
Q_DECLARE_METATYPE(kw::ui::NodeBatch)
