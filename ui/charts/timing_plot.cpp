#include "charts/timing_plot.h"

#include "charts/plot_theme.h"

#include <algorithm>

namespace kw::ui {

TimingPlot::TimingPlot(QWidget* parent) : ThemedPlot(parent) {
    setMinimumHeight(180);
    yAxis->setLabel(tr("time per call (µs)"));
    xAxis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
    legend->setVisible(false);
    followPalette(*this);
}

void TimingPlot::clearTiming() {
    clearGraphs();
    clearItems();
    replot();
}

void TimingPlot::showTiming(const eval::TimingCase& t) {
    clearGraphs();
    clearItems();
    std::vector<const eval::TimingStats*> series{&t.candidate};
    for (const auto& b : t.baselines) series.push_back(&b);
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(xAxis->ticker());
    ticker->clear();
    double lo = 1e300, hi = 0;
    const QColor colors[] = {QColor(0x1e, 0x88, 0xe5), QColor(0x75, 0x75, 0x75), QColor(0xfb, 0x8c, 0x00),
                             QColor(0x8e, 0x24, 0xaa)};
    for (std::size_t k = 0; k < series.size(); ++k) {
        const auto& s = *series[k];
        auto* g = addGraph();
        g->setLineStyle(QCPGraph::lsNone);
        const QColor c = colors[std::min<std::size_t>(k, 3)];
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, c, c, 4));
        QVector<double> xs, ys;
        for (std::size_t i = 0; i < s.samples.size(); ++i) {
            // Deterministic jitter: the sample's index spreads the dots across the column.
            xs.push_back(static_cast<double>(k) + 0.3 * (static_cast<double>(i % 17) / 16.0 - 0.5));
            ys.push_back(s.samples[i] * 1e6);
            lo = std::min(lo, s.samples[i] * 1e6);
            hi = std::max(hi, s.samples[i] * 1e6);
        }
        g->setData(xs, ys);
        auto* median = new QCPItemLine(this);
        median->start->setCoords(static_cast<double>(k) - 0.25, s.median * 1e6);
        median->end->setCoords(static_cast<double>(k) + 0.25, s.median * 1e6);
        median->setPen(QPen(c.darker(140), 2.5));
        ticker->addTick(static_cast<double>(k), QString::fromStdString(s.name.empty() ? "candidate" : s.name));
    }
    xAxis->setLabel(tr("shape %1").arg(QString::fromStdString(t.shape))); // which of the node's timing shapes this is
    xAxis->setRange(-0.6, static_cast<double>(series.size()) - 0.4);
    if (hi > 0) yAxis->setRange(0, hi * 1.1);
    replot();
}

} // namespace kw::ui
