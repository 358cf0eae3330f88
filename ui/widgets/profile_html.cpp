#include "widgets/profile_html.h"
#include "widgets/html_escape.h"

#include "charts/roofline_plot.h"

#include <QtCore/QObject>

#include <cmath>

namespace kw::ui {
namespace {

QString value(double v) {
    if (v < 0) return QStringLiteral("–");
    return std::abs(v) >= 1000 || v == std::floor(v) ? QString::number(v, 'f', 0) : QString::number(v, 'g', 3);
}

double metric(const std::vector<std::pair<std::string, double>>& metrics, const std::string& name) {
    for (const auto& [k, v] : metrics)
        if (k == name) return v;
    return -1;
}

} // namespace

QString profileHtml(const inspect::NodeDetails& d) {
    if (!d.profile)
        return QObject::tr("<p><i>No profile: the node is not a correct, timed kernel, or no machine model was at hand.</i></p>");
    const auto& pr = *d.profile;
    QString p = QStringLiteral("<h3>Profile (%1)</h3>").arg(htmlEscaped(pr.level));
    if (pr.hasRoofline)
        p += QObject::tr("<p>%1 GB/s, %2 GFLOP/s; %3% of the roofline bound; intensity %4 flop/B</p>")
                 .arg(pr.gbs, 0, 'f', 1)
                 .arg(pr.gflops, 0, 'f', 1)
                 .arg(pr.rooflineFraction * 100, 0, 'f', 0)
                 .arg(pr.intensity, 0, 'g', 3);
    if (pr.hasRoofline && !hasRooflinePoint(pr))
        p += QObject::tr("<p><i>No roofline point: %1.</i></p>")
                 .arg(pr.roofBandwidthGBs > 0
                          ? QObject::tr("the problem gives no flop count, so only bandwidth is placed (%1 of %2 GB/s)")
                                .arg(pr.gbs, 0, 'f', 1)
                                .arg(pr.roofBandwidthGBs, 0, 'f', 0)
                          : QObject::tr("no machine roofs were measured for this host"));
    const auto* parent = d.parentProfile ? &*d.parentProfile : nullptr;
    if (parent && parent->hasRoofline)
        p += QObject::tr("<p>Parent: %1 GB/s, %2 GFLOP/s, %3% of the roofline bound.</p>")
                 .arg(parent->gbs, 0, 'f', 1)
                 .arg(parent->gflops, 0, 'f', 1)
                 .arg(parent->rooflineFraction * 100, 0, 'f', 0);
    if (!pr.ncuMetrics.empty()) {
        // The dominant kernel's metrics, the baseline's beside them (the
        // nearest ancestor that ran ncu, as Nsight Compute compares against a
        // chosen baseline); a changed value is bold.
        const auto* baseline = d.ncuBaseline ? &*d.ncuBaseline : nullptr;
        const QString against = !baseline               ? QObject::tr("parent")
                                : d.ncuBaselineIsParent ? QObject::tr("#%1 (parent)").arg(d.ncuBaselineSeq)
                                                        : QObject::tr("#%1 (ancestor)").arg(d.ncuBaselineSeq);
        p += QObject::tr("<h4>Nsight Compute: %1</h4>").arg(htmlEscaped(pr.ncuKernel));
        p += QObject::tr("<table cellpadding='2'><tr><th align='left'>metric</th><th align='right'>this node</th>"
                         "<th align='right'>%1</th></tr>")
                 .arg(against);
        for (const auto& [name, v] : pr.ncuMetrics) {
            const double before = baseline ? metric(baseline->ncuMetrics, name) : -1;
            const bool changed = before >= 0 && v >= 0 && std::abs(v - before) > 0.05 * std::max(std::abs(v), std::abs(before));
            p += QStringLiteral("<tr><td>%1</td><td align='right'>%2</td><td align='right'>%3</td></tr>")
                     .arg(htmlEscaped(name), changed ? QStringLiteral("<b>%1</b>").arg(value(v)) : value(v), value(before));
        }
        p += QStringLiteral("</table>");
    }
    if (pr.provenance) p += QObject::tr("<p><b>Provenance</b>: %1</p>").arg(htmlEscaped(pr.provenance->summary()));
    if (pr.breakdown && !pr.breakdown->entries.empty()) {
        // One call's device work, longest first (the first rows: a call of
        // hundreds of launches reads best from its heaviest kernels).
        const auto& b = *pr.breakdown;
        p += QObject::tr("<h4>One call at shape %1: %2 launches, %3 us on the device</h4>")
                 .arg(htmlEscaped(b.shape))
                 .arg(b.launches)
                 .arg(b.deviceUs, 0, 'f', 1);
        p += QObject::tr("<table cellpadding='2'><tr><th align='right'>share</th><th align='right'>us</th>"
                         "<th align='right'>calls</th><th align='left'>kernel</th></tr>");
        int rows = 0;
        for (const auto& e : b.entries) {
            if (++rows > 12) break;
            p +=
                QStringLiteral("<tr><td align='right'>%1%</td><td align='right'>%2</td><td align='right'>%3</td><td>%4</td></tr>")
                    .arg(100 * b.share(e), 0, 'f', 1)
                    .arg(e.us, 0, 'f', 1)
                    .arg(e.calls)
                    .arg(htmlEscaped(e.kind == "kernel" ? e.name.substr(0, 100) : e.kind + ": " + e.name.substr(0, 90)));
        }
        p += QStringLiteral("</table>");
    }
    p += QStringLiteral("<ul>");
    for (const auto& [signal, evidence] : pr.findings)
        p += QStringLiteral("<li><b>%1</b>: %2</li>").arg(htmlEscaped(signal), htmlEscaped(evidence));
    p += QStringLiteral("</ul>");
    return p;
}

} // namespace kw::ui
