#include "charts/progress_overlay_plot.h"

#include <algorithm>

namespace kw::ui {
namespace {

// Qualitative colours that stay apart on light and dark backgrounds (Tableau 10).
const QColor kLineColors[] = {QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b), QColor(0xe1, 0x57, 0x59),
                              QColor(0x76, 0xb7, 0xb2), QColor(0x59, 0xa1, 0x4f), QColor(0xed, 0xc9, 0x48),
                              QColor(0xb0, 0x7a, 0xa1), QColor(0xff, 0x9d, 0xa7), QColor(0x9c, 0x75, 0x5f),
                              QColor(0xba, 0xb0, 0xac)};

} // namespace

ProgressOverlayPlot::ProgressOverlayPlot(QWidget* parent) : ThemedPlot(parent) {
    setMinimumSize(520, 320);
    xAxis->setLabel(tr("evaluations finished"));
    yAxis->setLabel(tr("best speedup so far (×)"));
    legend->setVisible(true);
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    followPalette(*this);
}

void ProgressOverlayPlot::showCurves(const std::vector<inspect::ProgressCurve>& curves) {
    clearGraphs();
    clearItems();
    followPalette(*this);
    int longest = 1;
    double top = 1, low = 1;
    for (std::size_t i = 0; i < curves.size(); ++i) {
        const auto& c = curves[i];
        auto* g = addGraph();
        g->setName(QString::fromStdString(c.name));
        g->setLineStyle(QCPGraph::lsStepLeft);
        QPen pen(kLineColors[i % std::size(kLineColors)]);
        pen.setWidthF(2);
        g->setPen(pen);
        QVector<double> x, y;
        // Before its first correct kernel a search has no best: the line starts there.
        for (std::size_t k = 0; k < c.evals.size(); ++k)
            if (c.best[k] > 0) {
                x.push_back(c.evals[k]);
                y.push_back(c.best[k]);
            }
        g->setData(x, y, true);
        if (!c.evals.empty()) longest = std::max(longest, c.evals.back());
        if (!y.isEmpty()) {
            top = std::max(top, y.back());
            low = std::min(low, y.front());
        }
    }
    // The reference's speed, where a search starts to pay.
    auto* one = new QCPItemStraightLine(this);
    one->point1->setCoords(0, 1);
    one->point2->setCoords(1, 1);
    one->setPen(QPen(palette().color(QPalette::Mid), 1, Qt::DashLine));
    xAxis->setRange(0, longest + 1);
    // From just below the lowest first best (or 1×) to just above the highest:
    // searches that differ by a few percent stay apart.
    const double margin = std::max(0.02, (top - low) * 0.1);
    yAxis->setRange(std::max(0.0, low - margin), top + margin);
    replot();
}

QStringList ProgressOverlayPlot::legendNames() const {
    QStringList names;
    for (int i = 0; i < graphCount(); ++i) names << graph(i)->name();
    return names;
}

} // namespace kw::ui
