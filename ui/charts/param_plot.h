#pragma once
// The search's tunable params against speedup (QCustomPlot): parallel
// coordinates (one line per correct node across every param's axis, its
// values in order, coloured by speedup as the tree colours it) above, and
// each param's importance (inspect::paramImportance) as bars below.
#include "inspect/param_importance.h"
#include "tree/tree_snapshot.h"

#include "charts/plot_theme.h"

#include <vector>

namespace kw::ui {

class ParamPlot : public ThemedPlot {
    Q_OBJECT
  public:
    explicit ParamPlot(QWidget* parent = nullptr);
    // nodes: every node of the search; the correct ones with params are drawn.
    void showParams(const std::vector<NodeSnapshot>& nodes);

    const std::vector<inspect::ParamImportance>& importance() const { return importance_; }
    int linesDrawn() const { return lines_; }

  private:
    QCPAxisRect* paramAxes_ = nullptr;
    QCPAxisRect* bars_ = nullptr;
    std::vector<inspect::ParamImportance> importance_;
    int lines_ = 0;
};

} // namespace kw::ui
