#pragma once
// Every node of a search as a table (the Tree view's other face): sortable
// by any column on its raw value, filtered by outcome, minimum speedup and a
// text that must appear in the params, origin or kernel name.
#include "models/row_table_model.h"
#include "tree/tree_snapshot.h"

#include <QtCore/QSortFilterProxyModel>

#include <optional>
#include <set>

namespace kw::ui {

class NodeTableModel : public RowTableModel<NodeSnapshot> {
    Q_OBJECT
  public:
    enum Column { Id, Parent, Status, Speedup, Origin, Kernel, Params, Created, ColumnCount };
    static constexpr int SortRole = Qt::UserRole; // numbers sort as numbers

    explicit NodeTableModel(QObject* parent = nullptr);

  protected:
    QVariant cell(const NodeSnapshot& n, int column, int role) const override;
};

struct NodeTableFilter {
    std::set<int> glyphs;  // shown outcomes (NodeGlyph values); empty: all
    double minSpeedup = 0; // correct nodes below it are hidden; 0: no limit
    QString text;          // in params, origin or kernel (case-insensitive); empty: any
};

class NodeFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
  public:
    explicit NodeFilterProxy(QObject* parent = nullptr);
    void setNodeFilter(NodeTableFilter filter);
    const NodeTableFilter& nodeFilter() const { return filter_; }

  protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

  private:
    NodeTableFilter filter_;
};

} // namespace kw::ui
