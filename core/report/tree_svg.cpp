#include "report/tree_svg.h"

#include <algorithm>
#include <cstdio>
#include <unordered_set>

namespace kw::report {
namespace {

std::string fixed(double v, int digits = 1) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", digits, v);
    return text;
}

} // namespace

std::string markupEscape(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string treeSvg(const TreeShape& shape, double col, double row) {
    const double margin = 20, r = std::max(2.0, std::min(col, row) * 0.35);
    const double width = shape.columns() * col + 2 * margin, height = shape.rows() * row + 2 * margin;
    const auto x = [&](const PlacedNode& p) { return fixed(margin + p.x * col + col / 2); };
    const auto y = [&](const PlacedNode& p) { return fixed(margin + p.y * row + row / 2); };
    std::string svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                      fixed(width, 0) + "\" height=\"" + fixed(height, 0) + "\" viewBox=\"0 0 " + fixed(width, 0) + " " +
                      fixed(height, 0) +
                      "\" font-family=\"sans-serif\" font-size=\"10\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    const auto path = shape.bestPath();
    const std::unordered_set<std::int64_t> best(path.begin(), path.end());
    const auto& placed = shape.placed();
    svg += "<g stroke=\"#9e9e9e\" stroke-width=\"1\">\n";
    for (const auto& n : placed) {
        if (n.parentIndex < 0) continue;
        const auto& p = placed[static_cast<std::size_t>(n.parentIndex)];
        const bool bold = best.count(n.id) && best.count(p.id);
        svg += "<line x1=\"" + x(p) + "\" y1=\"" + y(p) + "\" x2=\"" + x(n) + "\" y2=\"" + y(n) + "\"" +
               (bold ? " stroke=\"#ffb300\" stroke-width=\"3\"" : "") + "/>\n";
    }
    svg += "</g>\n<g stroke-width=\"1\">\n";
    for (const auto& pn : placed) {
        const ShapeNode* n = shape.node(pn.id);
        if (!n) continue;
        const Rgb c = n->glyph == Glyph::Correct ? speedupColor(n->speedup, shape.bestSpeedup()) : glyphColor(n->glyph);
        char speed[32] = "";
        if (n->glyph == Glyph::Correct) {
            if (n->speedup > 0)
                std::snprintf(speed, sizeof speed, ", %.3gx", n->speedup);
            else
                std::snprintf(speed, sizeof speed, ", checked, not timed");
        }
        const std::string title = (n->number ? "node #" + std::to_string(n->number) : "node " + std::to_string(n->id)) + ": " +
                                  glyphName(n->glyph) + speed;
        svg += "<circle cx=\"" + x(pn) + "\" cy=\"" + y(pn) + "\" r=\"" + fixed(r) + "\" fill=\"" +
               (n->glyph == Glyph::Pending ? std::string("none") : c.hex()) + "\" stroke=\"" + c.darker(1.5).hex() +
               "\"><title>" + markupEscape(title) + "</title></circle>\n";
    }
    svg += "</g>\n</svg>\n";
    return svg;
}

} // namespace kw::report
