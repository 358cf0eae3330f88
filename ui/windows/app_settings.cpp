#include "windows/app_settings.h"

#include "util/paths.h"

#include <QtCore/QSettings>

namespace ks::ui::settings {
namespace {

QSettings store() { return QSettings(QStringLiteral("Kernelsmith"), QStringLiteral("Kernelsmith")); }

const QString kLastWorkspace = QStringLiteral("workspace/last");
const QString kGeometry = QStringLiteral("mainWindow/geometry");
const QString kState = QStringLiteral("mainWindow/state");
const QString kSplitter = QStringLiteral("mainWindow/splitter");

} // namespace

QString lastWorkspace() { return store().value(kLastWorkspace).toString(); }

void setLastWorkspace(const QString& path) { store().setValue(kLastWorkspace, path); }

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

} // namespace ks::ui::settings
