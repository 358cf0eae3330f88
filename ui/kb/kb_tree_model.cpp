#include "kb/kb_tree_model.h"

#include <QtGui/QFont>
#include <QtGui/QPalette>

#include <map>

namespace kw::ui {

KbTreeModel::KbTreeModel(QObject* parent) : QStandardItemModel(parent) {
    setHorizontalHeaderLabels({tr("Document")});
}

void KbTreeModel::setDocuments(const std::vector<kb::KbDocument>& docs,
                               const std::function<bool(const kb::KbDocument&)>& writable) {
    clear();
    setHorizontalHeaderLabels({tr("Document")});
    std::map<QString, QStandardItem*> groups; // "category" or "category/platform"
    auto group = [&](const QString& key, const QString& label, QStandardItem* parent) {
        auto& item = groups[key];
        if (!item) {
            item = new QStandardItem(label);
            item->setEditable(false);
            QFont bold = item->font();
            bold.setBold(true);
            item->setFont(bold);
            parent->appendRow(item);
        }
        return item;
    };
    // Categories in the format's order, so the tree reads like docs/kb-format.md.
    for (const auto& c : kb::knownCategories()) group(QString::fromStdString(c), QString::fromStdString(c), invisibleRootItem());
    for (const auto& d : docs) {
        const QString category = QString::fromStdString(d.category);
        QStandardItem* parent = group(category, category, invisibleRootItem());
        if (d.category == "hardware") {
            const QString platform = QString::fromStdString(d.platforms.empty() ? std::string("any") : d.platforms.front());
            parent = group(category + QLatin1Char('/') + platform, platform, parent);
        }
        QString label = QString::fromStdString(d.title);
        if (d.category == "skills") label += QStringLiteral("  [%1]").arg(QString::fromStdString(d.status));
        auto* item = new QStandardItem(label);
        item->setEditable(false);
        item->setData(QString::fromStdString(d.id), IdRole);
        item->setData(QString::fromStdString(d.path), PathRole);
        const bool canWrite = writable(d);
        item->setData(canWrite, WritableRole);
        item->setToolTip(QStringLiteral("%1\n%2%3")
                             .arg(QString::fromStdString(d.id), QString::fromStdString(d.path),
                                  canWrite ? QString() : tr("\n(shipped: read-only)")));
        if (!canWrite) item->setForeground(QPalette().color(QPalette::Disabled, QPalette::Text));
        parent->appendRow(item);
    }
    for (auto& [key, item] : groups) item->setText(QStringLiteral("%1 (%2)").arg(item->text()).arg(item->rowCount()));
}

QModelIndex KbTreeModel::indexOfId(const QString& id) const {
    const auto hits = match(index(0, 0), IdRole, id, 1, Qt::MatchExactly | Qt::MatchRecursive);
    return hits.isEmpty() ? QModelIndex() : hits.front();
}

} // namespace kw::ui
