#include "charts/roofline_plot.h"

#include <algorithm>
#include <cmath>

namespace kw::ui {

bool hasRooflinePoint(const inspect::ProfileSummary& p) {
    return p.hasRoofline && p.roofBandwidthGBs > 0 && p.roofGflops > 0 && p.intensity > 0 && p.gflops > 0;
}

RooflinePlot::RooflinePlot(QWidget* parent) : ThemedPlot(parent) {
    setMinimumHeight(220);
    for (auto* axis : {xAxis, yAxis}) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
        axis->setNumberFormat(QStringLiteral("gb"));
    }
    xAxis->setLabel(tr("arithmetic intensity (flop/byte)"));
    yAxis->setLabel(tr("GFLOP/s"));
    legend->setVisible(true);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    legend->setFont(small);
    legend->setRowSpacing(0);
    // Under the chart, not in it: a point above its roof (a cached working
    // set beats the DRAM roof) must never hide behind the legend.
    axisRect()->insetLayout()->take(legend);
    plotLayout()->addElement(1, 0, legend);
    plotLayout()->setRowStretchFactor(1, 0.001);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setWrap(2);
    followPalette(*this);
}

bool RooflinePlot::showProfiles(const inspect::ProfileSummary& node, const std::optional<inspect::ProfileSummary>& parent,
                                const std::optional<inspect::ProfileSummary>& best) {
    clearGraphs();
    points_ = 0;
    if (!hasRooflinePoint(node)) {
        replot();
        return false;
    }
    const double bw = node.roofBandwidthGBs, peak = node.roofGflops, ridge = peak / bw;
    // Every point placed: the node's, and its parent's and the best's where they have one.
    std::vector<const inspect::ProfileSummary*> placed{&node};
    for (const auto* p : {parent ? &*parent : nullptr, best ? &*best : nullptr})
        if (p && hasRooflinePoint(*p)) placed.push_back(p);
    // The x range holds the ridge and every point, a decade of room around them.
    double lo = ridge, hi = ridge;
    for (const auto* p : placed) lo = std::min(lo, p->intensity), hi = std::max(hi, p->intensity);
    lo /= 10;
    hi *= 10;
    auto* roof = addGraph();
    roof->setName(tr("roofs: %1 GB/s, %2 GFLOP/s").arg(bw, 0, 'f', 0).arg(peak, 0, 'f', 0) +
                  (node.device.empty() ? QString() : QStringLiteral(" (%1)").arg(QString::fromStdString(node.device))));
    roof->setPen(QPen(palette().color(QPalette::Text), 2));
    roof->addData(lo, bw * lo);
    roof->addData(ridge, peak);
    roof->addData(hi, peak);
    const auto point = [&](const inspect::ProfileSummary& p, const QString& name, QCPScatterStyle::ScatterShape shape,
                           const QColor& colour, double size) {
        auto* g = addGraph();
        g->setName(name);
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(shape, colour.darker(140), colour, size));
        g->addData(p.intensity, p.gflops);
        ++points_;
    };
    // The best first, so that the node's own point is drawn on top where they coincide.
    if (best && hasRooflinePoint(*best))
        point(*best, tr("best: %1 GFLOP/s").arg(best->gflops, 0, 'g', 3), QCPScatterStyle::ssStar, QColor(0xff, 0xb3, 0x00), 14);
    if (parent && hasRooflinePoint(*parent))
        point(*parent, tr("parent: %1 GFLOP/s").arg(parent->gflops, 0, 'g', 3), QCPScatterStyle::ssSquare,
              QColor(0x90, 0xa4, 0xae), 9);
    point(node, tr("node: %1 GFLOP/s, %2% of its bound").arg(node.gflops, 0, 'g', 3).arg(node.rooflineFraction * 100, 0, 'f', 0),
          QCPScatterStyle::ssDisc, palette().color(QPalette::Highlight), 10);
    double top = peak, bottom = bw * lo;
    for (const auto* p : placed) top = std::max(top, p->gflops), bottom = std::min(bottom, p->gflops);
    xAxis->setRange(lo, hi);
    yAxis->setRange(bottom / 3, top * 3);
    followPalette(*this);
    replot();
    return true;
}

} // namespace kw::ui
