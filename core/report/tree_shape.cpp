#include "report/tree_shape.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kw::report {

Glyph glyphOf(tree::NodeState state, std::optional<eval::EvalStatus> status, bool pruned) {
    using eval::EvalStatus;
    if (pruned) return Glyph::Pruned;
    if (state == tree::NodeState::Pending) return Glyph::Pending;
    if (state == tree::NodeState::Running) return Glyph::Running;
    if (!status) return Glyph::Failed;
    switch (*status) {
    case EvalStatus::Ok:
        return Glyph::Correct;
    case EvalStatus::SynthError:
        return Glyph::SynthError;
    case EvalStatus::CompileError:
        return Glyph::CompileError;
    case EvalStatus::WrongAnswer:
        return Glyph::Wrong;
    case EvalStatus::Timeout:
        return Glyph::Timeout;
    case EvalStatus::RuntimeError:
        return Glyph::Crash;
    case EvalStatus::Oom:
        return Glyph::OutOfMemory;
    case EvalStatus::SandboxViolation:
        return Glyph::Sandbox;
    case EvalStatus::InfraError:
        return Glyph::Infra;
    }
    return Glyph::Failed;
}

bool candidateFault(Glyph glyph) {
    switch (glyph) {
    case Glyph::CompileError:
    case Glyph::Wrong:
    case Glyph::Timeout:
    case Glyph::Crash:
    case Glyph::OutOfMemory:
    case Glyph::Sandbox:
        return true;
    default:
        return false;
    }
}

tree::NodeState nodeStateOf(const std::string& state) {
    return state == "done" ? tree::NodeState::Done : state == "running" ? tree::NodeState::Running : tree::NodeState::Pending;
}

const char* glyphName(Glyph glyph) {
    switch (glyph) {
    case Glyph::Pending:
        return "pending";
    case Glyph::Running:
        return "running";
    case Glyph::SynthError:
        return "no kernel";
    case Glyph::CompileError:
        return "compile error";
    case Glyph::Wrong:
        return "wrong";
    case Glyph::Timeout:
        return "timeout";
    case Glyph::Crash:
        return "crash";
    case Glyph::OutOfMemory:
        return "out of memory";
    case Glyph::Sandbox:
        return "sandbox";
    case Glyph::Infra:
        return "infra error";
    case Glyph::Failed:
        return "failed";
    case Glyph::Correct:
        return "correct";
    case Glyph::Pruned:
        return "pruned";
    }
    return "";
}

std::string Rgb::hex() const {
    char text[8];
    std::snprintf(text, sizeof text, "#%02x%02x%02x", r & 0xff, g & 0xff, b & 0xff);
    return text;
}

Rgb Rgb::darker(double factor) const {
    const auto d = [factor](int v) { return static_cast<int>(std::lround(v / factor)); };
    return {d(r), d(g), d(b)};
}

Rgb glyphColor(Glyph glyph) {
    switch (glyph) {
    case Glyph::Pending:
        return {0x9e, 0x9e, 0x9e};
    case Glyph::Running:
        return {0x1e, 0x88, 0xe5};
    case Glyph::SynthError:
        return {0xbc, 0xaa, 0xa4};
    case Glyph::CompileError:
        return {0xfb, 0x8c, 0x00};
    case Glyph::Wrong:
        return {0xe5, 0x39, 0x35};
    case Glyph::Timeout:
        return {0x79, 0x55, 0x48};
    case Glyph::Crash:
        return {0x8e, 0x24, 0xaa};
    case Glyph::OutOfMemory:
        return {0xd8, 0x1b, 0x60};
    case Glyph::Sandbox:
        return {0x21, 0x21, 0x21};
    case Glyph::Infra:
        return {0x54, 0x6e, 0x7a};
    case Glyph::Failed:
        return {0x61, 0x61, 0x61};
    case Glyph::Correct:
        return {0x43, 0xa0, 0x47};
    case Glyph::Pruned:
        return {0xcf, 0xd8, 0xdc};
    }
    return {0x80, 0x80, 0x80};
}

Rgb speedupColor(double speedup, double best) {
    if (speedup < 1) return {0x78, 0x90, 0x9c};
    const double top = std::max(best, 1.0001);
    const double t = std::clamp(std::log(speedup) / std::log(top), 0.0, 1.0);
    static const Rgb stops[] = {{0x26, 0x82, 0x8e}, {0x35, 0xb7, 0x79}, {0x90, 0xd7, 0x43}, {0xfd, 0xe7, 0x25}};
    const double x = t * 3;
    const int i = std::min(2, static_cast<int>(x));
    const double f = x - i;
    const auto mix = [f](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * f)); };
    return {mix(stops[i].r, stops[i + 1].r), mix(stops[i].g, stops[i + 1].g), mix(stops[i].b, stops[i + 1].b)};
}

void TreeShape::apply(const std::vector<ShapeNode>& batch) {
    for (const auto& n : batch) {
        const bool fresh = nodes_.count(n.id) == 0;
        nodes_[n.id] = n;
        if (fresh) {
            auto& siblings = children_[n.parentId];
            // Ids grow, so appending keeps creation order; a late delivery is inserted in place.
            if (siblings.empty() || siblings.back() < n.id)
                siblings.push_back(n.id);
            else
                siblings.insert(std::lower_bound(siblings.begin(), siblings.end(), n.id), n.id);
        }
        if (n.glyph == Glyph::Correct && n.speedup > bestSpeedup_) {
            bestSpeedup_ = n.speedup;
            bestId_ = n.id;
        }
    }
    // A node that got worse (re-evaluated or pruned) may have been the best.
    if (const ShapeNode* b = node(bestId_); bestId_ && (!b || b->glyph != Glyph::Correct)) {
        bestId_ = 0;
        bestSpeedup_ = 0;
        for (const auto& [id, n] : nodes_)
            if (n.glyph == Glyph::Correct &&
                (n.speedup > bestSpeedup_ || (n.speedup == bestSpeedup_ && bestId_ && id < bestId_))) {
                bestSpeedup_ = n.speedup;
                bestId_ = id;
            }
    }
    relayout();
}

void TreeShape::clear() {
    *this = TreeShape();
}

void TreeShape::setCollapsed(std::int64_t id, bool collapsed) {
    if (collapsed)
        collapsed_.insert(id);
    else
        collapsed_.erase(id);
    relayout();
}

int TreeShape::indexOf(std::int64_t id) const {
    auto it = index_.find(id);
    return it == index_.end() ? -1 : it->second;
}

const ShapeNode* TreeShape::node(std::int64_t id) const {
    auto it = nodes_.find(id);
    return it == nodes_.end() ? nullptr : &it->second;
}

const std::vector<std::int64_t>& TreeShape::childrenOf(std::int64_t id) const {
    static const std::vector<std::int64_t> none;
    auto it = children_.find(id);
    return it == children_.end() ? none : it->second;
}

std::vector<std::int64_t> TreeShape::bestPath() const {
    std::vector<std::int64_t> path;
    for (std::int64_t id = bestId_; id;) {
        const ShapeNode* n = node(id);
        if (!n || path.size() > nodes_.size()) break;
        path.push_back(id);
        id = n->parentId;
    }
    return path;
}

void TreeShape::relayout() {
    placed_.clear();
    index_.clear();
    placed_.reserve(nodes_.size());
    // Iterative post-order walk (trees can be thousands deep): leaves take the
    // next column, a parent sits at the mean of its first and last child.
    struct Frame {
        std::int64_t id;
        int index;
        std::size_t next;
    };
    double nextColumn = 0;
    int maxDepth = 0;
    std::vector<Frame> stack;
    const auto countHidden = [this](std::int64_t root) {
        int count = 0;
        std::vector<std::int64_t> todo{root};
        while (!todo.empty()) {
            const std::int64_t id = todo.back();
            todo.pop_back();
            for (std::int64_t c : childrenOf(id)) {
                ++count;
                todo.push_back(c);
            }
        }
        return count;
    };
    for (std::int64_t root : childrenOf(0)) {
        stack.push_back({root, -1, 0});
        while (!stack.empty()) {
            Frame& f = stack.back();
            const auto& kids = childrenOf(f.id);
            if (f.next == 0 && f.index < 0) {
                // First visit: place the node (position filled in on the way up).
                PlacedNode p;
                p.id = f.id;
                p.depth = static_cast<int>(stack.size()) - 1;
                p.parentIndex = stack.size() > 1 ? stack[stack.size() - 2].index : -1;
                p.collapsed = isCollapsed(f.id) && !kids.empty();
                if (p.collapsed) p.hiddenDescendants = countHidden(f.id);
                f.index = static_cast<int>(placed_.size());
                index_[f.id] = f.index;
                placed_.push_back(p);
                maxDepth = std::max(maxDepth, p.depth);
            }
            const bool open = !isCollapsed(f.id);
            if (open && f.next < kids.size()) {
                const std::int64_t child = kids[f.next++];
                stack.push_back({child, -1, 0});
                continue;
            }
            PlacedNode& p = placed_[static_cast<std::size_t>(f.index)];
            if (!open || kids.empty()) {
                p.x = nextColumn;
                nextColumn += 1;
            } else {
                p.x = (placed_[static_cast<std::size_t>(indexOf(kids.front()))].x +
                       placed_[static_cast<std::size_t>(indexOf(kids.back()))].x) /
                      2;
            }
            p.y = p.depth;
            stack.pop_back();
        }
    }
    columns_ = placed_.empty() ? 0 : std::max(1.0, nextColumn);
    rows_ = placed_.empty() ? 0 : maxDepth + 1;
}

} // namespace kw::report
