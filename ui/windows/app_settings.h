#pragma once
// What the workbench remembers between runs, in QSettings under organization
// and application "Kernelsmith". Named explicitly rather than taken from the
// QCoreApplication so that tests and tools read the same place as the app.
#include <QtCore/QByteArray>
#include <QtCore/QString>

namespace ks::ui::settings {

QString lastWorkspace(); // empty when none was remembered
void setLastWorkspace(const QString& path);

// The workspace to open at start: the one asked for on the command line, else
// the last one, else the default database under the XDG data dir.
QString initialWorkspace(const QString& requested);

struct WindowState {
    QByteArray geometry, state, splitter;
};
WindowState mainWindowState();
void setMainWindowState(const WindowState& windowState);

} // namespace ks::ui::settings
