#pragma once
// Text shown in the inspector's HTML views (sources, messages, names) is
// escaped, never interpreted: one helper for every such view.
#include <QtCore/QString>

#include <string>

namespace kw::ui {

inline QString htmlEscaped(const QString& s) {
    return s.toHtmlEscaped();
}
inline QString htmlEscaped(const std::string& s) {
    return QString::fromStdString(s).toHtmlEscaped();
}

} // namespace kw::ui
