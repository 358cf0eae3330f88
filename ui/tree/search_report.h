#pragma once
// A self-contained HTML report of a search for reviews: the summary, the
// tree (inline SVG), the best kernel's source, the best-speedup curve (inline
// SVG) and a table of the top candidates. No external file, script or font.
#include "store/database.h"
#include "tree/tree_layout.h"

#include <QtCore/QString>

namespace ks::ui {

QString searchReportHtml(const store::Database& db, qint64 searchId, const TreeLayout& layout, int topCandidates = 15);

} // namespace ks::ui
