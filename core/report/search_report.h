#pragma once
// A self-contained HTML report of a search for reviews: the summary, the
// best-speedup curve and the tree (inline SVG), the top candidates and the
// best kernel's source. No external file, script or font. The CLI writes it
// (export report) and so does the workbench.
#include "store/database.h"
#include "util/result.h"

#include <cstdint>
#include <string>

namespace kw::report {

Result<std::string> searchReportHtml(const store::Database& db, std::int64_t searchId, int topCandidates = 15);

} // namespace kw::report
