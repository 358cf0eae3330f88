#pragma once
// The timing distribution of one timing shape (QCustomPlot): every sample of
// the candidate and of each baseline as a dot, jittered sideways, with the
// median as a bar, on a common time axis.
#include "eval/evaluation_result.h"

#include "charts/plot_theme.h"

namespace kw::ui {

class TimingPlot : public ThemedPlot {
    Q_OBJECT
  public:
    explicit TimingPlot(QWidget* parent = nullptr);
    void showTiming(const eval::TimingCase& timing);
    void clearTiming();
};

} // namespace kw::ui
