#pragma once
// The search tree as the canvas draws it: the node snapshots by id, placed
// by core's report::TreeShape (the layout the HTML report draws too),
// recomputed after each batch of changes (at most ~20 a second).
#include "report/tree_shape.h"
#include "tree/tree_snapshot.h"

#include <QtCore/QHash>
#include <QtCore/QPointF>
#include <QtCore/QRectF>
#include <QtCore/QSet>

#include <vector>

namespace kw::ui {

struct PlacedNode {
    qint64 id = 0;
    int parentIndex = -1; // into TreeLayout::placed(), -1 for a root
    QPointF center;       // layout units: x in columns, y in depth rows
    int depth = 0;
    bool collapsed = false; // has hidden descendants
    int hiddenDescendants = 0;
    NodeGlyph glyph = NodeGlyph::Pending;
    double speedup = 0;
};

// What a visible subtree holds (the node and its visible descendants), for
// drawing it as one summary glyph when the view holds too many nodes.
// placed() is in pre-order, so a subtree is the range [index, end).
struct SubtreeSummary {
    int end = 0;               // one past the subtree's last index in placed()
    double minX = 0, maxX = 0; // its columns
    int maxDepth = 0;          // its deepest row
    double best = 0;           // best speedup of a correct node in it (0: none)
    int failures = 0;          // nodes in it whose glyph is a failure
};

class TreeLayout {
  public:
    // Applies changed or new nodes. A node whose parent has not arrived yet is
    // kept and placed once the parent is there.
    void apply(const NodeBatch& batch);
    void clear();

    void setCollapsed(qint64 id, bool collapsed);
    bool isCollapsed(qint64 id) const { return shape_.isCollapsed(id); }

    // Visible nodes with their positions; valid until the next apply/setCollapsed.
    const std::vector<PlacedNode>& placed() const { return placed_; }
    // By index into placed(): the subtree below and including that node.
    const std::vector<SubtreeSummary>& subtrees() const { return subtrees_; }
    int indexOf(qint64 id) const { return index_.value(id, -1); }
    const NodeSnapshot* node(qint64 id) const;
    // The node numbered `number` in its search (NodeSnapshot::seq); 0 when none.
    qint64 idOfNumber(qint64 number) const { return byNumber_.value(number, 0); }
    int size() const { return static_cast<int>(nodes_.size()); }
    // Every node, collapsed ones included, by id, each with its parent's number.
    std::vector<NodeSnapshot> allNodes() const;
    QRectF bounds() const { return bounds_; }

    // The path from the best correct node up to its root (ids), best first.
    std::vector<qint64> bestPath() const;
    qint64 bestId() const { return shape_.bestId(); }
    double bestSpeedup() const { return shape_.bestSpeedup(); }
    const report::TreeShape& shape() const { return shape_; }

  private:
    void copyPlaced();

    report::TreeShape shape_;
    QHash<qint64, NodeSnapshot> nodes_;
    QHash<qint64, qint64> byNumber_; // seq -> id
    std::vector<PlacedNode> placed_;
    std::vector<SubtreeSummary> subtrees_;
    QHash<qint64, int> index_;
    QRectF bounds_;
};

} // namespace kw::ui
