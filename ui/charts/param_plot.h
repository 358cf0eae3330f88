#pragma once
// The search's tunable params against speedup (QCustomPlot): parallel
// coordinates (one line per correct node across every param's axis, its
// values in order, coloured by speedup as the tree colours it) above, and
// each param's importance (inspect::paramImportance) as bars below. A click
// on an axis at a value brushes it (again: unbrushes): only the lines with
// every brushed value keep their colour, and brushChanged says the filter
// ("VEC=8 UNROLL=4") the node table takes.
#include "inspect/param_importance.h"
#include "tree/tree_snapshot.h"

#include "charts/plot_theme.h"

#include <map>
#include <string>
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
    int linesBrushed() const { return brushedLines_; } // the lines that match every brushed value

    // Brushes `value` of `param` (or unbrushes it when it is brushed); an unknown pair changes nothing.
    void toggleBrush(const std::string& param, const std::string& value);
    void clearBrush();
    // The brushed values as the node table's filter: "NAME=value ..." ("" when none).
    QString brushFilter() const;

  signals:
    void brushChanged(const QString& filter);

  protected:
    void mousePressEvent(QMouseEvent* event) override;

  private:
    void redraw();

    std::vector<NodeSnapshot> nodes_;
    std::map<std::string, std::string> brush_;
    int brushedLines_ = 0;
    QCPAxisRect* paramAxes_ = nullptr;
    QCPAxisRect* bars_ = nullptr;
    std::vector<inspect::ParamImportance> importance_;
    int lines_ = 0;
};

} // namespace kw::ui
