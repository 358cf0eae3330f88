#include "editor/line_diff.h"

#include <algorithm>

namespace kw::ui {

std::vector<DiffLine> diffLines(const QString& before, const QString& after) {
    const QStringList a = before.split(QLatin1Char('\n')), b = after.split(QLatin1Char('\n'));
    const std::size_t n = static_cast<std::size_t>(a.size()), m = static_cast<std::size_t>(b.size());
    constexpr std::size_t kMaxCells = 16u << 20;
    std::vector<DiffLine> out;
    if ((n + 1) * (m + 1) > kMaxCells) {
        for (const auto& l : a) out.push_back({DiffLine::Removed, l});
        for (const auto& l : b) out.push_back({DiffLine::Added, l});
        return out;
    }
    // lcs[i][j]: length of the LCS of a[i..] and b[j..].
    std::vector<std::uint32_t> lcs((n + 1) * (m + 1), 0);
    auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& { return lcs[i * (m + 1) + j]; };
    for (std::size_t i = n; i-- > 0;)
        for (std::size_t j = m; j-- > 0;)
            at(i, j) = a[static_cast<qsizetype>(i)] == b[static_cast<qsizetype>(j)] ? at(i + 1, j + 1) + 1
                                                                                    : std::max(at(i + 1, j), at(i, j + 1));
    std::size_t i = 0, j = 0;
    while (i < n && j < m) {
        if (a[static_cast<qsizetype>(i)] == b[static_cast<qsizetype>(j)]) {
            out.push_back({DiffLine::Same, a[static_cast<qsizetype>(i)]});
            ++i;
            ++j;
        } else if (at(i + 1, j) >= at(i, j + 1)) {
            out.push_back({DiffLine::Removed, a[static_cast<qsizetype>(i++)]});
        } else {
            out.push_back({DiffLine::Added, b[static_cast<qsizetype>(j++)]});
        }
    }
    while (i < n) out.push_back({DiffLine::Removed, a[static_cast<qsizetype>(i++)]});
    while (j < m) out.push_back({DiffLine::Added, b[static_cast<qsizetype>(j++)]});
    return out;
}

} // namespace kw::ui
