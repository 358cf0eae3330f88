#pragma once
// A line diff of two texts (longest common subsequence), for the inspector's
// Diff tab: kernels are at most a few thousand lines, so the O(n·m) table is
// small; beyond kMaxCells the texts are compared as one replaced block.
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <vector>

namespace kw::ui {

struct DiffLine {
    enum Kind { Same, Removed, Added } kind = Same;
    QString text;
};

std::vector<DiffLine> diffLines(const QString& before, const QString& after);

} // namespace kw::ui
