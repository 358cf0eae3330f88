#pragma once
// Several searches' best speedup so far against evaluations, one line each
// on a common axis (inspect/progress_curves.h), with a legend by name.
#include "inspect/progress_curves.h"

#include "charts/plot_theme.h"

#include <vector>

namespace kw::ui {

class ProgressOverlayPlot : public ThemedPlot {
    Q_OBJECT
  public:
    explicit ProgressOverlayPlot(QWidget* parent = nullptr);
    void showCurves(const std::vector<inspect::ProgressCurve>& curves);
    // The names in the legend, in order (tests read them).
    QStringList legendNames() const;
};

} // namespace kw::ui
