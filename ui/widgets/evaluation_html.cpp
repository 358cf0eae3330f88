#include "widgets/evaluation_html.h"
#include "widgets/html_escape.h"

#include "util/format.h"

#include <QtCore/QObject>

namespace kw::ui {

QString evaluationHtml(const eval::EvaluationResult& result, const QString& errorColor) {
    QString html =
        QStringLiteral("<h3>%1</h3><p>%2</p>").arg(htmlEscaped(eval::statusName(result.status)), htmlEscaped(result.message));
    int passed = 0;
    for (const auto& c : result.checks) passed += c.passed ? 1 : 0;
    if (!result.checks.empty())
        html += QObject::tr("<p>checks: %1 of %2 passed</p>").arg(passed).arg(result.checks.size());
    else if (!result.correct())
        html += QObject::tr("<p>No check ran: the candidate stopped before its outputs could be compared.</p>");
    int shown = 0;
    for (const auto& c : result.checks) {
        if (c.passed || shown++ >= 8) continue;
        html += QStringLiteral("<p style='color:%7'>%1 seed %2, %3: %4 (%5 of %6 wrong)</p>")
                    .arg(htmlEscaped(c.shape))
                    .arg(c.seed)
                    .arg(htmlEscaped(c.output), htmlEscaped(c.kind))
                    .arg(c.mismatches)
                    .arg(c.elements)
                    .arg(errorColor);
    }
    for (const auto& t : result.timing) {
        html += QObject::tr("<p><b>%1</b>: candidate %2 median (CV %3%)")
                    .arg(htmlEscaped(t.shape), htmlEscaped(formatSeconds(t.candidate.median)))
                    .arg(t.candidate.cv * 100, 0, 'f', 1);
        for (const auto& b : t.baselines)
            html += QObject::tr(", %1 %2").arg(htmlEscaped(b.name), htmlEscaped(formatSeconds(b.median)));
        html += QObject::tr("; %1× over the reference").arg(t.speedup, 0, 'g', 3);
        // How far the reading can be trusted: two candidates whose intervals
        // overlap are not told apart by this judge.
        if (const auto [lo, hi] = t.speedupInterval; hi > 0)
            html += QObject::tr(" (95% interval %1–%2×, %3 rounds)").arg(lo, 0, 'g', 3).arg(hi, 0, 'g', 3).arg(t.reps);
        // The device memory each kernel could hold (torch judge): a convolution's
        // algorithm, and so its time, follows the workspace it can get.
        if (const auto room = t.clock.find("device_room_bytes");
            room != t.clock.end() && room->is_number() && room->get<double>() > 0)
            html += QObject::tr("; each kernel's room on the device: %1 GiB")
                        .arg(room->get<double>() / (1024.0 * 1024.0 * 1024.0), 0, 'f', 1);
        html += QStringLiteral("</p>");
    }
    if (!result.buildLog.empty()) html += QStringLiteral("<pre>%1</pre>").arg(htmlEscaped(result.buildLog.substr(0, 4000)));
    return html;
}

} // namespace kw::ui
