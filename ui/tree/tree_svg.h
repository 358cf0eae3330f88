#pragma once
// The whole tree as a standalone SVG document (every node, not only what is
// in view): edges, status-coloured glyphs, the best path in bold, and each
// node's id and speedup as a tooltip (<title>). For reviews and reports.
#include "tree/tree_layout.h"

#include <QtCore/QString>

namespace ks::ui {

QString treeSvg(const TreeLayout& layout, double columnPixels = 14, double rowPixels = 40);

} // namespace ks::ui
