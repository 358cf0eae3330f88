#include "tree/tree_layout.h"

#include <algorithm>

namespace ks::ui {

void TreeLayout::apply(const NodeBatch& batch) {
    for (const auto& n : batch) {
        const bool fresh = !nodes_.contains(n.id);
        nodes_.insert(n.id, n);
        if (fresh) {
            auto& siblings = children_[n.parentId];
            // Ids grow, so appending keeps creation order; a late delivery is inserted in place.
            if (siblings.empty() || siblings.back() < n.id) siblings.push_back(n.id);
            else siblings.insert(std::lower_bound(siblings.begin(), siblings.end(), n.id), n.id);
        }
        if (n.glyph == NodeGlyph::Correct && n.speedup > bestSpeedup_) {
            bestSpeedup_ = n.speedup;
            bestId_ = n.id;
        }
    }
    // A node that got worse (re-evaluated or pruned) may have been the best.
    if (bestId_ && nodes_.value(bestId_).glyph != NodeGlyph::Correct) {
        bestId_ = 0;
        bestSpeedup_ = 0;
        for (const auto& n : nodes_)
            if (n.glyph == NodeGlyph::Correct && n.speedup > bestSpeedup_) {
                bestSpeedup_ = n.speedup;
                bestId_ = n.id;
            }
    }
    relayout();
}

void TreeLayout::clear() {
    nodes_.clear();
    children_.clear();
    collapsed_.clear();
    placed_.clear();
    index_.clear();
    bounds_ = {};
    bestId_ = 0;
    bestSpeedup_ = 0;
}

void TreeLayout::setCollapsed(qint64 id, bool collapsed) {
    if (collapsed) collapsed_.insert(id);
    else collapsed_.remove(id);
    relayout();
}

const NodeSnapshot* TreeLayout::node(qint64 id) const {
    auto it = nodes_.constFind(id);
    return it == nodes_.constEnd() ? nullptr : &it.value();
}

std::vector<qint64> TreeLayout::bestPath() const {
    std::vector<qint64> path;
    for (qint64 id = bestId_; id; id = nodes_.value(id).parentId) {
        if (!nodes_.contains(id) || path.size() > static_cast<std::size_t>(nodes_.size())) break;
        path.push_back(id);
    }
    return path;
}

void TreeLayout::relayout() {
    placed_.clear();
    index_.clear();
    placed_.reserve(static_cast<std::size_t>(nodes_.size()));
    // Iterative post-order walk (trees can be thousands deep): leaves take the
    // next column, a parent sits at the mean of its first and last child.
    struct Frame {
        qint64 id;
        int index;
        std::size_t next;
    };
    double nextColumn = 0;
    int maxDepth = 0;
    std::vector<Frame> stack;
    const auto countHidden = [this](qint64 root) {
        int count = 0;
        std::vector<qint64> todo{root};
        while (!todo.empty()) {
            const qint64 id = todo.back();
            todo.pop_back();
            for (qint64 c : children_.value(id)) {
                ++count;
                todo.push_back(c);
            }
        }
        return count;
    };
    for (qint64 root : children_.value(0)) {
        stack.push_back({root, -1, 0});
        while (!stack.empty()) {
            Frame& f = stack.back();
            if (f.next == 0 && f.index < 0) {
                // First visit: place the node (position filled in on the way up).
                PlacedNode p;
                p.id = f.id;
                p.depth = static_cast<int>(stack.size()) - 1;
                p.parentIndex = stack.size() > 1 ? stack[stack.size() - 2].index : -1;
                p.collapsed = collapsed_.contains(f.id) && !children_.value(f.id).empty();
                if (p.collapsed) p.hiddenDescendants = countHidden(f.id);
                f.index = static_cast<int>(placed_.size());
                index_.insert(f.id, f.index);
                placed_.push_back(p);
                maxDepth = std::max(maxDepth, p.depth);
            }
            const auto& kids = children_.value(f.id);
            const bool open = !collapsed_.contains(f.id);
            if (open && f.next < kids.size()) {
                const qint64 child = kids[f.next++];
                stack.push_back({child, -1, 0});
                continue;
            }
            PlacedNode& p = placed_[static_cast<std::size_t>(f.index)];
            if (!open || kids.empty()) {
                p.center = QPointF(nextColumn, p.depth);
                nextColumn += 1;
            } else {
                const double first = placed_[static_cast<std::size_t>(index_.value(kids.front()))].center.x();
                const double last = placed_[static_cast<std::size_t>(index_.value(kids.back()))].center.x();
                p.center = QPointF((first + last) / 2, p.depth);
            }
            stack.pop_back();
        }
    }
    bounds_ = placed_.empty() ? QRectF() : QRectF(0, 0, std::max(1.0, nextColumn), maxDepth + 1);
}

} // namespace ks::ui
