#include "charts/progress_plot.h"

#include <algorithm>

namespace ks::ui {

ProgressPlot::ProgressPlot(QWidget* parent) : QCustomPlot(parent) {
    setMinimumHeight(200);
    // Two panels side by side: by evaluations (the default axis rect) and by time.
    byTime_ = new QCPAxisRect(this);
    plotLayout()->addElement(0, 1, byTime_);
    xAxis->setLabel(tr("evaluations"));
    yAxis->setLabel(tr("best speedup"));
    byTime_->axis(QCPAxis::atBottom)->setLabel(tr("minutes"));
    byTime_->axis(QCPAxis::atLeft)->setLabel(tr("best speedup"));
}

void ProgressPlot::showProgress(const std::vector<NodeSnapshot>& all) {
    clearGraphs();
    std::vector<const NodeSnapshot*> done;
    for (const auto& n : all)
        if (n.glyph != NodeGlyph::Pending && n.glyph != NodeGlyph::Running) done.push_back(&n);
    std::sort(done.begin(), done.end(), [](const NodeSnapshot* a, const NodeSnapshot* b) { return a->id < b->id; });
    QVector<double> evals, bestByEval, minutes, bestByTime;
    double best = 0;
    QDateTime start;
    for (std::size_t i = 0; i < done.size(); ++i) {
        best = std::max(best, done[i]->speedup);
        evals.push_back(static_cast<double>(i + 1));
        bestByEval.push_back(best);
        if (done[i]->createdAt.isValid()) {
            if (!start.isValid()) start = done[i]->createdAt;
            minutes.push_back(start.msecsTo(done[i]->createdAt) / 60000.0);
            bestByTime.push_back(best);
        }
    }
    auto* g = addGraph();
    g->setLineStyle(QCPGraph::lsStepLeft);
    g->setPen(QPen(QColor(0x1e, 0x88, 0xe5), 2));
    g->setData(evals, bestByEval, true);
    auto* t = addGraph(byTime_->axis(QCPAxis::atBottom), byTime_->axis(QCPAxis::atLeft));
    t->setLineStyle(QCPGraph::lsStepLeft);
    t->setPen(QPen(QColor(0x43, 0xa0, 0x47), 2));
    t->setData(minutes, bestByTime, true);
    const double top = std::max(1.0, best) * 1.1;
    xAxis->setRange(0, std::max(1.0, static_cast<double>(evals.size())));
    yAxis->setRange(0, top);
    byTime_->axis(QCPAxis::atBottom)->setRange(0, std::max(1.0 / 60, minutes.isEmpty() ? 1.0 : minutes.back()));
    byTime_->axis(QCPAxis::atLeft)->setRange(0, top);
    replot(QCustomPlot::rpQueuedReplot);
}

} // namespace ks::ui
