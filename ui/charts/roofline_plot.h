#pragma once
// A node on its machine's roofline (QCustomPlot, log-log): the memory roof
// (bandwidth × intensity) up to the compute roof, and the node's achieved
// point beside its parent's and the search's best, as profiling measured
// them. A profile without roofs or without a flop count has no point to
// place: the plot says so instead of drawing one.
#include "inspect/node_details.h"

#include "charts/plot_theme.h"

#include <optional>

namespace kw::ui {

class RooflinePlot : public ThemedPlot {
    Q_OBJECT
  public:
    explicit RooflinePlot(QWidget* parent = nullptr);
    // False (and nothing drawn) when the node's profile has no roofline point.
    bool showProfiles(const inspect::ProfileSummary& node, const std::optional<inspect::ProfileSummary>& parent,
                      const std::optional<inspect::ProfileSummary>& best);
    int pointsDrawn() const { return points_; }

  private:
    int points_ = 0;
};

// True when the profile can be placed on a roofline (roofs and a flop count).
bool hasRooflinePoint(const inspect::ProfileSummary& p);

} // namespace kw::ui
