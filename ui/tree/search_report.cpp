#include "tree/search_report.h"

#include "report/standalone_kernel.h"
#include "store/search_store.h"
#include "tree/tree_svg.h"

#include <algorithm>

namespace ks::ui {
namespace {

QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

// The best speedup after each finished node, as an SVG polyline.
QString curveSvg(const TreeLayout& layout) {
    std::vector<const NodeSnapshot*> done;
    for (const auto& p : layout.placed())
        if (const NodeSnapshot* n = layout.node(p.id); n && n->glyph != NodeGlyph::Pending && n->glyph != NodeGlyph::Running) done.push_back(n);
    std::sort(done.begin(), done.end(), [](auto* a, auto* b) { return a->id < b->id; });
    const double w = 600, h = 200, m = 30;
    const double top = std::max(1.0, layout.bestSpeedup()) * 1.1;
    QString points;
    double best = 0;
    for (std::size_t i = 0; i < done.size(); ++i) {
        best = std::max(best, done[i]->speedup);
        const double x = m + (w - 2 * m) * (done.size() > 1 ? static_cast<double>(i) / static_cast<double>(done.size() - 1) : 0);
        const double y = h - m - (h - 2 * m) * best / top;
        points += QStringLiteral("%1,%2 ").arg(x, 0, 'f', 1).arg(y, 0, 'f', 1);
    }
    return QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%1\" height=\"%2\" font-family=\"sans-serif\" font-size=\"11\">"
                          "<line x1=\"%3\" y1=\"%4\" x2=\"%5\" y2=\"%4\" stroke=\"#999\"/><line x1=\"%3\" y1=\"%3\" x2=\"%3\" y2=\"%4\" stroke=\"#999\"/>"
                          "<polyline fill=\"none\" stroke=\"#1e88e5\" stroke-width=\"2\" points=\"%6\"/>"
                          "<text x=\"%3\" y=\"%7\">evaluations: %8</text><text x=\"2\" y=\"%3\">%9x</text></svg>")
        .arg(w)
        .arg(h)
        .arg(m)
        .arg(h - m)
        .arg(w - m)
        .arg(points)
        .arg(h - 8)
        .arg(done.size())
        .arg(top, 0, 'g', 3);
}

} // namespace

QString searchReportHtml(const store::Database& db, qint64 searchId, const TreeLayout& layout, int topCandidates) {
    store::SearchStore store(db);
    auto search = store.loadSearch(searchId);
    QString html = QStringLiteral("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Kernelsmith search %1</title>"
                                  "<style>body{font-family:sans-serif;margin:2em;max-width:1200px}pre{background:#f5f5f5;padding:1em;overflow:auto}"
                                  "table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:4px 8px;text-align:left}"
                                  ".tree{overflow:auto;border:1px solid #ddd}</style></head><body>\n")
                       .arg(searchId);
    if (!search) return html + QStringLiteral("<p>%1</p></body></html>").arg(esc(search.error().message));
    html += QStringLiteral("<h1>Search %1: %2</h1>\n<p>status %3%4 · %5 evaluations · best %6 at node %7</p>\n<p><code>%8</code></p>\n")
                .arg(searchId)
                .arg(esc(search->problem), esc(search->status))
                .arg(search->stopReason.empty() ? QString() : QStringLiteral(" (%1)").arg(esc(search->stopReason)))
                .arg(search->evaluations)
                .arg(search->bestSpeedup ? QStringLiteral("%1x").arg(*search->bestSpeedup, 0, 'g', 4) : QStringLiteral("-"))
                .arg(search->bestNode ? QString::number(*search->bestNode) : QStringLiteral("-"))
                .arg(esc(search->configJson));
    html += QStringLiteral("<h2>Best speedup so far</h2>\n") + curveSvg(layout) + QStringLiteral("\n<h2>Tree</h2>\n<div class=\"tree\">") +
            treeSvg(layout) + QStringLiteral("</div>\n");
    std::vector<const NodeSnapshot*> correct;
    for (const auto& p : layout.placed())
        if (const NodeSnapshot* n = layout.node(p.id); n && n->glyph == NodeGlyph::Correct) correct.push_back(n);
    std::sort(correct.begin(), correct.end(), [](auto* a, auto* b) { return a->speedup > b->speedup; });
    html += QStringLiteral("<h2>Top candidates</h2>\n<table><tr><th>node</th><th>speedup</th><th>origin</th><th>params</th></tr>\n");
    for (std::size_t i = 0; i < correct.size() && i < static_cast<std::size_t>(topCandidates); ++i)
        html += QStringLiteral("<tr><td>%1</td><td>%2x</td><td>%3</td><td><code>%4</code></td></tr>\n")
                    .arg(correct[i]->id)
                    .arg(correct[i]->speedup, 0, 'g', 4)
                    .arg(correct[i]->origin.toHtmlEscaped(), correct[i]->params.toHtmlEscaped());
    html += QStringLiteral("</table>\n");
    if (search->bestNode) {
        auto kernel = report::standaloneKernel(db, searchId, *search->bestNode);
        html += QStringLiteral("<h2>Best kernel (node %1)</h2>\n<pre>%2</pre>\n").arg(*search->bestNode).arg(kernel ? esc(*kernel) : esc(kernel.error().message));
    }
    return html + QStringLiteral("</body></html>\n");
}

} // namespace ks::ui
