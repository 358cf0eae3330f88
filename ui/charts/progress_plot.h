#pragma once
// A search's progress (QCustomPlot): the best speedup so far against
// evaluations and against wall time, from the node snapshots the view holds.
#include "tree/tree_snapshot.h"

#include <qcustomplot.h>

#include <vector>

namespace ks::ui {

class ProgressPlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit ProgressPlot(QWidget* parent = nullptr);
    // nodes: every node of the search, in any order.
    void showProgress(const std::vector<NodeSnapshot>& nodes);

private:
    QCPAxisRect* byTime_ = nullptr;
};

} // namespace ks::ui
