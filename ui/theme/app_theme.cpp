#include "theme/app_theme.h"

#include <QtGui/QPalette>
#include <QtWidgets/QApplication>
#include <QtWidgets/QStyle>
#include <QtWidgets/QStyleFactory>

namespace kw::ui {
namespace {

QPalette darkPalette() {
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x30), base(0x1e, 0x1f, 0x22), text(0xe6, 0xe6, 0xe6), disabled(0x80, 0x80, 0x80);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2b));
    p.setColor(QPalette::ToolTipBase, window);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6e, 0x6e));
    p.setColor(QPalette::Light, QColor(0x45, 0x47, 0x4a));
    p.setColor(QPalette::Midlight, QColor(0x3a, 0x3c, 0x3f));
    p.setColor(QPalette::Mid, QColor(0x60, 0x62, 0x66));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, QColor(0x35, 0x74, 0xf0));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6c, 0xb6, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xb3, 0x9d, 0xdb));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

} // namespace

Result<Theme> parseTheme(const QString& name) {
    if (name == QStringLiteral("system")) return Theme::System;
    if (name == QStringLiteral("light")) return Theme::Light;
    if (name == QStringLiteral("dark")) return Theme::Dark;
    return makeError(ErrorCode::InvalidArgument, "unknown theme '" + name.toStdString() + "': use system, light or dark");
}

void applyTheme(QApplication&, Theme theme) {
    if (theme == Theme::System) return;
    if (auto* fusion = QStyleFactory::create(QStringLiteral("Fusion"))) QApplication::setStyle(fusion);
    QApplication::setPalette(theme == Theme::Dark ? darkPalette() : QApplication::style()->standardPalette());
}

QString errorColorName(const QPalette& palette) {
    return palette.color(QPalette::Base).lightness() < 128 ? QStringLiteral("#ff8a80") : QStringLiteral("#c62828");
}

} // namespace kw::ui
