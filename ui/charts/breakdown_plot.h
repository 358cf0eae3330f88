#pragma once
// What one call of a GPU candidate put on the device, as bars: each kernel,
// copy and memset (grouped by name, longest first) with its device time, so
// that a candidate launching five kernels where one would do shows at once.
#include "inspect/node_details.h"

#include "charts/plot_theme.h"

namespace kw::ui {

class BreakdownPlot : public ThemedPlot {
    Q_OBJECT
  public:
    explicit BreakdownPlot(QWidget* parent = nullptr);
    // False (and nothing drawn) when the profile has no breakdown (CPU nodes).
    bool showBreakdown(const inspect::ProfileSummary& profile);
    int barsDrawn() const { return bars_; }

  private:
    int bars_ = 0;
};

} // namespace kw::ui
