#pragma once
// What the workbench remembers between runs, in QSettings under organization
// and application "Kernelwright". Named explicitly rather than taken from the
// QCoreApplication so that tests and tools read the same place as the app.
#include <QtCore/QByteArray>
#include <QtCore/QList>
#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtCore/QVariantMap>

namespace kw::ui::settings {

QString lastWorkspace(); // empty when none was remembered
void setLastWorkspace(const QString& path);

// Workspaces opened before, newest first (at most 8; files that are gone are left out).
QStringList recentWorkspaces();
void rememberWorkspace(const QString& path);

// The workspace to open at start: the one asked for on the command line, else
// the last one, else the default database under the XDG data dir.
QString initialWorkspace(const QString& requested);

struct WindowState {
    QByteArray geometry, state, splitter;
};
WindowState mainWindowState();
void setMainWindowState(const WindowState& windowState);

// The search tabs open in a workspace (by search id, in tab order) and the
// one in front (0: the problems), restored when the workspace opens again.
struct WorkspaceTabs {
    QList<qint64> searches;
    qint64 current = 0;
};
WorkspaceTabs workspaceTabs(const QString& workspace);
void setWorkspaceTabs(const QString& workspace, const WorkspaceTabs& tabs);

// The New Search dialog's last started choices (policy, synthesizer,
// models, budget, limits, where candidates run), by field name; empty
// before the first search.
QVariantMap newSearchChoices();
void setNewSearchChoices(const QVariantMap& choices);

} // namespace kw::ui::settings
