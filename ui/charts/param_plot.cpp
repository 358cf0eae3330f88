#include "charts/param_plot.h"

#include "charts/plot_theme.h"
#include "tree/tree_canvas.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace kw::ui {
namespace {

// At most this many lines: the fastest nodes, so that a long search stays quick to draw.
constexpr std::size_t kMaxLines = 400;

std::map<std::string, std::string> paramsOf(const QString& json) {
    std::map<std::string, std::string> out;
    const auto j = nlohmann::json::parse(json.toStdString(), nullptr, false);
    if (j.is_object())
        for (auto it = j.begin(); it != j.end(); ++it) out[it.key()] = it->is_string() ? it->get<std::string>() : it->dump();
    return out;
}

} // namespace

ParamPlot::ParamPlot(QWidget* parent) : ThemedPlot(parent) {
    setMinimumHeight(320);
    plotLayout()->clear();
    paramAxes_ = new QCPAxisRect(this);
    bars_ = new QCPAxisRect(this);
    plotLayout()->addElement(0, 0, paramAxes_);
    plotLayout()->addElement(1, 0, bars_);
    plotLayout()->setRowStretchFactors({1.6, 1.0});
    paramAxes_->axis(QCPAxis::atLeft)->setLabel(tr("value (in order)"));
    paramAxes_->axis(QCPAxis::atLeft)->setTickLabels(false);
    // Horizontal bars, the names on the left, the most important on top.
    bars_->axis(QCPAxis::atBottom)->setLabel(tr("importance (share of the speedup's variance)"));
    bars_->axis(QCPAxis::atBottom)->setRange(0, 1);
    followPalette(*this);
}

void ParamPlot::showParams(const std::vector<NodeSnapshot>& nodes) {
    nodes_ = nodes;
    redraw();
}

void ParamPlot::toggleBrush(const std::string& param, const std::string& value) {
    const auto axis = std::find_if(importance_.begin(), importance_.end(), [&](const auto& a) { return a.name == param; });
    if (axis == importance_.end() || std::find(axis->values.begin(), axis->values.end(), value) == axis->values.end()) return;
    const auto it = brush_.find(param);
    if (it != brush_.end() && it->second == value)
        brush_.erase(it);
    else
        brush_[param] = value;
    redraw();
    emit brushChanged(brushFilter());
}

void ParamPlot::clearBrush() {
    if (brush_.empty()) return;
    brush_.clear();
    redraw();
    emit brushChanged({});
}

QString ParamPlot::brushFilter() const {
    QStringList terms;
    for (const auto& [name, value] : brush_)
        terms << QStringLiteral("%1=%2").arg(QString::fromStdString(name), QString::fromStdString(value));
    return terms.join(QLatin1Char(' '));
}

// A click near an axis picks the value nearest to it; anywhere else clears the brush.
void ParamPlot::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && paramAxes_->rect().contains(event->pos()) && !importance_.empty()) {
        const double x = paramAxes_->axis(QCPAxis::atBottom)->pixelToCoord(event->position().x());
        const double y = paramAxes_->axis(QCPAxis::atLeft)->pixelToCoord(event->position().y());
        const long a = std::lround(x);
        if (a >= 0 && a < static_cast<long>(importance_.size()) && std::abs(x - static_cast<double>(a)) < 0.25) {
            const auto& values = importance_[static_cast<std::size_t>(a)].values;
            const long v = values.size() > 1 ? std::lround(y * static_cast<double>(values.size() - 1)) : 0;
            if (v >= 0 && v < static_cast<long>(values.size())) {
                toggleBrush(importance_[static_cast<std::size_t>(a)].name, values[static_cast<std::size_t>(v)]);
                event->accept();
                return;
            }
        }
        clearBrush();
    }
    ThemedPlot::mousePressEvent(event);
}

void ParamPlot::redraw() {
    const auto& nodes = nodes_;
    clearPlottables();
    followPalette(*this);
    std::vector<inspect::ParamSample> samples;
    std::vector<const NodeSnapshot*> correct;
    double best = 1;
    for (const auto& n : nodes)
        if (n.glyph == NodeGlyph::Correct && n.speedup > 0) {
            samples.push_back({paramsOf(n.params), n.speedup});
            correct.push_back(&n);
            best = std::max(best, n.speedup);
        }
    importance_ = inspect::paramImportance(samples);
    lines_ = 0;
    brushedLines_ = 0;
    // A brushed value the search no longer has (a param renamed) is dropped.
    for (auto it = brush_.begin(); it != brush_.end();) {
        const auto axis =
            std::find_if(importance_.begin(), importance_.end(), [&](const auto& a) { return a.name == it->first; });
        const bool known =
            axis != importance_.end() && std::find(axis->values.begin(), axis->values.end(), it->second) != axis->values.end();
        it = known ? std::next(it) : brush_.erase(it);
    }

    // Axes in order of importance, each param's values spread over 0..1.
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (std::size_t a = 0; a < importance_.size(); ++a)
        ticker->addTick(static_cast<double>(a), QString::fromStdString(importance_[a].name));
    paramAxes_->axis(QCPAxis::atBottom)->setTicker(ticker);
    paramAxes_->axis(QCPAxis::atBottom)->setRange(-0.3, std::max<double>(1, importance_.size()) - 0.7);
    paramAxes_->axis(QCPAxis::atLeft)->setRange(-0.08, 1.08);
    clearItems();
    // Each axis's values beside it (a few at most, so they stay readable).
    for (std::size_t a = 0; a < importance_.size(); ++a) {
        const auto& values = importance_[a].values;
        const std::size_t step = std::max<std::size_t>(1, values.size() / 6);
        const auto b = brush_.find(importance_[a].name);
        for (std::size_t v = 0; v < values.size(); ++v) {
            // A brushed value stands out (bold, on the highlight colour) and is always labelled.
            const bool isBrushed = b != brush_.end() && b->second == values[v];
            if (v % step != 0 && !isBrushed) continue;
            auto* label = new QCPItemText(this);
            label->setClipAxisRect(paramAxes_);
            label->position->setAxes(paramAxes_->axis(QCPAxis::atBottom), paramAxes_->axis(QCPAxis::atLeft));
            label->position->setCoords(static_cast<double>(a) + 0.04,
                                       values.size() > 1 ? static_cast<double>(v) / (values.size() - 1) : 0.5);
            label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
            label->setText(QString::fromStdString(values[v]));
            label->setColor(palette().color(QPalette::Text));
            QFont f = font();
            f.setPointSizeF(f.pointSizeF() * 0.8);
            if (isBrushed) {
                f.setBold(true);
                label->setColor(palette().color(QPalette::HighlightedText));
                label->setBrush(palette().color(QPalette::Highlight));
            }
            label->setFont(f);
        }
    }
    std::vector<std::size_t> order(correct.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    // Slowest first, so the fastest are drawn on top.
    std::sort(order.begin(), order.end(),
              [&](std::size_t x, std::size_t y) { return correct[x]->speedup < correct[y]->speedup; });
    if (order.size() > kMaxLines) order.erase(order.begin(), order.end() - static_cast<std::ptrdiff_t>(kMaxLines));
    const auto brushed = [&](std::size_t i) {
        for (const auto& [name, value] : brush_) {
            const auto it = samples[i].params.find(name);
            if (it == samples[i].params.end() || it->second != value) return false;
        }
        return true;
    };
    // Lines outside the brush first (faint), so the brushed ones are drawn over them.
    std::stable_partition(order.begin(), order.end(), [&](std::size_t i) { return !brushed(i); });
    if (importance_.size() >= 1)
        for (std::size_t i : order) {
            QVector<double> xs, ys;
            for (std::size_t a = 0; a < importance_.size(); ++a) {
                const auto& values = importance_[a].values;
                const auto it = samples[i].params.find(importance_[a].name);
                const std::string v = it == samples[i].params.end() ? std::string("(unset)") : it->second;
                const auto at = std::find(values.begin(), values.end(), v);
                xs.push_back(static_cast<double>(a));
                ys.push_back(values.size() > 1 ? static_cast<double>(at - values.begin()) / (values.size() - 1) : 0.5);
            }
            auto* curve = new QCPCurve(paramAxes_->axis(QCPAxis::atBottom), paramAxes_->axis(QCPAxis::atLeft));
            QColor c = TreeCanvas::speedupColor(correct[i]->speedup, best);
            c.setAlpha(170);
            if (!brush_.empty() && !brushed(i)) {
                c = palette().color(QPalette::Mid);
                c.setAlpha(50);
            } else if (!brush_.empty()) {
                ++brushedLines_;
            }
            curve->setPen(QPen(c, 1.5));
            curve->setData(xs, ys);
            ++lines_;
        }

    auto barTicker = QSharedPointer<QCPAxisTickerText>::create();
    auto* bars = new QCPBars(bars_->axis(QCPAxis::atLeft), bars_->axis(QCPAxis::atBottom));
    bars->setPen(Qt::NoPen);
    bars->setBrush(QColor(0x1e, 0x88, 0xe5));
    bars->setWidth(0.6);
    const double count = static_cast<double>(importance_.size());
    for (std::size_t a = 0; a < importance_.size(); ++a) {
        const double at = count - 1 - static_cast<double>(a);
        bars->addData(at, importance_[a].importance);
        barTicker->addTick(at, QString::fromStdString(importance_[a].name));
    }
    bars_->axis(QCPAxis::atLeft)->setTicker(barTicker);
    bars_->axis(QCPAxis::atLeft)->setRange(-0.6, std::max(1.0, count) - 0.4);
    replot(QCustomPlot::rpQueuedReplot);
}

} // namespace kw::ui
