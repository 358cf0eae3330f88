#pragma once
// QCustomPlot paints white paper and black axes unless told otherwise; these
// give a plot the widget palette's colours, so that it reads in a dark theme
// as in a light one, and again after the palette changes.
#include <qcustomplot.h>

namespace kw::ui {

// Background, axes, tick labels, grids and legend of every axis rect.
void followPalette(QCustomPlot& plot);

// A QCustomPlot that follows the palette when it changes (a theme switch).
class ThemedPlot : public QCustomPlot {
    Q_OBJECT
  public:
    using QCustomPlot::QCustomPlot;

  protected:
    void changeEvent(QEvent* event) override;
};

} // namespace kw::ui
