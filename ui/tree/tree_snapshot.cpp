#include "tree/tree_snapshot.h"

#include <QtCore/QObject>

namespace kw::ui {

QString glyphLabel(NodeGlyph glyph) {
    return QString::fromLatin1(report::glyphName(glyph));
}

SpeedupTrust speedupTrust(const NodeSnapshot& n) {
    if (n.glyph != NodeGlyph::Correct || n.speedup <= 0 || n.intervalLow <= 0 || n.intervalHigh < n.intervalLow)
        return SpeedupTrust::Unknown;
    if (n.intervalLow <= 1.0 && n.intervalHigh >= 1.0) return SpeedupTrust::Unsure;
    return n.intervalHigh / n.intervalLow > kNoisyRatio ? SpeedupTrust::Noisy : SpeedupTrust::Apart;
}

QString trustText(const NodeSnapshot& n) {
    const auto trust = speedupTrust(n);
    if (trust == SpeedupTrust::Unknown) return {};
    const QString interval = QObject::tr("95 % interval %1–%2×").arg(n.intervalLow, 0, 'f', 2).arg(n.intervalHigh, 0, 'f', 2);
    switch (trust) {
    case SpeedupTrust::Unsure:
        return QObject::tr("%1: not told apart from the reference; re-time it before trusting the speedup").arg(interval);
    case SpeedupTrust::Noisy:
        return QObject::tr("%1: noisy (its ends are more than %2× apart)").arg(interval).arg(kNoisyRatio);
    default:
        return interval;
    }
}

} // namespace kw::ui
