#pragma once
// A suite's problems in one run mode: each with its status, its speedups over
// eager and over torch.compile, and its search where the run made one.
// Problems the run has not reached show as "not run". Values handed over by
// the suite view; the model reads no file. Sortable on raw values (problem
// names in their numbers' order: kb_2 before kb_10), filtered by name and to
// the rows that need a look.
#include "suite/suite.h"

#include "models/row_table_model.h"

#include <QtCore/QSortFilterProxyModel>
#include <QtCore/QString>

#include <optional>
#include <vector>

namespace kw::ui {

struct SuiteRow {
    QString problem, status, message;
    std::optional<double> speedup, speedupCompile;
    std::optional<std::pair<double, double>> interval; // the speedup's 95 % interval, where the judge gave one
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
    static constexpr int SortRole = Qt::UserRole; // numbers sort as numbers, names in natural order

    explicit SuiteTableModel(QObject* parent = nullptr);
    bool referenceMode() const { return referenceMode_; }
    // Reference mode: the reference timed against itself, where a judge that
    // measures the same code twice alike reads 1.00; rows outside 1.00 +- 0.03
    // are marked. Takes effect with the next setRows.
    void setReferenceMode(bool on) { referenceMode_ = on; }

  protected:
    QVariant cell(const SuiteRow& row, int column, int role) const override;

  private:
    bool referenceMode_ = false;
};

// A name's key for sorting with its numbers as numbers: each run of digits
// zero-padded ("kb_2_relu" -> "kb_0000000002_relu").
QString naturalSortKey(const QString& name);

// In reference mode, a reference that read more than 3 % off itself.
bool readOffItself(const SuiteRow& row, bool referenceMode);

// A row that needs a look: a failure, or a reference read off itself. Rows
// not run yet do not.
bool needsALook(const SuiteRow& row, bool referenceMode);

struct SuiteTableFilter {
    QString text;            // in the problem's name (case-insensitive); empty: any
    bool onlyToLook = false; // only the rows that need a look
};

class SuiteFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
  public:
    explicit SuiteFilterProxy(QObject* parent = nullptr);
    void setSuiteFilter(SuiteTableFilter filter);
    const SuiteTableFilter& suiteFilter() const { return filter_; }

  protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

  private:
    SuiteTableFilter filter_;
};

} // namespace kw::ui
