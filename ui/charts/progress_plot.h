#pragma once
// A search's progress (QCustomPlot), from the node snapshots the view holds
// and the search's LLM spending: the best speedup so far against evaluations
// (in the order evaluations finished) and against wall time, throughput (evaluations per minute), the status
// breakdown, and the cumulative cost and tokens of language-model calls. The
// steering commands a search applied (pause, prune, hint, budget...) are
// marked where they took effect, on both best-speedup panels.
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

    // A steering command where it took effect: when it was applied, and what it was ("pause", "prune #4").
    struct SteeringMark {
        QDateTime appliedAt;
        QString label;
    };
    // Marks drawn from now on (the last nodes and spend shown again with them).
    void setSteeringMarks(std::vector<SteeringMark> marks);

    // What the panels show, for tests and the summary line.
    struct Series {
        QVector<double> evals, bestByEval, minutes, bestByTime;
        QVector<double> correctEvals, correctSpeedups; // every correct evaluation (the history scatter)
        QVector<double> binStart, perMinute;           // throughput bins (start in minutes, evaluations per minute)
        double binWidth = 1;
        QVector<double> costMinutes, cumulativeCost, cumulativeTokens;
        // Each steering mark: minutes from the start, evaluations finished by then, its label.
        QVector<double> steeringMinutes, steeringEvals;
        QStringList steeringLabels;
    };
    const Series& series() const { return series_; }

  private:
    QCPAxisRect* addPanel(QCPLayoutGrid* row, int column, const QString& x, const QString& y);
    void showStatuses(const std::vector<NodeSnapshot>& nodes);
    void markSteering(const QDateTime& start, const std::vector<QDateTime>& finished, double unit, double top);

    QCPAxisRect* byEval_ = nullptr;
    QCPAxisRect* byTime_ = nullptr;
    QCPAxisRect* throughput_ = nullptr;
    QCPAxisRect* statuses_ = nullptr;
    QCPAxisRect* cost_ = nullptr;     // made when the first LLM call shows
    QCPLayoutGrid* bottom_ = nullptr; // throughput, statuses, and the cost while there is any
    Series series_;
    std::vector<SteeringMark> marks_;
    std::vector<NodeSnapshot> lastNodes_;
    std::vector<store::LlmSpendPoint> lastSpend_;
};

} // namespace kw::ui
