#include "tree/tree_svg.h"

#include "tree/tree_canvas.h"

#include <QtCore/QSet>

namespace ks::ui {

QString treeSvg(const TreeLayout& layout, double col, double row) {
    const QRectF b = layout.bounds();
    const double margin = 20, r = std::max(2.0, std::min(col, row) * 0.35);
    const double width = b.width() * col + 2 * margin, height = b.height() * row + 2 * margin;
    auto x = [&](const QPointF& p) { return margin + p.x() * col + col / 2; };
    auto y = [&](const QPointF& p) { return margin + p.y() * row + row / 2; };
    QString svg = QStringLiteral("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%1\" height=\"%2\" "
                                 "viewBox=\"0 0 %1 %2\" font-family=\"sans-serif\" font-size=\"10\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n")
                      .arg(width, 0, 'f', 0)
                      .arg(height, 0, 'f', 0);
    const auto path = layout.bestPath();
    const QSet<qint64> best(path.begin(), path.end());
    const auto& placed = layout.placed();
    svg += QStringLiteral("<g stroke=\"#9e9e9e\" stroke-width=\"1\">\n");
    for (const auto& n : placed) {
        if (n.parentIndex < 0) continue;
        const auto& p = placed[static_cast<std::size_t>(n.parentIndex)];
        const bool bold = best.contains(n.id) && best.contains(p.id);
        svg += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%4\"%5/>\n")
                   .arg(x(p.center), 0, 'f', 1)
                   .arg(y(p.center), 0, 'f', 1)
                   .arg(x(n.center), 0, 'f', 1)
                   .arg(y(n.center), 0, 'f', 1)
                   .arg(bold ? QStringLiteral(" stroke=\"#ffb300\" stroke-width=\"3\"") : QString());
    }
    svg += QStringLiteral("</g>\n<g stroke-width=\"1\">\n");
    for (const auto& pn : placed) {
        const NodeSnapshot* n = layout.node(pn.id);
        if (!n) continue;
        const QColor c = n->glyph == NodeGlyph::Correct ? TreeCanvas::speedupColor(n->speedup, layout.bestSpeedup()) : TreeCanvas::glyphColor(n->glyph);
        const QString title = QStringLiteral("node %1: %2%3").arg(n->id).arg(glyphName(n->glyph)).arg(
            n->glyph == NodeGlyph::Correct ? QStringLiteral(", %1x").arg(n->speedup, 0, 'g', 3) : QString());
        svg += QStringLiteral("<circle cx=\"%1\" cy=\"%2\" r=\"%3\" fill=\"%4\" stroke=\"%5\"><title>%6</title></circle>\n")
                   .arg(x(pn.center), 0, 'f', 1)
                   .arg(y(pn.center), 0, 'f', 1)
                   .arg(r, 0, 'f', 1)
                   .arg(n->glyph == NodeGlyph::Pending ? QStringLiteral("none") : c.name())
                   .arg(c.darker(150).name())
                   .arg(title.toHtmlEscaped());
    }
    svg += QStringLiteral("</g>\n</svg>\n");
    return svg;
}

} // namespace ks::ui
