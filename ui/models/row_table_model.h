#pragma once
// What the workbench's list models share: rows as values, replaced whole on
// the UI thread, and a fixed set of columns with their headers. A model says
// only how a row shows in a column (cell).
#include <QtCore/QAbstractTableModel>
#include <QtCore/QStringList>
#include <QtCore/QThread>

#include <vector>

namespace kw::ui {

template <typename Row> class RowTableModel : public QAbstractTableModel {
  public:
    explicit RowTableModel(QStringList headers, QObject* parent = nullptr)
        : QAbstractTableModel(parent), headers_(std::move(headers)) {}

    void setRows(std::vector<Row> rows) {
        Q_ASSERT(QThread::currentThread() == thread());
        beginResetModel();
        rows_ = std::move(rows);
        rowsReplaced();
        endResetModel();
    }
    const Row& rowAt(int row) const {
        Q_ASSERT(row >= 0 && static_cast<std::size_t>(row) < rows_.size());
        return rows_[static_cast<std::size_t>(row)];
    }
    const std::vector<Row>& rows() const { return rows_; }
    // The row whose id is `id`, -1 when absent (for rows that carry an id).
    int rowOf(qint64 id) const requires requires(const Row& r) { r.id; }
    {
        for (std::size_t i = 0; i < rows_.size(); ++i)
            if (rows_[i].id == id) return static_cast<int>(i);
        return -1;
    }

    int rowCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : static_cast<int>(rows_.size()); }
    int columnCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : static_cast<int>(headers_.size());
    }
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override {
        if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
        return cell(rows_[static_cast<std::size_t>(index.row())], index.column(), role);
    }
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override {
        if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= headers_.size()) return {};
        return headers_[section];
    }

  protected:
    // Called inside the reset, once the new rows are in: a model whose columns
    // depend on its rows (one a tunable parameter) works them out here.
    virtual void rowsReplaced() {}
    // What row `row` shows in `column` for `role` (display, alignment, tool tip).
    virtual QVariant cell(const Row& row, int column, int role) const = 0;

  private:
    QStringList headers_;
    std::vector<Row> rows_;
};

} // namespace kw::ui
