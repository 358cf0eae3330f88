#pragma once
// Searches side by side (the Searches list's "Compare progress…"): their
// best-so-far lines on one plot and a table of where each stands. The
// curves are read on a thread of their own; the dialog shows them when they
// come, or why they could not be read.
#include "inspect/progress_curves.h"

#include <QtWidgets/QDialog>

#include <filesystem>
#include <vector>

class QLabel;
class QTableWidget;

namespace kw::ui {

class ProgressOverlayPlot;

class ProgressOverlayDialog : public QDialog {
    Q_OBJECT
  public:
    ProgressOverlayDialog(const std::filesystem::path& database, std::vector<qint64> searchIds, QWidget* parent = nullptr);
    ProgressOverlayPlot* plot() const { return plot_; }
    QTableWidget* table() const { return table_; }

  signals:
    void curvesShown(); // the curves are in (or the reason they are not)

  private:
    void showCurves(const std::vector<inspect::ProgressCurve>& curves, const QString& error);

    ProgressOverlayPlot* plot_ = nullptr;
    QTableWidget* table_ = nullptr;
    QLabel* note_ = nullptr;
};

} // namespace kw::ui
