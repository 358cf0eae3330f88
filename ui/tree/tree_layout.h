#pragma once
// The search tree as the canvas draws it: nodes by id, children in creation
// order, and a tidy top-down layout (each leaf its own column, a parent
// centred over its children, depth as the row). The layout is recomputed in
// O(n) after each batch of changes (at most ~20 a second), which keeps it
// exact as the tree grows; 20,000 nodes take a few milliseconds.
#include "tree/tree_snapshot.h"

#include <QtCore/QHash>
#include <QtCore/QPointF>
#include <QtCore/QRectF>
#include <QtCore/QSet>

#include <vector>

namespace ks::ui {

struct PlacedNode {
    qint64 id = 0;
    int parentIndex = -1; // into TreeLayout::placed(), -1 for a root
    QPointF center;       // layout units: x in columns, y in depth rows
    int depth = 0;
    bool collapsed = false; // has hidden descendants
    int hiddenDescendants = 0;
};

class TreeLayout {
public:
    // Applies changed or new nodes. A node whose parent has not arrived yet is
    // kept and placed once the parent is there.
    void apply(const NodeBatch& batch);
    void clear();

    void setCollapsed(qint64 id, bool collapsed);
    bool isCollapsed(qint64 id) const { return collapsed_.contains(id); }

    // Visible nodes with their positions; valid until the next apply/setCollapsed.
    const std::vector<PlacedNode>& placed() const { return placed_; }
    int indexOf(qint64 id) const { return index_.value(id, -1); }
    const NodeSnapshot* node(qint64 id) const;
    int size() const { return static_cast<int>(nodes_.size()); }
    QRectF bounds() const { return bounds_; }

    // The path from the best correct node up to its root (ids), best first.
    std::vector<qint64> bestPath() const;
    qint64 bestId() const { return bestId_; }
    double bestSpeedup() const { return bestSpeedup_; }

private:
    void relayout();

    QHash<qint64, NodeSnapshot> nodes_;
    QHash<qint64, std::vector<qint64>> children_; // parent id (0 = roots) -> children in id order
    QSet<qint64> collapsed_;
    std::vector<PlacedNode> placed_;
    QHash<qint64, int> index_;
    QRectF bounds_;
    qint64 bestId_ = 0;
    double bestSpeedup_ = 0;
};

} // namespace ks::ui
