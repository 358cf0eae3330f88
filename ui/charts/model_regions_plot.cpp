#include "charts/model_regions_plot.h"

#include <algorithm>

namespace kw::ui {
namespace {

constexpr int kMostRegions = 12;

} // namespace

ModelRegionsPlot::ModelRegionsPlot(QWidget* parent) : ThemedPlot(parent) {
    setMinimumHeight(160);
    yAxis->setRangeReversed(true); // the costliest on top
    legend->setVisible(true);
    // Bottom right: the costliest regions, on top, have the longest bars.
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    followPalette(*this);
}

void ModelRegionsPlot::showFolder(const model::ModelFolder& folder) {
    clearPlottables();
    regions_ = 0;
    after_ = false;
    struct Bar {
        std::string name;
        double before = 0, after = -1;
    };
    std::vector<Bar> bars;
    if (folder.ab && !folder.ab->regions.empty()) {
        for (const auto& r : folder.ab->regions) bars.push_back({r.name, r.beforeSeconds, r.afterSeconds});
        after_ = true;
    } else {
        for (const auto& r : folder.extract.regions) bars.push_back({r.name, r.seconds, -1});
    }
    std::stable_sort(bars.begin(), bars.end(), [](const Bar& a, const Bar& b) { return a.before > b.before; });
    if (bars.size() > kMostRegions) bars.resize(kMostRegions);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    QVector<double> keysBefore, before, keysAfter, after;
    double longest = 0;
    for (std::size_t i = 0; i < bars.size(); ++i) {
        ticker->addTick(static_cast<double>(i), QString::fromStdString(bars[i].name));
        keysBefore << static_cast<double>(i) - (after_ ? 0.18 : 0);
        before << 1e3 * bars[i].before;
        longest = std::max(longest, 1e3 * bars[i].before);
        if (after_) {
            keysAfter << static_cast<double>(i) + 0.18;
            after << 1e3 * bars[i].after;
            longest = std::max(longest, 1e3 * bars[i].after);
        }
    }
    const QColor muted = palette().color(QPalette::Mid);
    auto* b = new QCPBars(yAxis, xAxis);
    b->setName(after_ ? tr("original model") : tr("profile"));
    b->setData(keysBefore, before);
    b->setWidth(after_ ? 0.34 : 0.6);
    b->setBrush(muted);
    b->setPen(QPen(muted.darker(130)));
    if (after_) {
        const QColor colour = palette().color(QPalette::Highlight);
        auto* a = new QCPBars(yAxis, xAxis);
        a->setName(tr("kernels in place"));
        a->setData(keysAfter, after);
        a->setWidth(0.34);
        a->setBrush(colour);
        a->setPen(QPen(colour.darker(130)));
    }
    yAxis->setTicker(ticker);
    yAxis->setRange(-0.6, static_cast<double>(bars.size()) - 0.4);
    xAxis->setRange(0, std::max(longest, 1e-3) * 1.1);
    xAxis->setLabel(tr("ms a step, each region's forward (synchronised)"));
    setMinimumHeight(70 + 26 * static_cast<int>(bars.size()));
    regions_ = static_cast<int>(bars.size());
    replot();
}

} // namespace kw::ui
