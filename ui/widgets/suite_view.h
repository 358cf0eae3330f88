#pragma once
// A suite in the workbench: its problems in a table (status, speedups over
// eager and torch.compile, the search where a run made one), the run's
// KernelBench summary above it, and the run mode to show; sortable by any
// column, filtered by name and to the failures and outliers. The run files
// are read on demand (Reload); a row opens the problem's search.
#include "suite/suite.h"

#include <QtWidgets/QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;

namespace kw::ui {

class SuiteFilterProxy;
class SuiteTableModel;

class SuiteView : public QWidget {
    Q_OBJECT
  public:
    explicit SuiteView(suite::Suite suite, QWidget* parent = nullptr);

    const suite::Suite& suite() const { return suite_; }
    SuiteTableModel* model() const { return model_; }
    void showMode(suite::Mode mode);
    void reload();

  signals:
    // A row was activated: the problem's folder name and the run's search (0 when the run made none).
    void problemActivated(const QString& problem, qint64 searchId);

  private:
    void showCount();            // "N of M shown" beside the filter
    QString notImported() const; // the summary's line for suite.json's not_imported ("" when none)

    suite::Suite suite_;
    suite::Mode mode_ = suite::Mode::Reference;
    QComboBox* modeBox_ = nullptr;
    QLabel* summary_ = nullptr;
    QLineEdit* filterEdit_ = nullptr;
    QCheckBox* toLookBox_ = nullptr;
    QLabel* shownLabel_ = nullptr;
    QTableView* table_ = nullptr;
    SuiteTableModel* model_ = nullptr;
    SuiteFilterProxy* proxy_ = nullptr;
};

} // namespace kw::ui
