#pragma once
// The knowledge base's documents as a tree: category, then (for hardware)
// platform, then documents by title. A few hundred rows at most, so a
// QStandardItemModel is plenty; it is rebuilt whole from the index.
#include "kb/kb_document.h"

#include <QtGui/QStandardItemModel>

#include <functional>
#include <vector>

namespace kw::ui {

class KbTreeModel : public QStandardItemModel {
    Q_OBJECT
  public:
    enum Role { IdRole = Qt::UserRole + 1, PathRole, WritableRole };

    explicit KbTreeModel(QObject* parent = nullptr);

    // writable: whether a document's file may be changed here (shipped ones may not).
    void setDocuments(const std::vector<kb::KbDocument>& docs, const std::function<bool(const kb::KbDocument&)>& writable);
    // The document's row, or an invalid index.
    QModelIndex indexOfId(const QString& id) const;
};

} // namespace kw::ui
