#pragma once
// A suite's problems in one run mode: each with its status, its speedups over
// eager and over torch.compile, and its search where the run made one.
// Problems the run has not reached show as "not run". Values handed over by
// the suite view; the model reads no file.
#include "suite/suite.h"

#include "models/row_table_model.h"

#include <QtCore/QString>

#include <optional>
#include <vector>

namespace ks::ui {

struct SuiteRow {
    QString problem, status, message;
    std::optional<double> speedup, speedupCompile;
    double wallS = 0;
    qint64 searchId = 0;
    bool ran = false;
};

// The rows of `suite` as the run `entries` left them, in the suite's order.
std::vector<SuiteRow> suiteRows(const suite::Suite& suite, const std::vector<suite::Entry>& entries);

class SuiteTableModel : public RowTableModel<SuiteRow> {
    Q_OBJECT
  public:
    enum Column { Problem, Status, VsEager, VsCompile, Wall, Search, ColumnCount };
    explicit SuiteTableModel(QObject* parent = nullptr);
    // Reference mode: the reference timed against itself, where a judge that
    // measures the same code twice alike reads 1.00; rows outside 1.00 +- 0.03
    // are marked. Takes effect with the next setRows.
    void setReferenceMode(bool on) { referenceMode_ = on; }

  protected:
    QVariant cell(const SuiteRow& row, int column, int role) const override;

  private:
    bool referenceMode_ = false;
};

} // namespace ks::ui
