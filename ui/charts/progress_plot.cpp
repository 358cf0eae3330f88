#include "charts/progress_plot.h"

#include "charts/plot_theme.h"
#include "tree/tree_canvas.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace kw::ui {
namespace {

constexpr int kThroughputBins = 30;

QDateTime parseUtc(const std::string& text) {
    auto t = QDateTime::fromString(QString::fromStdString(text), Qt::ISODateWithMs);
    t.setTimeSpec(Qt::UTC);
    return t;
}

void setRange(QCPAxisRect* rect, double xMax, double yMax) {
    rect->axis(QCPAxis::atBottom)->setRange(0, xMax);
    rect->axis(QCPAxis::atLeft)->setRange(0, yMax);
}

} // namespace

ProgressPlot::ProgressPlot(QWidget* parent) : ThemedPlot(parent) {
    setMinimumHeight(320);
    // Two rows of panels: the search's result (best speedup by evaluations and
    // by time) above, its running costs (throughput, statuses, LLM spend) below.
    plotLayout()->clear();
    auto* top = new QCPLayoutGrid;
    auto* bottom = new QCPLayoutGrid;
    plotLayout()->addElement(0, 0, top);
    plotLayout()->addElement(1, 0, bottom);
    byEval_ = addPanel(top, 0, tr("evaluations"), tr("best speedup"));
    byTime_ = addPanel(top, 1, tr("minutes"), tr("best speedup"));
    throughput_ = addPanel(bottom, 0, tr("minutes"), tr("evaluations / min"));
    statuses_ = addPanel(bottom, 1, QString(), tr("nodes"));
    bottom_ = bottom;
}

QCPAxisRect* ProgressPlot::addPanel(QCPLayoutGrid* row, int column, const QString& x, const QString& y) {
    auto* rect = new QCPAxisRect(this);
    row->addElement(0, column, rect);
    rect->axis(QCPAxis::atBottom)->setLabel(x);
    rect->axis(QCPAxis::atBottom)->ticker()->setTickCount(2); // the panels are narrow: fewer labels that do not collide
    rect->axis(QCPAxis::atLeft)->setLabel(y);
    return rect;
}

void ProgressPlot::setSteeringMarks(std::vector<SteeringMark> marks) {
    marks_ = std::move(marks);
    const auto nodes = lastNodes_;
    const auto spend = lastSpend_;
    showProgress(nodes, spend);
}

void ProgressPlot::showProgress(const std::vector<NodeSnapshot>& all, const std::vector<store::LlmSpendPoint>& spend) {
    if (&all != &lastNodes_) lastNodes_ = all;
    if (&spend != &lastSpend_) lastSpend_ = spend;
    clearGraphs();
    clearPlottables();
    clearItems();
    followPalette(*this);
    series_ = {};
    // Evaluations in the order they finished: that is the search's progress.
    auto doneAt = [](const NodeSnapshot& n) { return n.finishedAt.isValid() ? n.finishedAt : n.createdAt; };
    std::vector<const NodeSnapshot*> done;
    for (const auto& n : all)
        if (n.glyph != NodeGlyph::Pending && n.glyph != NodeGlyph::Running) done.push_back(&n);
    std::sort(done.begin(), done.end(), [&](const NodeSnapshot* a, const NodeSnapshot* b) {
        const auto ta = doneAt(*a), tb = doneAt(*b);
        return ta != tb ? ta < tb : a->id < b->id;
    });

    // The clock starts with the search: its first node, or its first LLM call when that came before.
    QDateTime start;
    for (const auto& n : all)
        if (n.createdAt.isValid() && (!start.isValid() || n.createdAt < start)) start = n.createdAt;
    if (!spend.empty())
        if (auto t = parseUtc(spend.front().createdAt); t.isValid() && (!start.isValid() || t < start)) start = t;

    auto& s = series_;
    double best = 0;
    for (std::size_t i = 0; i < done.size(); ++i) {
        best = std::max(best, done[i]->speedup);
        s.evals.push_back(static_cast<double>(i + 1));
        if (done[i]->glyph == NodeGlyph::Correct) {
            s.correctEvals.push_back(static_cast<double>(i + 1));
            s.correctSpeedups.push_back(done[i]->speedup);
        }
        s.bestByEval.push_back(best);
        if (const auto t = doneAt(*done[i]); t.isValid()) {
            s.minutes.push_back(start.msecsTo(t) / 60000.0);
            s.bestByTime.push_back(best);
        }
    }
    std::vector<double> costMinutes;
    for (const auto& p : spend)
        if (const auto t = parseUtc(p.createdAt); t.isValid()) costMinutes.push_back(start.msecsTo(t) / 60000.0);
    double span = s.minutes.isEmpty() ? 0 : s.minutes.back();
    if (!costMinutes.empty()) span = std::max(span, costMinutes.back());

    // Short searches read in seconds, long ones in hours; the series keep minutes.
    const double unit = span < 2 ? 1.0 / 60 : span > 180 ? 60 : 1;
    const QString unitName = span < 2 ? tr("seconds") : span > 180 ? tr("hours") : tr("minutes");
    auto scaled = [unit](const QVector<double>& minutes) {
        QVector<double> out;
        out.reserve(minutes.size());
        for (double m : minutes) out.push_back(m / unit);
        return out;
    };
    const double axisMax = std::max(span, 1.0 / 6) / unit;
    // A search without language-model calls has no cost panel: the room goes to the others.
    if (!spend.empty() && !cost_) {
        cost_ = addPanel(bottom_, 2, QString(), tr("LLM cost (USD)"));
        cost_->axis(QCPAxis::atRight)->setVisible(true);
        cost_->axis(QCPAxis::atRight)->setLabel(tr("tokens"));
        followPalette(*this);
    }
    bottom_->setColumnStretchFactors(cost_ ? QList<double>{1.4, 0.8, 1.4} : QList<double>{1.6, 1.0});
    for (auto* rect : {byTime_, throughput_, cost_})
        if (rect) rect->axis(QCPAxis::atBottom)->setLabel(unitName);

    auto line = [this](QCPAxisRect* rect, const QVector<double>& x, const QVector<double>& y, QColor colour,
                       QCPAxis* valueAxis = nullptr) {
        auto* g = addGraph(rect->axis(QCPAxis::atBottom), valueAxis ? valueAxis : rect->axis(QCPAxis::atLeft));
        g->setLineStyle(QCPGraph::lsStepLeft);
        g->setPen(QPen(colour, 2));
        g->setData(x, y, true);
        return g;
    };
    const double top = std::max(1.0, best) * 1.1;
    // Every correct evaluation as a dot under the best-so-far line: where the search spent its tries.
    auto* tries = addGraph(byEval_->axis(QCPAxis::atBottom), byEval_->axis(QCPAxis::atLeft));
    tries->setLineStyle(QCPGraph::lsNone);
    tries->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(0x1e, 0x88, 0xe5, 110), 5));
    tries->setData(s.correctEvals, s.correctSpeedups, true);
    line(byEval_, s.evals, s.bestByEval, QColor(0x1e, 0x88, 0xe5));
    setRange(byEval_, std::max(1.0, static_cast<double>(s.evals.size())), top);
    line(byTime_, scaled(s.minutes), s.bestByTime, QColor(0x43, 0xa0, 0x47));
    setRange(byTime_, axisMax, top);
    std::vector<QDateTime> finished;
    for (const auto* n : done) finished.push_back(doneAt(*n));
    markSteering(start, finished, unit, top);

    // Throughput: finished evaluations per minute in equal bins over the run,
    // a few evaluations to a bin at least, so that a short run is not all spikes.
    const int bins = std::clamp(static_cast<int>(s.minutes.size()) / 3, 1, kThroughputBins);
    s.binWidth = std::max(span, 1.0 / 6) / bins;
    QVector<double> counts(bins, 0);
    for (double m : s.minutes) counts[std::clamp(static_cast<int>(m / s.binWidth), 0, bins - 1)] += 1;
    double peak = 0;
    for (int b = 0; b < bins; ++b) {
        s.binStart.push_back(b * s.binWidth);
        s.perMinute.push_back(counts[b] / s.binWidth);
        peak = std::max(peak, s.perMinute.back());
    }
    auto* rate = new QCPBars(throughput_->axis(QCPAxis::atBottom), throughput_->axis(QCPAxis::atLeft));
    QVector<double> centres;
    for (double b : s.binStart) centres.push_back((b + s.binWidth / 2) / unit);
    rate->setWidth(s.binWidth / unit * 0.9);
    rate->setPen(Qt::NoPen);
    rate->setBrush(QColor(0x8e, 0x24, 0xaa));
    rate->setData(centres, s.perMinute, true);
    setRange(throughput_, axisMax, std::max(1.0, peak * 1.15));

    showStatuses(all);

    // LLM spending, cumulative: dollars on the left axis, tokens on the right.
    double cost = 0, tokens = 0;
    std::size_t k = 0;
    for (const auto& p : spend) {
        if (!parseUtc(p.createdAt).isValid()) continue;
        cost += p.costUsd;
        tokens += static_cast<double>(p.tokens);
        s.costMinutes.push_back(costMinutes[k++]);
        s.cumulativeCost.push_back(cost);
        s.cumulativeTokens.push_back(tokens);
    }
    if (!cost_) {
        replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    line(cost_, scaled(s.costMinutes), s.cumulativeCost, QColor(0xef, 0x6c, 0x00));
    auto* tok = line(cost_, scaled(s.costMinutes), s.cumulativeTokens, QColor(0x6d, 0x4c, 0x41), cost_->axis(QCPAxis::atRight));
    tok->setPen(QPen(QColor(0x8d, 0x6e, 0x63), 1.5, Qt::DashLine));
    setRange(cost_, axisMax, std::max(0.01, cost * 1.15));
    cost_->axis(QCPAxis::atRight)->setRange(0, std::max(1000.0, tokens * 1.15));
    replot(QCustomPlot::rpQueuedReplot);
}

// A dashed line and a label for each steering mark, on the best-by-time panel
// at its time and on the best-by-evaluation panel after the evaluations that
// had finished by then. Marks before the search's first node are at 0.
void ProgressPlot::markSteering(const QDateTime& start, const std::vector<QDateTime>& finished, double unit, double top) {
    auto& s = series_;
    const QColor colour(0xc6, 0x28, 0x28);
    int shown = 0;
    for (const auto& mark : marks_) {
        if (!mark.appliedAt.isValid()) continue;
        // Labels step down the panel so that commands applied together stay readable.
        const double labelY = top * (0.97 - 0.07 * (shown++ % 5));
        const double minutes = start.isValid() ? std::max(0.0, start.msecsTo(mark.appliedAt) / 60000.0) : 0.0;
        const double evals = static_cast<double>(std::count_if(
            finished.begin(), finished.end(), [&](const QDateTime& t) { return t.isValid() && t <= mark.appliedAt; }));
        s.steeringMinutes.push_back(minutes);
        s.steeringEvals.push_back(evals);
        s.steeringLabels << mark.label;
        for (auto [rect, x] : {std::pair{byTime_, minutes / unit}, std::pair{byEval_, evals + 0.5}}) {
            auto* line = new QCPItemStraightLine(this);
            line->setClipAxisRect(rect);
            line->point1->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
            line->point2->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
            line->point1->setCoords(x, 0);
            line->point2->setCoords(x, 1);
            line->setPen(QPen(colour, 1, Qt::DashLine));
            auto* text = new QCPItemText(this);
            text->setClipAxisRect(rect);
            text->setClipToAxisRect(true);
            text->position->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
            text->position->setCoords(x, labelY);
            text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
            text->setText(QStringLiteral(" ") + mark.label);
            text->setColor(colour);
            QFont small = font();
            small.setPointSizeF(small.pointSizeF() * 0.85);
            text->setFont(small);
        }
    }
}

void ProgressPlot::showStatuses(const std::vector<NodeSnapshot>& nodes) {
    std::map<NodeGlyph, int> counts;
    for (const auto& n : nodes) ++counts[n.glyph];
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    int x = 0, most = 0;
    for (const auto& [glyph, count] : counts) {
        ++x;
        auto* bar = new QCPBars(statuses_->axis(QCPAxis::atBottom), statuses_->axis(QCPAxis::atLeft));
        bar->setWidth(0.7);
        bar->setPen(Qt::NoPen);
        bar->setBrush(glyph == NodeGlyph::Correct ? QColor(0x2e, 0x7d, 0x32) : TreeCanvas::glyphColor(glyph));
        bar->addData(x, count);
        ticker->addTick(x, glyphLabel(glyph));
        most = std::max(most, count);
    }
    statuses_->axis(QCPAxis::atBottom)->setTicker(ticker);
    statuses_->axis(QCPAxis::atBottom)->setTickLabelRotation(counts.size() > 3 ? 30 : 0);
    statuses_->axis(QCPAxis::atBottom)->setSubTicks(false);
    statuses_->axis(QCPAxis::atBottom)->setRange(0.4, std::max(1, x) + 0.6);
    statuses_->axis(QCPAxis::atLeft)->setRange(0, std::max(1.0, most * 1.15));
}

} // namespace kw::ui
