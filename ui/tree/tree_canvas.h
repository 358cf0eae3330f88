#pragma once
// The live search tree: a tidy top-down layout (tree_layout.h) drawn with
// culling, so that pan and zoom stay smooth at tens of thousands of nodes.
// Each glyph shows the node's status, and a correct node's speedup on a colour
// scale (legend bottom-left). The best path is drawn bold. Wheel zooms, drag
// pans, F fits, a click selects, a double click collapses or expands a
// subtree, and a minimap shows where the view is once the tree outgrows it
// (its button or M folds it to a tab). Zoomed in, each node shows its number
// in the search.
#include "tree/tree_layout.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QTimer>
#include <QtWidgets/QWidget>

#include <functional>
#include <optional>
#include <vector>

namespace kw::ui {

struct TreeFilter {
    QSet<int> hiddenGlyphs; // NodeGlyph values dimmed out
    QString origin;         // only this origin ("" = any)
    double minSpeedup = 0;  // correct nodes below it are dimmed (0 = off)
    bool matches(const NodeSnapshot& n) const;
    bool active() const { return !hiddenGlyphs.isEmpty() || !origin.isEmpty() || minSpeedup > 0; }
};

// A subtree drawn as one summary glyph (level of detail): its box on screen
// and what it holds, the root included.
struct SubtreeGlyph {
    qint64 root = 0;
    QRectF box;
    int nodes = 0, failures = 0;
    double best = 0;
};

// A speedup label waiting to be placed (TreeCanvas::paintLabels).
struct NodeLabel {
    qint64 id = 0;
    QPointF center;
    double radius = 0, speedup = 0;
    QString text;
};

class TreeCanvas : public QWidget {
    Q_OBJECT
  public:
    explicit TreeCanvas(QWidget* parent = nullptr);

    // Changes to known nodes show at once; new nodes wait while the layout
    // is held (the pointer moving on the tree in the last few seconds, a
    // drag, or holdLayout), so that nothing moves under the user's hand.
    void applyBatch(const NodeBatch& batch);
    // A menu or dialog about a node is open: the layout stays as it is until
    // the matching holdLayout(false).
    void holdLayout(bool hold);
    bool layoutHeld() const;
    int waitingNodes() const { return static_cast<int>(waiting_.size()); }
    void clearTree();
    const TreeLayout& layout() const { return layout_; }

    void setFilter(const TreeFilter& filter);
    const TreeFilter& filter() const { return filter_; }

    qint64 selectedId() const { return selected_; }
    // Selects and centres a node; false when there is no such node.
    bool selectNode(qint64 id);
    void fitToView();
    // Fits, and keeps fitting as new nodes arrive (follow-live) until the
    // user moves the view: a zoom, a drag, the minimap, keys or a node
    // selected elsewhere stop it; Fit (F) starts it again.
    void followTree();
    bool following() const { return following_; }
    void zoomBy(double factor, QPointF anchor);
    void toggleCollapsed(qint64 id);
    // The node an arrow key leads to from id: Up the parent, Down the first
    // child, Left/Right the nearest node on the same row; 0 when none.
    qint64 neighbour(qint64 id, Qt::Key key) const;
    // Node under a widget position, 0 when none.
    qint64 nodeAt(QPointF pos) const;

    // Layout units to pixels.
    double scale() const { return scale_; }
    QPointF toScreen(QPointF layoutPoint) const;
    // Where the legend (the key) is drawn: a fitted tree keeps out of it.
    QRectF legendRect() const;

    // Where the last paint drew speedup labels (none overlap; tests read them).
    const std::vector<QRectF>& drawnLabels() const { return drawnLabels_; }
    // The nodes the last paint badged as noisy or unsure (speedupTrust), with the badge.
    const std::vector<std::pair<qint64, SpeedupTrust>>& drawnBadges() const { return drawnBadges_; }
    // Level of detail: past kMaxDrawn nodes in view, the last paint drew the
    // subtrees below a depth as summary glyphs (listed here) and only the
    // nodes above it one by one (how many: drawnNodes()).
    static constexpr int kMaxDrawn = 2500;
    const std::vector<SubtreeGlyph>& subtreeGlyphs() const { return subtreeGlyphs_; }
    int drawnNodes() const { return drawnNodes_; }
    // Draws the subtree below `root` node by node (a double click on its glyph).
    void openSubtree(qint64 root);
    bool legendExpanded() const { return legendExpanded_; }
    bool minimapShown() const { return minimapShown_; }
    bool minimapFolded() const { return minimapFolded_; }

    static QColor speedupColor(double speedup, double best);
    static QColor glyphColor(NodeGlyph glyph);

  signals:
    void nodeSelected(qint64 id);
    void nodeActivated(qint64 id);                     // double click on a leaf, or Enter
    void nodeContextMenu(qint64 id, QPoint globalPos); // right click on a node

  protected:
    bool event(QEvent* event) override; // tooltips: a node's id, status and speedup, whatever the zoom
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void enterEvent(QEnterEvent* event) override;
    void leaveEvent(QEvent* event) override;

  private:
    // The placed() indices drawn one by one (all of them when the view holds
    // few enough nodes); fills subtreeGlyphs_. Valid until the next call.
    const std::vector<int>& chooseDetail(const QRectF& view);
    void paintSubtreeGlyphs(QPainter& p);
    QColor edgeColour() const;
    const SubtreeGlyph* subtreeGlyphAt(QPointF pos) const;
    void paintLegend(QPainter& p);
    static void paintGlyphShape(QPainter& p, NodeGlyph glyph, QPointF center, double radius, const QRectF& box);
    void paintLabels(QPainter& p, std::vector<NodeLabel>& labels);
    void paintSteeringMark(QPainter& p, QPointF center, double radius, const NodeSnapshot& n) const;
    // A small badge at the node's upper left when its speedup is noisy or unsure.
    void paintTrustBadge(QPainter& p, QPointF center, double radius, const NodeSnapshot& n);
    void drawTrustBadge(QPainter& p, QPointF at, double radius, SpeedupTrust trust) const;
    void paintMinimap(QPainter& p);
    QRectF minimapRect() const;
    QRectF minimapToggleRect() const;
    void paintNumber(QPainter& p, qint64 number, QPointF c, double radius, const QColor& fill) const;

    TreeLayout layout_;
    TreeFilter filter_;
    qint64 selected_ = 0;
    double scale_ = 24; // pixels per layout column
    std::vector<QRectF> drawnLabels_;
    std::vector<std::pair<qint64, SpeedupTrust>> drawnBadges_;
    std::vector<SubtreeGlyph> subtreeGlyphs_;
    std::vector<int> drawnIndex_; // the last paint's node-by-node indices, when it aggregated (else empty)
    std::vector<int> everyIndex_; // 0 .. placed().size() - 1, kept between paints
    int drawnNodes_ = 0;
    QSet<qint64> opened_; // subtree roots a person opened
    bool legendExpanded_ = true;
    bool minimapShown_ = false;  // the last paint drew the minimap (or its tab)
    bool minimapFolded_ = false; // folded to a tab (its button, or M)
    double rowPixels_ = 2.2;     // a depth row is this many columns tall
    QPointF offset_{20, 20};     // screen position of layout (0, 0)
    std::optional<QPointF> dragFrom_;
    bool fitted_ = false;   // the first batch fits; after that the user's view stays
    bool following_ = true; // new nodes refit the view (followTree) until the user moves it
    // Stable layout under the pointer.
    void releaseIfFree();
    NodeBatch waiting_; // new nodes held back, in arrival order
    int holds_ = 0;     // holdLayout(true) not yet matched
    bool pointerInside_ = false;
    QElapsedTimer lastPointerMove_;
    QTimer* releaseTimer_ = nullptr;
};

} // namespace kw::ui
