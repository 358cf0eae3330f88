#include "tree/tree_layout.h"

#include <algorithm>

namespace kw::ui {

void TreeLayout::apply(const NodeBatch& batch) {
    std::vector<report::ShapeNode> shaped;
    shaped.reserve(static_cast<std::size_t>(batch.size()));
    for (const auto& n : batch) {
        nodes_.insert(n.id, n);
        if (n.seq) byNumber_.insert(n.seq, n.id);
        shaped.push_back({n.id, n.parentId, n.glyph, n.speedup, n.seq});
    }
    shape_.apply(shaped);
    copyPlaced();
}

void TreeLayout::clear() {
    shape_.clear();
    nodes_.clear();
    byNumber_.clear();
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
    for (auto it = nodes_.constBegin(); it != nodes_.constEnd(); ++it) {
        out.push_back(it.value());
        if (const auto up = nodes_.constFind(it->parentId); up != nodes_.constEnd()) out.back().parentSeq = up->seq;
    }
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
        const auto* shaped = shape_.node(f.id);
        placed_[i] = PlacedNode{f.id,
                                f.parentIndex,
                                QPointF(f.x, f.y),
                                f.depth,
                                f.collapsed,
                                f.hiddenDescendants,
                                shaped ? shaped->glyph : NodeGlyph::Pending,
                                shaped ? shaped->speedup : 0};
        index_.insert(f.id, static_cast<int>(i));
    }
    // Children come after their parent in pre-order: one backward pass folds
    // each subtree into its root.
    subtrees_.resize(placed_.size());
    for (std::size_t i = 0; i < placed_.size(); ++i) {
        const auto& n = placed_[i];
        subtrees_[i] = SubtreeSummary{static_cast<int>(i) + 1,
                                      n.center.x(),
                                      n.center.x(),
                                      n.depth,
                                      n.glyph == NodeGlyph::Correct ? n.speedup : 0,
                                      std::find(std::begin(report::kFailureGlyphs), std::end(report::kFailureGlyphs), n.glyph) !=
                                              std::end(report::kFailureGlyphs)
                                          ? 1
                                          : 0};
    }
    for (std::size_t i = placed_.size(); i-- > 0;) {
        const int up = placed_[i].parentIndex;
        if (up < 0) continue;
        auto& p = subtrees_[static_cast<std::size_t>(up)];
        const auto& c = subtrees_[i];
        p.end = std::max(p.end, c.end);
        p.minX = std::min(p.minX, c.minX);
        p.maxX = std::max(p.maxX, c.maxX);
        p.maxDepth = std::max(p.maxDepth, c.maxDepth);
        p.best = std::max(p.best, c.best);
        p.failures += c.failures;
    }
    bounds_ = from.empty() ? QRectF() : QRectF(0, 0, shape_.columns(), shape_.rows());
}

} // namespace kw::ui
