#include "tree/tree_snapshot.h"

namespace kw::ui {

QString glyphLabel(NodeGlyph glyph) {
    return QString::fromLatin1(report::glyphName(glyph));
}

} // namespace kw::ui
