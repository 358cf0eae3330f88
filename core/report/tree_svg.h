#pragma once
// The whole tree as a standalone SVG document (every placed node, not only
// what a screen shows): edges, status-coloured glyphs, the best path in
// bold, and each node's id and speedup as a tooltip (<title>).
#include "report/tree_shape.h"

#include <string>

namespace kw::report {

std::string treeSvg(const TreeShape& shape, double columnPixels = 14, double rowPixels = 40);

// Text for HTML and XML: & < > " ' escaped.
std::string markupEscape(const std::string& text);

} // namespace kw::report
