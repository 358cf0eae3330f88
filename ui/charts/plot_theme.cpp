#include "charts/plot_theme.h"

namespace kw::ui {

void followPalette(QCustomPlot& plot) {
    const QPalette pal = plot.palette();
    const QColor text = pal.color(QPalette::WindowText), line = pal.color(QPalette::Mid);
    plot.setBackground(pal.color(QPalette::Base));
    for (auto* rect : plot.axisRects())
        for (auto* axis : rect->axes()) {
            axis->setLabelColor(text);
            axis->setTickLabelColor(text);
            axis->setBasePen(QPen(line));
            axis->setTickPen(QPen(line));
            axis->setSubTickPen(QPen(line));
            axis->grid()->setPen(QPen(pal.color(QPalette::Midlight), 0, Qt::DotLine));
            axis->grid()->setZeroLinePen(Qt::NoPen);
        }
    if (plot.legend) {
        plot.legend->setBrush(pal.color(QPalette::Base));
        plot.legend->setTextColor(text);
        plot.legend->setBorderPen(QPen(line));
    }
}

void ThemedPlot::changeEvent(QEvent* event) {
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        followPalette(*this);
        replot(QCustomPlot::rpQueuedReplot);
    }
}

} // namespace kw::ui
