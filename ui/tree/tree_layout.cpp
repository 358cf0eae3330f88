#include "tree/tree_layout.h"

#include <algorithm>

namespace ks::ui {

void TreeLayout::apply(const NodeBatch& batch) {
    std::vector<report::ShapeNode> shaped;
    shaped.reserve(static_cast<std::size_t>(batch.size()));
    for (const auto& n : batch) {
        nodes_.insert(n.id, n);
        shaped.push_back({n.id, n.parentId, n.glyph, n.speedup});
    }
    shape_.apply(shaped);
    copyPlaced();
}

void TreeLayout::clear() {
    shape_.clear();
    nodes_.clear();
    placed_.clear();
    index_.clear();
    bounds_ = {};
}

void TreeLayout::setCollapsed(qint64 id, bool collapsed) {
    shape_.setCollapsed(id, collapsed);
    copyPlaced();
}

const NodeSnapshot* TreeLayout::node(qint64 id) const {
    auto it = nodes_.constFind(id);
    return it == nodes_.constEnd() ? nullptr : &it.value();
}

std::vector<NodeSnapshot> TreeLayout::allNodes() const {
    std::vector<NodeSnapshot> out;
    out.reserve(static_cast<std::size_t>(nodes_.size()));
    for (auto it = nodes_.constBegin(); it != nodes_.constEnd(); ++it) out.push_back(it.value());
    std::sort(out.begin(), out.end(), [](const NodeSnapshot& a, const NodeSnapshot& b) { return a.id < b.id; });
    return out;
}

std::vector<qint64> TreeLayout::bestPath() const {
    const auto path = shape_.bestPath();
    return {path.begin(), path.end()};
}

// The canvas works in Qt's geometry; the positions are the shape's.
void TreeLayout::copyPlaced() {
    const auto& from = shape_.placed();
    placed_.resize(from.size());
    index_.clear();
    index_.reserve(static_cast<qsizetype>(from.size()));
    for (std::size_t i = 0; i < from.size(); ++i) {
        const auto& f = from[i];
        placed_[i] = PlacedNode{f.id, f.parentIndex, QPointF(f.x, f.y), f.depth, f.collapsed, f.hiddenDescendants};
        index_.insert(f.id, static_cast<int>(i));
    }
    bounds_ = from.empty() ? QRectF() : QRectF(0, 0, shape_.columns(), shape_.rows());
}

} // namespace ks::ui
