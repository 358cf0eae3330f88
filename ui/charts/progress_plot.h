#pragma once
// A search's progress (QCustomPlot), from the node snapshots the view holds
// and the search's LLM spending: the best speedup so far against evaluations
// (in the order evaluations finished) and against wall time, throughput (evaluations per minute), the status
// breakdown, and the cumulative cost and tokens of language-model calls.
#include "store/llm_call_store.h"
#include "tree/tree_snapshot.h"

#include "charts/plot_theme.h"

#include <vector>

namespace kw::ui {

class ProgressPlot : public ThemedPlot {
    Q_OBJECT
  public:
    explicit ProgressPlot(QWidget* parent = nullptr);
    // nodes: every node of the search, in any order; spend: its LLM calls, oldest first.
    void showProgress(const std::vector<NodeSnapshot>& nodes, const std::vector<store::LlmSpendPoint>& spend = {});

    // What the panels show, for tests and the summary line.
    struct Series {
        QVector<double> evals, bestByEval, minutes, bestByTime;
        QVector<double> correctEvals, correctSpeedups; // every correct evaluation (the history scatter)
        QVector<double> binStart, perMinute;           // throughput bins (start in minutes, evaluations per minute)
        double binWidth = 1;
        QVector<double> costMinutes, cumulativeCost, cumulativeTokens;
    };
    const Series& series() const { return series_; }

  private:
    QCPAxisRect* addPanel(QCPLayoutGrid* row, int column, const QString& x, const QString& y);
    void showStatuses(const std::vector<NodeSnapshot>& nodes);

    QCPAxisRect* byEval_ = nullptr;
    QCPAxisRect* byTime_ = nullptr;
    QCPAxisRect* throughput_ = nullptr;
    QCPAxisRect* statuses_ = nullptr;
    QCPAxisRect* cost_ = nullptr;     // made when the first LLM call shows
    QCPLayoutGrid* bottom_ = nullptr; // throughput, statuses, and the cost while there is any
    Series series_;
};

} // namespace kw::ui
