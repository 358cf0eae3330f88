#pragma once
// A model's pipeline folder in the workbench (the Model tab): the regions
// extract took (share of the step, the problem each became, matched by
// behaviour or its own), each region's search and whether its kernel went
// into the model and passed the check, the regions before and after as
// bars, and the A/B result with its intervals. The folder's files are read
// on demand (Reload) into one value (model::readModelFolder); a region's
// row opens its search.
#include "model/model_pipeline.h"

#include <QtWidgets/QWidget>

class QLabel;
class QTableWidget;

namespace kw::ui {

class ModelRegionsPlot;

class ModelView : public QWidget {
    Q_OBJECT
  public:
    explicit ModelView(model::ModelFolder folder, QWidget* parent = nullptr);

    const model::ModelFolder& folder() const { return folder_; }
    QTableWidget* regionsTable() const { return regions_; }
    QTableWidget* abTable() const { return ab_; }
    ModelRegionsPlot* plot() const { return plot_; }
    QString summary() const;
    // Reads the folder again (a step run from the CLI since).
    void reload();

  signals:
    // A region's row was activated: its problem and its search (0: none yet).
    void problemActivated(const QString& problem, qint64 searchId);

  private:
    void fill();

    model::ModelFolder folder_;
    QLabel* title_ = nullptr;
    QLabel* summary_ = nullptr;
    QTableWidget* regions_ = nullptr;
    QTableWidget* ab_ = nullptr;
    ModelRegionsPlot* plot_ = nullptr;
};

} // namespace kw::ui
