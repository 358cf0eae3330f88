#include "tree/tree_canvas.h"

#include <QtGui/QContextMenuEvent>
#include <QtGui/QFontMetricsF>
#include <QtGui/QHelpEvent>
#include <QtGui/QKeyEvent>
#include <QtGui/QMouseEvent>
#include <QtGui/QPainter>
#include <QtGui/QPainterPath>
#include <QtGui/QWheelEvent>
#include <QtWidgets/QToolTip>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace kw::ui {
namespace {

constexpr double kMinScale = 0.02, kMaxScale = 120;

} // namespace

bool TreeFilter::matches(const NodeSnapshot& n) const {
    if (hiddenGlyphs.contains(static_cast<int>(n.glyph))) return false;
    if (!origin.isEmpty() && n.origin != origin) return false;
    if (minSpeedup > 0 && (n.glyph != NodeGlyph::Correct || n.speedup < minSpeedup)) return false;
    return true;
}

// How long a still pointer keeps the layout held.
constexpr int kHoldAfterMoveMs = 3000;

TreeCanvas::TreeCanvas(QWidget* parent) : QWidget(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true); // a pointer moving on the tree holds its layout
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(200, 150);
    releaseTimer_ = new QTimer(this);
    releaseTimer_->setInterval(250);
    connect(releaseTimer_, &QTimer::timeout, this, &TreeCanvas::releaseIfFree);
}

bool TreeCanvas::layoutHeld() const {
    return holds_ > 0 || dragFrom_.has_value() ||
           (pointerInside_ && lastPointerMove_.isValid() && lastPointerMove_.elapsed() < kHoldAfterMoveMs);
}

void TreeCanvas::applyBatch(const NodeBatch& batch) {
    if (batch.isEmpty()) return;
    if (layoutHeld() && fitted_) {
        // Updates of placed nodes keep every position; new nodes would move them.
        NodeBatch now;
        for (const auto& n : batch)
            if (layout_.node(n.id))
                now.push_back(n);
            else
                waiting_.push_back(n);
        if (!now.isEmpty()) layout_.apply(now);
        if (!waiting_.isEmpty() && !releaseTimer_->isActive()) releaseTimer_->start();
        update();
        return;
    }
    const int before = layout_.size();
    if (!waiting_.isEmpty()) {
        NodeBatch all = std::move(waiting_);
        waiting_.clear();
        all += batch;
        layout_.apply(all);
    } else {
        layout_.apply(batch);
    }
    // Follow-live: new nodes (and so a new best) come into view until the user moves it.
    if (!fitted_ || (following_ && layout_.size() > before)) {
        fitToView();
        fitted_ = true;
    }
    update();
}

void TreeCanvas::followTree() {
    following_ = true;
    fitToView();
}

void TreeCanvas::holdLayout(bool hold) {
    holds_ = std::max(0, holds_ + (hold ? 1 : -1));
    releaseIfFree();
}

void TreeCanvas::releaseIfFree() {
    if (layoutHeld()) return;
    releaseTimer_->stop();
    if (waiting_.isEmpty()) return;
    NodeBatch held = std::move(waiting_);
    waiting_.clear();
    applyBatch(held);
}

void TreeCanvas::enterEvent(QEnterEvent* event) {
    pointerInside_ = true;
    lastPointerMove_.start();
    QWidget::enterEvent(event);
}

void TreeCanvas::leaveEvent(QEvent* event) {
    pointerInside_ = false;
    releaseIfFree();
    QWidget::leaveEvent(event);
}

void TreeCanvas::clearTree() {
    waiting_.clear();
    layout_.clear();
    selected_ = 0;
    fitted_ = false;
    following_ = true;
    update();
}

void TreeCanvas::setFilter(const TreeFilter& filter) {
    filter_ = filter;
    update();
}

QPointF TreeCanvas::toScreen(QPointF p) const {
    return offset_ + QPointF(p.x() * scale_, p.y() * scale_ * rowPixels_);
}

bool TreeCanvas::selectNode(qint64 id) {
    const int i = layout_.indexOf(id);
    if (i < 0) return false;
    selected_ = id;
    following_ = false; // the view is the user's now
    // Zoomed in far enough to read the node's label (a radius of 9 px) when the
    // view is fitted to a large tree, then centred.
    constexpr double kReadable = 9 / 0.35;
    if (scale_ < kReadable) scale_ = kReadable;
    const QPointF at = toScreen(layout_.placed()[static_cast<std::size_t>(i)].center);
    offset_ += QPointF(width() / 2.0, height() / 2.0) - at;
    update();
    emit nodeSelected(id);
    return true;
}

qint64 TreeCanvas::neighbour(qint64 id, Qt::Key key) const {
    const int i = layout_.indexOf(id);
    if (i < 0) return 0;
    const auto& placed = layout_.placed();
    const PlacedNode& from = placed[static_cast<std::size_t>(i)];
    if (key == Qt::Key_Up) return from.parentIndex >= 0 ? placed[static_cast<std::size_t>(from.parentIndex)].id : 0;
    // A linear scan: a key press at 20,000 nodes costs well under a millisecond.
    qint64 found = 0;
    double bestX = 0;
    for (const auto& n : placed) {
        const double x = n.center.x();
        if (key == Qt::Key_Down && n.parentIndex == i) {
            if (!found || x < bestX) found = n.id, bestX = x;
        } else if ((key == Qt::Key_Left || key == Qt::Key_Right) && n.depth == from.depth && n.id != id) {
            const double dx = key == Qt::Key_Left ? from.center.x() - x : x - from.center.x();
            if (dx > 0 && (!found || dx < bestX)) found = n.id, bestX = dx;
        }
    }
    return found;
}

void TreeCanvas::fitToView() {
    const QRectF b = layout_.bounds();
    if (b.isEmpty()) return;
    // Room at the bottom for the last row's speedup labels; and for the
    // legend too, but only when the fitted tree would reach over it: a
    // narrow, deep tree stands beside the legend at a readable size.
    const double margin = 24, labels = QFontMetricsF(font()).height() + 14;
    const auto fitWith = [&](double bottom) {
        const double sx = (width() - 2 * margin) / std::max(1.0, b.width());
        const double sy = (height() - margin - bottom) / std::max(1.0, b.height() * rowPixels_);
        scale_ = std::clamp(std::min(sx, sy), kMinScale, 40.0);
        const QSizeF used(b.width() * scale_, b.height() * scale_ * rowPixels_);
        offset_ = QPointF((width() - used.width()) / 2 + scale_ / 2,
                          margin + (height() - margin - bottom - used.height()) / 2 + scale_ * rowPixels_ / 2);
        return QRectF(offset_.x() - scale_, offset_.y() - scale_, used.width() + scale_, used.height() + labels);
    };
    const QRectF legend = legendRect().adjusted(-8, -8, 8, 8);
    if (const QRectF tree = fitWith(labels); tree.intersects(legend)) {
        // Beside the legend when there is room to its right, else above it.
        const double shift = legend.right() - tree.left();
        if (tree.right() + shift <= width() - margin / 2)
            offset_.rx() += shift;
        else
            fitWith(legendRect().height() + 16 + labels);
    }
    update();
}

void TreeCanvas::zoomBy(double factor, QPointF anchor) {
    const double next = std::clamp(scale_ * factor, kMinScale, kMaxScale);
    const double f = next / scale_;
    offset_ = anchor + (offset_ - anchor) * f;
    scale_ = next;
    update();
}

void TreeCanvas::toggleCollapsed(qint64 id) {
    layout_.setCollapsed(id, !layout_.isCollapsed(id));
    update();
}

qint64 TreeCanvas::nodeAt(QPointF pos) const {
    const double radius = std::max(4.0, std::min(scale_ * 0.4, 14.0));
    qint64 found = 0;
    double best = radius * radius;
    const auto& placed = layout_.placed();
    const auto consider = [&](const PlacedNode& n) {
        const QPointF d = toScreen(n.center) - pos;
        const double dist = d.x() * d.x() + d.y() * d.y();
        if (dist <= best) {
            best = dist;
            found = n.id;
        }
    };
    // Nodes inside a subtree glyph are not on screen: only the drawn ones answer.
    if (!drawnIndex_.empty()) {
        for (int i : drawnIndex_)
            if (static_cast<std::size_t>(i) < placed.size()) consider(placed[static_cast<std::size_t>(i)]);
    } else {
        for (const auto& n : placed) consider(n);
    }
    return found;
}

QColor TreeCanvas::glyphColor(NodeGlyph glyph) {
    const auto c = report::glyphColor(glyph);
    return QColor(c.r, c.g, c.b);
}

QColor TreeCanvas::speedupColor(double speedup, double best) {
    const auto c = report::speedupColor(speedup, best);
    return QColor(c.r, c.g, c.b);
}

// Level of detail: with few nodes in view, every node. Past kMaxDrawn, the
// rows from the top are drawn node by node while their count stays under it,
// and each subtree below the last such row becomes one glyph (its box, its
// best speedup, its failures); zooming in or a double click opens them. The
// way to the best node and to the selected one stays open.
const std::vector<int>& TreeCanvas::chooseDetail(const QRectF& view) {
    const auto& placed = layout_.placed();
    const auto& below = layout_.subtrees();
    subtreeGlyphs_.clear();
    drawnIndex_.clear();
    std::vector<int> perDepth;
    int visible = 0;
    for (const auto& n : placed) {
        if (!view.contains(toScreen(n.center))) continue;
        if (perDepth.size() <= static_cast<std::size_t>(n.depth)) perDepth.resize(static_cast<std::size_t>(n.depth) + 1);
        ++perDepth[static_cast<std::size_t>(n.depth)];
        ++visible;
    }
    if (visible <= kMaxDrawn) {
        if (everyIndex_.size() != placed.size()) {
            everyIndex_.resize(placed.size());
            std::iota(everyIndex_.begin(), everyIndex_.end(), 0);
        }
        drawnNodes_ = visible;
        return everyIndex_;
    }
    int cut = 0, sum = 0;
    for (std::size_t d = 0; d < perDepth.size(); ++d) {
        if (sum + perDepth[d] > kMaxDrawn) break;
        sum += perDepth[d];
        cut = static_cast<int>(d);
    }
    QSet<int> keepOpen;
    for (qint64 id : {selected_, layout_.bestId()})
        for (int i = layout_.indexOf(id); i >= 0; i = placed[static_cast<std::size_t>(i)].parentIndex) keepOpen.insert(i);
    const double half = 0.45;
    drawnNodes_ = 0; // counted on the way: the nodes drawn one by one that are in view
    for (int i = 0; i < static_cast<int>(placed.size());) {
        const auto& n = placed[static_cast<std::size_t>(i)];
        const auto& sub = below[static_cast<std::size_t>(i)];
        drawnIndex_.push_back(i);
        if (view.contains(toScreen(n.center))) ++drawnNodes_;
        if (sub.end == i + 1) { // a leaf
            ++i;
            continue;
        }
        const QRectF whole =
            QRectF(toScreen(QPointF(sub.minX - half, n.depth - 0.5)), toScreen(QPointF(sub.maxX + half, sub.maxDepth + 0.5)));
        if (!whole.normalized().intersects(view)) {
            i = sub.end; // nothing of it in view
        } else if (n.depth >= cut && !opened_.contains(n.id) && !keepOpen.contains(i)) {
            const QPointF a = toScreen(QPointF(sub.minX - half, n.depth + 0.55)),
                          b = toScreen(QPointF(sub.maxX + half, sub.maxDepth + 0.3));
            const QRectF box = QRectF(a, b).normalized();
            if (box.intersects(view)) subtreeGlyphs_.push_back({n.id, box, sub.end - i, sub.failures, sub.best});
            i = sub.end;
        } else {
            ++i;
        }
    }
    return drawnIndex_;
}

QColor TreeCanvas::edgeColour() const {
    const QColor text = palette().color(QPalette::Text), base = palette().color(QPalette::Base);
    const auto mix = [](int a, int b) { return static_cast<int>(std::lround(0.35 * a + 0.65 * b)); };
    return QColor(mix(text.red(), base.red()), mix(text.green(), base.green()), mix(text.blue(), base.blue()));
}

void TreeCanvas::paintSubtreeGlyphs(QPainter& p) {
    if (subtreeGlyphs_.empty()) return;
    const double best = layout_.bestSpeedup();
    const QColor edgeColor = edgeColour();
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    p.setFont(small);
    const QFontMetricsF metrics(small);
    const QColor failColor = glyphColor(NodeGlyph::CompileError);
    for (const auto& g : subtreeGlyphs_) {
        const auto* root = layout_.node(g.root);
        const int i = layout_.indexOf(g.root);
        if (!root || i < 0) continue;
        const QPointF from = toScreen(layout_.placed()[static_cast<std::size_t>(i)].center);
        p.setPen(QPen(edgeColor, 1));
        p.drawLine(from, QPointF(std::clamp(from.x(), g.box.left(), g.box.right()), g.box.top()));
        QColor fill = g.best > 0 ? speedupColor(g.best, best) : glyphColor(NodeGlyph::Failed);
        fill.setAlphaF(0.45f);
        p.fillRect(g.box, fill);
        // The failure share: a strip along the bottom, as wide as the share.
        const double strip = std::min(4.0, g.box.height() / 3);
        if (g.failures > 0 && strip >= 1)
            p.fillRect(QRectF(g.box.left(), g.box.bottom() - strip, g.box.width() * g.failures / std::max(1, g.nodes), strip),
                       failColor);
        if (g.box.width() >= 40 && g.box.height() >= metrics.height() + 2) {
            const QString text =
                g.best > 0 ? QStringLiteral("%1 · %2x").arg(g.nodes).arg(g.best, 0, 'g', 3) : QString::number(g.nodes);
            if (metrics.horizontalAdvance(text) + 6 <= g.box.width()) {
                p.setPen(palette().color(QPalette::Text));
                p.drawText(g.box.adjusted(3, 1, -3, -1), Qt::AlignHCenter | Qt::AlignTop, text);
            }
        }
    }
    p.setFont(font());
}

const SubtreeGlyph* TreeCanvas::subtreeGlyphAt(QPointF pos) const {
    for (const auto& g : subtreeGlyphs_)
        if (g.box.contains(pos)) return &g;
    return nullptr;
}

void TreeCanvas::openSubtree(qint64 root) {
    opened_.insert(root);
    update();
}

void TreeCanvas::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    drawnBadges_.clear();
    const auto& placed = layout_.placed();
    if (placed.empty()) {
        subtreeGlyphs_.clear();
        drawnIndex_.clear();
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No nodes yet"));
        return;
    }
    const QRectF view = QRectF(rect()).adjusted(-20, -20, 20, 20);
    const double radius = std::clamp(scale_ * 0.35, 1.5, 14.0);
    const bool detailed = radius >= 3;
    const auto path = layout_.bestPath();
    const QSet<qint64> onBest(path.begin(), path.end());
    const std::vector<int>& drawn = chooseDetail(view);

    // Edges: one batched call; an edge is drawn when either end is in view.
    std::vector<QLineF> edges, bestEdges;
    edges.reserve(drawn.size());
    for (int i : drawn) {
        const auto& n = placed[static_cast<std::size_t>(i)];
        if (n.parentIndex < 0) continue;
        const auto& up = placed[static_cast<std::size_t>(n.parentIndex)];
        const QPointF a = toScreen(up.center), b = toScreen(n.center);
        if (!view.contains(a) && !view.contains(b) && !view.intersects(QRectF(a, b).normalized().adjusted(-1, -1, 1, 1)))
            continue;
        (onBest.contains(n.id) && onBest.contains(up.id) ? bestEdges : edges).emplace_back(a, b);
    }
    p.setRenderHint(QPainter::Antialiasing, detailed && drawnNodes_ < 5000);
    // Opaque, mixed with the background beforehand: a translucent pen
    // blends every pixel of thousands of long edges (most of a fitted
    // 100,000-node repaint).
    p.setPen(QPen(edgeColour(), 1));
    p.drawLines(edges.data(), static_cast<int>(edges.size()));
    p.setPen(QPen(QColor(0xff, 0xb3, 0x00), std::max(2.0, radius * 0.5)));
    p.drawLines(bestEdges.data(), static_cast<int>(bestEdges.size()));
    paintSubtreeGlyphs(p);

    // Nodes; their speedup labels are placed after them.
    const double best = layout_.bestSpeedup();
    std::vector<NodeLabel> labels;
    for (int i : drawn) {
        const auto& pn = placed[static_cast<std::size_t>(i)];
        const QPointF c = toScreen(pn.center);
        if (!view.contains(c)) continue;
        QColor fill = pn.glyph == NodeGlyph::Correct ? speedupColor(pn.speedup, best) : glyphColor(pn.glyph);
        const QRectF box(c.x() - radius, c.y() - radius, 2 * radius, 2 * radius);
        if (!detailed && !filter_.active()) {
            p.fillRect(box, fill);
            continue;
        }
        const NodeSnapshot* n = layout_.node(pn.id);
        if (!n) continue;
        const bool dim = filter_.active() && !filter_.matches(*n);
        if (dim) fill.setAlphaF(0.15f);
        if (!detailed) {
            p.fillRect(box, fill);
            continue;
        }
        p.setBrush(n->glyph == NodeGlyph::Pending ? QBrush(Qt::NoBrush) : QBrush(fill));
        QColor outline = n->glyph == NodeGlyph::Pending ? glyphColor(NodeGlyph::Pending) : fill.darker(150);
        if (dim) outline.setAlphaF(0.2f);
        p.setPen(QPen(outline, n->pinned ? 2.5 : 1));
        paintGlyphShape(p, n->glyph, c, radius, box);
        if (radius >= 9)
            paintNumber(p, n->seq, c, radius, n->glyph == NodeGlyph::Pending ? palette().color(QPalette::Base) : fill);
        if (n->pinned || n->boost != 0) paintSteeringMark(p, c, radius, *n);
        if (radius >= 6 && !dim) paintTrustBadge(p, c, radius, *n);
        if (pn.collapsed) {
            p.setPen(palette().color(QPalette::Text));
            p.drawText(QRectF(c.x() - 40, c.y() + radius, 80, 14), Qt::AlignHCenter | Qt::AlignTop,
                       QStringLiteral("+%1").arg(pn.hiddenDescendants));
        }
        // A correct node a check-only search never timed has no speedup: "checked", not "0x".
        if (radius >= 9 && n->glyph == NodeGlyph::Correct && !dim)
            labels.push_back({pn.id, c, radius, n->speedup,
                              n->speedup > 0 ? QString::number(n->speedup, 'g', 3) + QLatin1Char('x') : tr("checked")});
        if (pn.id == selected_) {
            p.setBrush(Qt::NoBrush);
            p.setPen(QPen(palette().color(QPalette::Highlight), 2.5));
            p.drawEllipse(box.adjusted(-4, -4, 4, 4));
        }
    }
    paintLabels(p, labels);
    if (!detailed && selected_) {
        const int i = layout_.indexOf(selected_);
        if (i >= 0) {
            const QPointF c = toScreen(placed[static_cast<std::size_t>(i)].center);
            p.setPen(QPen(palette().color(QPalette::Highlight), 2));
            p.setBrush(Qt::NoBrush);
            p.drawEllipse(c, 7, 7);
        }
    }
    if (!subtreeGlyphs_.empty() || !waiting_.isEmpty()) {
        // Says why the tree holds still, or what the boxes are.
        const QString note = !waiting_.isEmpty()
                                 ? tr("%n new node(s) wait: the tree holds still while you point at it", "", waiting_.size())
                                 : tr("%1 of %2 nodes drawn; each box is a subtree (best speedup, failures along its foot): "
                                      "zoom in or double-click one to open it")
                                       .arg(drawnNodes_)
                                       .arg(layout_.size());
        QColor bg = palette().color(QPalette::Window);
        bg.setAlphaF(0.85f);
        // Right of the legend, in the strip a fitted view keeps free of nodes.
        const QFontMetricsF fm(font());
        const double left = legendRect().right() + 8;
        const QRectF box(left, height() - fm.height() - 14,
                         std::max(40.0, std::min(fm.horizontalAdvance(note) + 12, width() - left - 8)), fm.height() + 6);
        p.fillRect(box, bg);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(box.adjusted(6, 3, -6, -3), Qt::AlignLeft | Qt::AlignVCenter,
                   fm.elidedText(note, Qt::ElideRight, box.width() - 12));
    }
    paintLegend(p);
    paintMinimap(p);
}

// Shapes tell outcomes apart without colour: the candidate's failures are
// diamonds, a synthesizer that gave no kernel a square, a host or harness
// failure a triangle, everything else a circle.
void TreeCanvas::paintGlyphShape(QPainter& p, NodeGlyph glyph, QPointF c, double radius, const QRectF& box) {
    if (report::candidateFault(glyph)) {
        p.drawPolygon(
            QPolygonF{{c.x(), c.y() - radius}, {c.x() + radius, c.y()}, {c.x(), c.y() + radius}, {c.x() - radius, c.y()}});
    } else if (glyph == NodeGlyph::SynthError) {
        p.drawRect(box.adjusted(radius * 0.15, radius * 0.15, -radius * 0.15, -radius * 0.15));
    } else if (glyph == NodeGlyph::Infra || glyph == NodeGlyph::Failed) {
        p.drawPolygon(
            QPolygonF{{c.x(), c.y() + radius}, {c.x() + radius, c.y() - radius * 0.8}, {c.x() - radius, c.y() - radius * 0.8}});
    } else {
        p.drawEllipse(box);
    }
}

// A person's steering, readable at a glance: a pin on the node (filled:
// until unpinned; hollow: for the next expansion only) and the boost beside it.
void TreeCanvas::paintSteeringMark(QPainter& p, QPointF c, double radius, const NodeSnapshot& n) const {
    const QColor mark = palette().color(QPalette::Highlight);
    if (n.pinned) {
        // At the node's upper right, off the edge to its parent.
        const double s = std::max(6.0, radius * 0.8);
        const QPointF tip(c.x() + radius * 0.75, c.y() - radius * 0.75);
        const QPolygonF pin{tip, {tip.x() - s * 0.6, tip.y() - s}, {tip.x() + s * 0.6, tip.y() - s}};
        p.setPen(QPen(mark, 1.5));
        p.setBrush(n.pinOnce ? QBrush(Qt::NoBrush) : QBrush(mark));
        p.drawPolygon(pin);
        p.drawEllipse(QPointF(tip.x(), tip.y() - s - s * 0.35), s * 0.35, s * 0.35);
    }
    if (n.boost != 0 && radius >= 6) {
        p.setPen(mark);
        p.drawText(QRectF(c.x() + radius + 3, c.y() - 7, 40, 14), Qt::AlignLeft | Qt::AlignVCenter,
                   (n.boost > 0 ? QStringLiteral("+") : QString()) + QString::number(n.boost, 'g', 2));
    }
}

void TreeCanvas::paintTrustBadge(QPainter& p, QPointF c, double radius, const NodeSnapshot& n) {
    const auto trust = speedupTrust(n);
    if (trust != SpeedupTrust::Noisy && trust != SpeedupTrust::Unsure) return;
    drawTrustBadge(p, QPointF(c.x() - radius * 0.85, c.y() - radius * 0.85), std::max(5.0, radius * 0.42), trust);
    drawnBadges_.emplace_back(n.id, trust);
}

void TreeCanvas::drawTrustBadge(QPainter& p, QPointF at, double r, SpeedupTrust trust) const {
    // Amber as a warning, the same in light and dark themes; its text dark on it.
    p.setPen(QPen(QColor(0x8a, 0x5a, 0x00), 1));
    p.setBrush(QColor(0xff, 0xc1, 0x07));
    p.drawEllipse(at, r, r);
    QFont f = p.font();
    f.setPixelSize(static_cast<int>(std::max(8.0, r * 1.6)));
    f.setBold(true);
    const QFont before = p.font();
    p.setFont(f);
    p.setPen(QColor(0x3a, 0x26, 0x00));
    p.drawText(QRectF(at.x() - r, at.y() - r, 2 * r, 2 * r), Qt::AlignCenter,
               trust == SpeedupTrust::Unsure ? QStringLiteral("?") : QStringLiteral("±"));
    p.setFont(before);
}

// Speedup labels without collisions: the selected node's first, then the
// best path's, then by speedup; a label that would overlap one already drawn
// is left out (the node's tooltip still says it).
void TreeCanvas::paintLabels(QPainter& p, std::vector<NodeLabel>& labels) {
    const auto path = layout_.bestPath();
    const QSet<qint64> onBest(path.begin(), path.end());
    const auto rank = [&](const NodeLabel& l) { return l.id == selected_ ? 0 : onBest.contains(l.id) ? 1 : 2; };
    std::stable_sort(labels.begin(), labels.end(), [&](const NodeLabel& a, const NodeLabel& b) {
        return rank(a) != rank(b) ? rank(a) < rank(b) : a.speedup > b.speedup;
    });
    const QFontMetricsF metrics(p.font());
    drawnLabels_.clear();
    p.setPen(palette().color(QPalette::Text));
    // Drawn labels by grid cell (a label's size or larger), so that each new
    // one is checked against its neighbours only: thousands of labels in view
    // stay linear.
    const double cellW = 64, cellH = std::max(1.0, metrics.height());
    QHash<quint64, std::vector<int>> grid;
    const auto key = [](qint64 cx, qint64 cy) { return (static_cast<quint64>(cx) << 32) ^ static_cast<quint32>(cy); };
    for (const auto& l : labels) {
        const double w = metrics.horizontalAdvance(l.text) + 4, h = metrics.height();
        const QRectF box(l.center.x() - w / 2, l.center.y() + l.radius + 1, w, h);
        const auto x0 = static_cast<qint64>(std::floor(box.left() / cellW)),
                   x1 = static_cast<qint64>(std::floor(box.right() / cellW));
        const auto y0 = static_cast<qint64>(std::floor(box.top() / cellH)),
                   y1 = static_cast<qint64>(std::floor(box.bottom() / cellH));
        bool clash = false;
        for (qint64 cx = x0 - 1; cx <= x1 + 1 && !clash; ++cx)
            for (qint64 cy = y0 - 1; cy <= y1 + 1 && !clash; ++cy) {
                auto it = grid.constFind(key(cx, cy));
                if (it == grid.constEnd()) continue;
                for (int i : *it)
                    if (drawnLabels_[static_cast<std::size_t>(i)].intersects(box)) {
                        clash = true;
                        break;
                    }
            }
        if (clash) continue;
        p.drawText(box, Qt::AlignHCenter | Qt::AlignTop, l.text);
        drawnLabels_.push_back(box);
        for (qint64 cx = x0; cx <= x1; ++cx)
            for (qint64 cy = y0; cy <= y1; ++cy) grid[key(cx, cy)].push_back(static_cast<int>(drawnLabels_.size() - 1));
    }
}

QRectF TreeCanvas::legendRect() const {
    const double h = legendExpanded_ ? 130 : 34;
    return QRectF(8, height() - h - 8, 264, h);
}

void TreeCanvas::paintLegend(QPainter& p) {
    p.setRenderHint(QPainter::Antialiasing, true);
    const double best = std::max(layout_.bestSpeedup(), 1.0);
    // Collapsed (a click on it toggles), only the speedup ramp: the legend never has to hide nodes.
    const QRectF box = legendRect();
    QColor bg = palette().color(QPalette::Window);
    bg.setAlphaF(0.85f);
    p.setPen(Qt::NoPen);
    p.setBrush(bg);
    p.drawRoundedRect(box, 4, 4);
    // The speedup ramp from 1x to the best.
    const QRectF ramp(box.left() + 8, box.top() + 8, 150, 10);
    for (int i = 0; i < 150; ++i) {
        const double s = std::exp(std::log(best) * i / 149.0);
        p.fillRect(QRectF(ramp.left() + i, ramp.top(), 1.5, ramp.height()), speedupColor(s, best));
    }
    p.setPen(palette().color(QPalette::Text));
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 0.85);
    p.setFont(f);
    p.drawText(QPointF(ramp.left(), ramp.bottom() + 12), QStringLiteral("1x"));
    p.drawText(QPointF(ramp.right() - 30, ramp.bottom() + 12), QString::number(best, 'g', 3) + QLatin1Char('x'));
    p.drawText(QPointF(ramp.right() + 8, ramp.bottom()), tr("speedup"));
    if (!legendExpanded_) {
        p.setBrush(Qt::NoBrush);
        return;
    }
    // Status swatches in their shapes, with their names, three to a row.
    std::vector<NodeGlyph> glyphs{NodeGlyph::Pending, NodeGlyph::Running, NodeGlyph::Pruned};
    glyphs.insert(glyphs.end(), std::begin(report::kFailureGlyphs), std::end(report::kFailureGlyphs));
    for (std::size_t i = 0; i < glyphs.size(); ++i) {
        const QPointF at(ramp.left() + 4 + static_cast<double>(i % 3) * 84, box.top() + 40 + static_cast<double>(i / 3) * 15);
        p.setBrush(glyphs[i] == NodeGlyph::Pending ? QBrush(Qt::NoBrush) : QBrush(glyphColor(glyphs[i])));
        p.setPen(QPen(glyphColor(glyphs[i]).darker(150), 1));
        paintGlyphShape(p, glyphs[i], at, 4.5, QRectF(at.x() - 4.5, at.y() - 4.5, 9, 9));
        p.setPen(palette().color(QPalette::Text));
        p.drawText(at + QPointF(8, 4), glyphLabel(glyphs[i]));
    }
    // The steering marks.
    NodeSnapshot once, sticky;
    once.pinned = sticky.pinned = true;
    once.pinOnce = true;
    const double y = box.top() + 40 + 4 * 15 - 2;
    paintSteeringMark(p, QPointF(ramp.left() - 2, y + 10), 4, once);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QPointF(ramp.left() + 12, y + 4), tr("pinned once"));
    paintSteeringMark(p, QPointF(ramp.left() + 82, y + 10), 4, sticky);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QPointF(ramp.left() + 96, y + 4), tr("pinned (sticky)"));
    // The noise badges.
    drawTrustBadge(p, QPointF(ramp.left() + 2, y + 17), 5, SpeedupTrust::Unsure);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QPointF(ramp.left() + 12, y + 21), tr("holds 1× (95 %)"));
    drawTrustBadge(p, QPointF(ramp.left() + 102, y + 17), 5, SpeedupTrust::Noisy);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QPointF(ramp.left() + 112, y + 21), tr("noisy"));
    p.setBrush(Qt::NoBrush);
}

QRectF TreeCanvas::minimapRect() const {
    return QRectF(width() - 168, 8, 160, 100);
}

// The minimap's fold button (its top-right corner), or the folded map's tab.
QRectF TreeCanvas::minimapToggleRect() const {
    return minimapFolded_ ? QRectF(width() - 52, 8, 44, 18) : QRectF(width() - 24, 8, 16, 16);
}

// A node's number in its search, inside its glyph when there is room.
void TreeCanvas::paintNumber(QPainter& p, qint64 number, QPointF c, double radius, const QColor& fill) const {
    if (number <= 0) return;
    const QString text = QString::number(number);
    QFont f = font();
    f.setPixelSize(std::max(7, static_cast<int>(radius * 0.75)));
    const QFontMetricsF m(f);
    if (m.horizontalAdvance(text) > radius * 1.7) return;
    const bool light = fill.lightnessF() > 0.55 || fill.alphaF() < 0.5;
    p.save();
    p.setFont(f);
    p.setPen(light ? QColor(0x20, 0x20, 0x20) : QColor(0xf5, 0xf5, 0xf5));
    p.drawText(QRectF(c.x() - radius, c.y() - radius, 2 * radius, 2 * radius), Qt::AlignCenter, text);
    p.restore();
}

void TreeCanvas::paintMinimap(QPainter& p) {
    const QRectF b = layout_.bounds();
    if (b.isEmpty()) return;
    // Every node's centre (columns and rows from 0 to the last) in view: no map needed.
    // (Corner by corner: a one-column tree's rectangle has no width, and a
    // rectangle without width is inside nothing.)
    const QRectF inner = QRectF(rect()).adjusted(4, 4, -4, -4);
    minimapShown_ = false;
    if (inner.contains(toScreen(b.topLeft())) && inner.contains(toScreen(QPointF(b.width() - 1, b.height() - 1)))) return;
    minimapShown_ = true;
    if (minimapFolded_) {
        // Folded to a tab: nothing under the corner is hidden.
        const QRectF tab = minimapToggleRect();
        QColor bg = palette().color(QPalette::Window);
        bg.setAlphaF(0.9f);
        p.setPen(QPen(palette().color(QPalette::Mid), 1));
        p.setBrush(bg);
        p.drawRect(tab);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(tab, Qt::AlignCenter, tr("map"));
        p.setBrush(Qt::NoBrush);
        return;
    }
    const QRectF mm = minimapRect();
    QColor bg = palette().color(QPalette::Window);
    bg.setAlphaF(0.9f);
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    p.setBrush(bg);
    p.drawRect(mm);
    const double sx = mm.width() / b.width(), sy = mm.height() / (b.height());
    // Every node as a dot (cheap: one rect each, thinned when there are many).
    const auto& placed = layout_.placed();
    const std::size_t step = std::max<std::size_t>(1, placed.size() / 4000);
    for (std::size_t i = 0; i < placed.size(); i += step) {
        const QColor c = placed[i].glyph == NodeGlyph::Correct ? speedupColor(placed[i].speedup, layout_.bestSpeedup())
                                                               : glyphColor(placed[i].glyph);
        p.fillRect(QRectF(mm.left() + placed[i].center.x() * sx, mm.top() + placed[i].center.y() * sy, 1.5, 1.5), c);
    }
    // The view's rectangle, in layout units.
    const QPointF tl((0 - offset_.x()) / scale_, (0 - offset_.y()) / (scale_ * rowPixels_));
    const QPointF br((width() - offset_.x()) / scale_, (height() - offset_.y()) / (scale_ * rowPixels_));
    QRectF v(QPointF(mm.left() + tl.x() * sx, mm.top() + tl.y() * sy), QPointF(mm.left() + br.x() * sx, mm.top() + br.y() * sy));
    p.setPen(QPen(palette().color(QPalette::Highlight), 1.5));
    p.setBrush(Qt::NoBrush);
    p.drawRect(v.intersected(mm));
    // Its fold button: the map can get out of the way of the nodes under it.
    const QRectF fold = minimapToggleRect();
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    p.setBrush(palette().color(QPalette::Button));
    p.drawRect(fold);
    p.setPen(palette().color(QPalette::ButtonText));
    p.drawLine(QPointF(fold.left() + 4, fold.center().y()), QPointF(fold.right() - 4, fold.center().y()));
    p.setBrush(Qt::NoBrush);
}

void TreeCanvas::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    following_ = false;
    zoomBy(std::pow(1.2, steps), event->position());
    event->accept();
}

void TreeCanvas::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && legendRect().contains(event->position())) {
        legendExpanded_ = !legendExpanded_;
        update();
        return;
    }
    if (event->button() == Qt::LeftButton && minimapShown_ && minimapToggleRect().contains(event->position())) {
        minimapFolded_ = !minimapFolded_;
        update();
        return;
    }
    if (event->button() == Qt::LeftButton && minimapShown_ && !minimapFolded_ && minimapRect().contains(event->position()) &&
        !layout_.bounds().isEmpty()) {
        // Click on the minimap: centre the view there.
        const QRectF mm = minimapRect(), b = layout_.bounds();
        const QPointF target((event->position().x() - mm.left()) / mm.width() * b.width(),
                             (event->position().y() - mm.top()) / mm.height() * b.height());
        offset_ += QPointF(width() / 2.0, height() / 2.0) - toScreen(target);
        following_ = false;
        update();
        return;
    }
    if (event->button() == Qt::LeftButton) {
        if (const qint64 id = nodeAt(event->position())) {
            selected_ = id;
            update();
            emit nodeSelected(id);
        }
        dragFrom_ = event->position();
    }
}

void TreeCanvas::mouseMoveEvent(QMouseEvent* event) {
    pointerInside_ = true;
    lastPointerMove_.start();
    if (!dragFrom_) return;
    if (event->position() != *dragFrom_) following_ = false;
    offset_ += event->position() - *dragFrom_;
    dragFrom_ = event->position();
    update();
}

void TreeCanvas::mouseReleaseEvent(QMouseEvent*) {
    dragFrom_.reset();
    releaseIfFree();
}

void TreeCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
    const qint64 id = nodeAt(event->position());
    if (!id) {
        if (const auto* g = subtreeGlyphAt(event->position())) openSubtree(g->root);
        return;
    }
    // placed() is in pre-order: a node shows children when its subtree reaches past it.
    const int i = layout_.indexOf(id);
    const auto at = static_cast<std::size_t>(i);
    const bool hasChildren = i >= 0 && (layout_.placed()[at].collapsed || layout_.subtrees()[at].end != i + 1);
    if (hasChildren)
        toggleCollapsed(id);
    else
        emit nodeActivated(id);
}

bool TreeCanvas::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip) return QWidget::event(event);
    auto* help = static_cast<QHelpEvent*>(event);
    if (legendRect().contains(help->pos())) {
        QToolTip::showText(help->globalPos(), legendExpanded_ ? tr("Click to fold the key") : tr("Click to show the key"), this);
        return true;
    }
    const NodeSnapshot* n = layout_.node(nodeAt(help->pos()));
    if (const auto* g = n ? nullptr : subtreeGlyphAt(help->pos())) {
        const NodeSnapshot* root = layout_.node(g->root);
        QString text = tr("subtree of node #%1: %2 nodes").arg(root ? root->seq : 0).arg(g->nodes);
        if (g->best > 0) text += tr(" · best %1×").arg(g->best, 0, 'g', 4);
        text += tr(" · %1 failed (%2%)").arg(g->failures).arg(100.0 * g->failures / std::max(1, g->nodes), 0, 'f', 0);
        text += tr("\nDouble-click to open it, or zoom in");
        QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    if (!n) {
        QToolTip::hideText();
        event->ignore();
        return true;
    }
    QString text = tr("node #%1 · %2").arg(n->seq).arg(glyphLabel(n->glyph));
    if (n->glyph == NodeGlyph::Correct)
        text += n->speedup > 0 ? tr(" · %1×").arg(n->speedup, 0, 'g', 4) : tr(" · checked, not timed");
    if (n->pinned) text += n->pinOnce ? tr(" · pinned once") : tr(" · pinned");
    if (n->boost != 0) text += tr(" · boost %1").arg(n->boost, 0, 'g', 3);
    if (const QString trust = trustText(*n); !trust.isEmpty()) text += QLatin1Char('\n') + trust;
    QToolTip::showText(help->globalPos(), text, this);
    return true;
}

void TreeCanvas::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_F:
        followTree();
        break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        following_ = false;
        zoomBy(1.25, QPointF(width() / 2.0, height() / 2.0));
        break;
    case Qt::Key_Minus:
        following_ = false;
        zoomBy(0.8, QPointF(width() / 2.0, height() / 2.0));
        break;
    case Qt::Key_B:
        if (layout_.bestId()) selectNode(layout_.bestId());
        break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (selected_) emit nodeActivated(selected_);
        break;
    case Qt::Key_Up:
    case Qt::Key_Down:
    case Qt::Key_Left:
    case Qt::Key_Right: {
        // From nothing selected, the arrows start at the root.
        const qint64 next = selected_ ? neighbour(selected_, static_cast<Qt::Key>(event->key()))
                                      : (layout_.placed().empty() ? 0 : layout_.placed().front().id);
        if (!next) break;
        selected_ = next;
        // Pan only when the node would leave the view, so stepping along a row does not jump.
        const QPointF at = toScreen(layout_.placed()[static_cast<std::size_t>(layout_.indexOf(next))].center);
        if (!QRectF(rect()).adjusted(24, 24, -24, -24).contains(at)) {
            offset_ += QPointF(width() / 2.0, height() / 2.0) - at;
            following_ = false;
        }
        update();
        emit nodeSelected(next);
        break;
    }
    case Qt::Key_C:
        if (selected_) toggleCollapsed(selected_);
        break;
    case Qt::Key_M:
        minimapFolded_ = !minimapFolded_;
        update();
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

void TreeCanvas::contextMenuEvent(QContextMenuEvent* event) {
    if (const qint64 id = nodeAt(event->pos())) {
        selected_ = id;
        update();
        emit nodeSelected(id);
        emit nodeContextMenu(id, event->globalPos());
    }
}

void TreeCanvas::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    // A view that follows the tree fits again when the window gives it room.
    if (!fitted_ || following_) fitToView();
}

} // namespace kw::ui
