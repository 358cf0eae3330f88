#pragma once
// Light or dark. By default the workbench follows the system: the platform
// theme's palette, which every widget here paints with. A fixed light or dark
// palette (on the Fusion style, which honours palettes fully) is there for
// demos, screenshots, and desktops whose theme Qt does not read.
#include "util/result.h"

#include <QtCore/QString>

class QApplication;
class QPalette;

namespace kw::ui {

enum class Theme { System, Light, Dark };

Result<Theme> parseTheme(const QString& name); // system | light | dark
void applyTheme(QApplication& app, Theme theme);

// Red for errors in rich text, with contrast on the palette's base (light or dark).
QString errorColorName(const QPalette& palette);

} // namespace kw::ui
