#pragma once
// A model's regions before and after their kernels went in: for each
// region, two bars (its forward in the original model, in the swapped one),
// costliest first, so that what each swap saved, and a swap that cost, show
// at a glance. Falls back to the profile's times (before only) when the
// model was not timed A/B yet.
#include "model/model_pipeline.h"

#include "charts/plot_theme.h"

namespace kw::ui {

class ModelRegionsPlot : public ThemedPlot {
    Q_OBJECT
  public:
    explicit ModelRegionsPlot(QWidget* parent = nullptr);
    void showFolder(const model::ModelFolder& folder);
    int regionsDrawn() const { return regions_; }
    bool afterDrawn() const { return after_; }

  private:
    int regions_ = 0;
    bool after_ = false;
};

} // namespace kw::ui
