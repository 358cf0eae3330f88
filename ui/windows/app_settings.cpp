#include "windows/app_settings.h"

#include "util/paths.h"

#include <QtCore/QCryptographicHash>
#include <QtCore/QFileInfo>
#include <QtCore/QSettings>

namespace kw::ui::settings {
namespace {

QSettings store() {
    return QSettings(QStringLiteral("Kernelwright"), QStringLiteral("Kernelwright"));
}

const QString kLastWorkspace = QStringLiteral("workspace/last");
const QString kRecentWorkspaces = QStringLiteral("workspace/recent");
const QString kGeometry = QStringLiteral("mainWindow/geometry");
const QString kState = QStringLiteral("mainWindow/state");
const QString kSplitter = QStringLiteral("mainWindow/splitter");

// One group per workspace, named by a hash of its absolute path: a path's
// slashes would otherwise nest groups.
QString workspaceKey(const QString& workspace) {
    const auto path = QFileInfo(workspace).absoluteFilePath().toUtf8();
    return QStringLiteral("workspaces/") +
           QString::fromLatin1(QCryptographicHash::hash(path, QCryptographicHash::Sha1).toHex().left(16));
}

} // namespace

QString lastWorkspace() {
    return store().value(kLastWorkspace).toString();
}

void setLastWorkspace(const QString& path) {
    store().setValue(kLastWorkspace, path);
}

QStringList recentWorkspaces() {
    QStringList out;
    for (const auto& path : store().value(kRecentWorkspaces).toStringList())
        if (QFileInfo::exists(path)) out << path;
    return out;
}

void rememberWorkspace(const QString& path) {
    QStringList list = store().value(kRecentWorkspaces).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > 8) list.removeLast();
    store().setValue(kRecentWorkspaces, list);
}

QString initialWorkspace(const QString& requested) {
    if (!requested.isEmpty()) return requested;
    if (auto last = lastWorkspace(); !last.isEmpty()) return last;
    return QString::fromStdString(paths::defaultDatabase().string());
}

WindowState mainWindowState() {
    auto s = store();
    return {s.value(kGeometry).toByteArray(), s.value(kState).toByteArray(), s.value(kSplitter).toByteArray()};
}

void setMainWindowState(const WindowState& windowState) {
    auto s = store();
    s.setValue(kGeometry, windowState.geometry);
    s.setValue(kState, windowState.state);
    s.setValue(kSplitter, windowState.splitter);
}

} // namespace kw::ui::settings

namespace kw::ui::settings {

WorkspaceTabs workspaceTabs(const QString& workspace) {
    auto s = store();
    s.beginGroup(workspaceKey(workspace));
    WorkspaceTabs tabs;
    for (const auto& v : s.value(QStringLiteral("searches")).toList()) tabs.searches.push_back(v.toLongLong());
    tabs.current = s.value(QStringLiteral("current"), 0).toLongLong();
    return tabs;
}

void setWorkspaceTabs(const QString& workspace, const WorkspaceTabs& tabs) {
    auto s = store();
    s.beginGroup(workspaceKey(workspace));
    QVariantList ids;
    for (qint64 id : tabs.searches) ids.push_back(id);
    s.setValue(QStringLiteral("path"), QFileInfo(workspace).absoluteFilePath()); // for a person reading the file
    s.setValue(QStringLiteral("searches"), ids);
    s.setValue(QStringLiteral("current"), tabs.current);
}

} // namespace kw::ui::settings

namespace kw::ui::settings {

QVariantMap newSearchChoices() {
    return store().value(QStringLiteral("newSearch/choices")).toMap();
}

void setNewSearchChoices(const QVariantMap& choices) {
    store().setValue(QStringLiteral("newSearch/choices"), choices);
}

} // namespace kw::ui::settings
