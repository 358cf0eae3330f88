#include "tree/tree_snapshot.h"

namespace ks::ui {

QString glyphLabel(NodeGlyph glyph) {
    return QString::fromLatin1(report::glyphName(glyph));
}

} // namespace ks::ui
