#pragma once
// Every node of a search as a table (the Tree view's other face): sortable
// by any column on its raw value, one column per tunable parameter (the
// union over the search's nodes), filtered by outcome, minimum speedup and
// a text: NAME=value terms match a parameter exactly, other words must
// appear in the params, origin or kernel name.
#include "models/row_table_model.h"
#include "tree/tree_snapshot.h"

#include <QtCore/QHash>
#include <QtCore/QMap>
#include <QtCore/QSortFilterProxyModel>

#include <optional>
#include <set>

namespace kw::ui {

// A node's params (stored as a JSON object) as name -> value text; empty
// for a node without params or with text that is not such an object.
QMap<QString, QString> parseParams(const QString& paramsJson);
// "NAME=value NAME=value", in name order: how a user types them.
QString paramsText(const QMap<QString, QString>& params);

class NodeTableModel : public RowTableModel<NodeSnapshot> {
    Q_OBJECT
  public:
    // The fixed columns; the parameters' follow from ColumnCount on.
    enum Column { Id, Parent, Status, Speedup, Interval, Origin, Kernel, Params, Created, ColumnCount };
    static constexpr int SortRole = Qt::UserRole; // numbers sort as numbers

    explicit NodeTableModel(QObject* parent = nullptr);

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    const QStringList& paramNames() const { return paramNames_; }
    // Row `row`'s params, parsed once a refresh.
    const QMap<QString, QString>& paramsAt(int row) const { return params_[static_cast<std::size_t>(row)]; }

  protected:
    void rowsReplaced() override;
    QVariant cell(const NodeSnapshot& n, int column, int role) const override;

  private:
    QStringList paramNames_;
    std::vector<QMap<QString, QString>> params_; // by row
    QHash<qint64, int> rowById_;
};

struct NodeTableFilter {
    std::set<int> glyphs;  // shown outcomes (NodeGlyph values); empty: all
    double minSpeedup = 0; // correct nodes below it are hidden; 0: no limit
    QString text;          // NAME=value terms and words (case-insensitive); empty: any
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
    QList<QPair<QString, QString>> paramTerms_; // NAME=value
    QStringList words_;
};

} // namespace kw::ui
