#include "charts/breakdown_plot.h"

#include <algorithm>

namespace kw::ui {
namespace {

constexpr int kMostBars = 8; // the rest are summed into one bar
constexpr int kNameChars = 48;

} // namespace

BreakdownPlot::BreakdownPlot(QWidget* parent) : ThemedPlot(parent) {
    setMinimumHeight(140);
    xAxis->setLabel(tr("device time of one call (us)"));
    yAxis->setRangeReversed(true); // the longest on top
    followPalette(*this);
}

bool BreakdownPlot::showBreakdown(const inspect::ProfileSummary& p) {
    clearPlottables();
    bars_ = 0;
    if (!p.breakdown || p.breakdown->entries.empty()) {
        replot();
        return false;
    }
    const auto& b = *p.breakdown;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    QVector<double> keys, values;
    const int shown = std::min<int>(kMostBars, static_cast<int>(b.entries.size()));
    double rest = 0;
    for (std::size_t i = static_cast<std::size_t>(shown); i < b.entries.size(); ++i) rest += b.entries[i].us;
    for (int i = 0; i < shown; ++i) {
        const auto& k = b.entries[static_cast<std::size_t>(i)];
        QString name = QString::fromStdString(k.name);
        if (name.size() > kNameChars) name = name.left(kNameChars - 1) + QChar(0x2026);
        if (k.kind != "kernel") name += QStringLiteral(" [%1]").arg(QString::fromStdString(k.kind));
        if (k.calls > 1) name += QStringLiteral(" x%1").arg(k.calls);
        ticker->addTick(i, name);
        keys << i;
        values << k.us;
    }
    if (rest > 0) {
        ticker->addTick(shown, tr("%1 more").arg(b.entries.size() - static_cast<std::size_t>(shown)));
        keys << shown;
        values << rest;
    }
    const double longest = std::max(b.entries.front().us, rest); // entries come longest first
    auto* bars = new QCPBars(yAxis, xAxis);
    bars->setData(keys, values);
    bars->setWidth(0.7);
    const QColor colour = palette().color(QPalette::Highlight);
    bars->setBrush(colour);
    bars->setPen(QPen(colour.darker(130)));
    yAxis->setTicker(ticker);
    yAxis->setRange(-0.6, static_cast<double>(keys.size()) - 0.4);
    xAxis->setRange(0, longest * 1.1);
    xAxis->setLabel(tr("us on the device, one call: %1 launches, %2 us").arg(b.launches).arg(b.deviceUs, 0, 'f', 0));
    setMinimumHeight(60 + 22 * static_cast<int>(keys.size()));
    bars_ = static_cast<int>(keys.size());
    replot();
    return true;
}

} // namespace kw::ui
