#include "widgets/node_compare_dialog.h"
#include "widgets/html_escape.h"

#include "editor/code_view.h"
#include "editor/line_diff.h"
#include "inspect/workspace_reader.h"
#include "models/node_table_model.h"
#include "util/format.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QPointer>
#include <QtCore/QThread>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QTextBrowser>
#include <QtWidgets/QVBoxLayout>

#include <map>

namespace kw::ui {
namespace {

QString speedupText(const NodeSnapshot& n) {
    return n.glyph == NodeGlyph::Correct ? QStringLiteral("%1×").arg(n.speedup, 0, 'f', 3) : glyphLabel(n.glyph);
}

// Per timing shape: the candidate's median, or "" when the node has none.
std::map<QString, QString> medians(const inspect::NodeDetails& d) {
    std::map<QString, QString> out;
    if (d.evaluation)
        for (const auto& t : d.evaluation->timing)
            out[QString::fromStdString(t.shape)] = QStringLiteral("%1 (CV %2%)")
                                                       .arg(QString::fromStdString(formatSeconds(t.candidate.median)))
                                                       .arg(t.candidate.cv * 100, 0, 'f', 1);
    return out;
}

// Per timing shape: the speedup over the reference measured in the node's own
// run (paired rounds), with its 95 % interval where the judge gave one, and the
// reference's median in that run. Medians from two runs were taken under
// different load; the paired speedups are what compare.
struct Paired {
    QString speedup, reference;
    double low = 0, high = 0;
};
std::map<QString, Paired> paired(const inspect::NodeDetails& d) {
    std::map<QString, Paired> out;
    if (!d.evaluation) return out;
    for (const auto& t : d.evaluation->timing) {
        Paired p;
        p.low = t.speedupInterval.first;
        p.high = t.speedupInterval.second;
        p.speedup = QStringLiteral("%1×").arg(t.speedup, 0, 'f', 3) +
                    (p.high > 0 ? QStringLiteral(" (95 %: %1–%2×)").arg(p.low, 0, 'f', 2).arg(p.high, 0, 'f', 2) : QString());
        if (!t.baselines.empty()) p.reference = QString::fromStdString(formatSeconds(t.baselines.front().median));
        out[QString::fromStdString(t.shape)] = p;
    }
    return out;
}

} // namespace

NodeCompareDialog::NodeCompareDialog(std::filesystem::path database, qint64 searchId, NodeSnapshot a, NodeSnapshot b,
                                     QWidget* parent)
    : QDialog(parent), a_(std::move(a)), b_(std::move(b)) {
    setWindowTitle(tr("Node #%1 and node #%2").arg(a_.seq).arg(b_.seq));
    auto* layout = new QVBoxLayout(this);
    auto* split = new QSplitter(Qt::Vertical, this);
    summary_ = new QTextBrowser(split);
    summary_->setObjectName(QStringLiteral("compareSummary"));
    summary_->setHtml(tr("<p><i>Reading nodes #%1 and #%2…</i></p>").arg(a_.seq).arg(b_.seq));
    diff_ = new CodeView(split);
    diff_->setObjectName(QStringLiteral("compareDiff"));
    split->addWidget(summary_);
    split->addWidget(diff_);
    split->setStretchFactor(0, 1); // the summary (paired speedups, the verdict) and the diff about alike
    split->setStretchFactor(1, 1);
    layout->addWidget(split);
    resize(1000, 760);

    // Read off the UI thread with a connection of its own; the answer comes back queued.
    QPointer<NodeCompareDialog> self(this);
    const qint64 ida = a_.id, idb = b_.id;
    auto* reader = QThread::create([self, database, searchId, ida, idb] {
        auto ws = inspect::WorkspaceReader::open(database);
        if (!ws) {
            const QString m = QString::fromStdString(ws.error().message);
            QMetaObject::invokeMethod(QCoreApplication::instance(), [self, m] {
                if (self) self->showError(m);
            });
            return;
        }
        auto da = ws->nodeDetails(searchId, ida);
        auto db = ws->nodeDetails(searchId, idb);
        if (!da || !db) {
            const QString m = QString::fromStdString(!da ? da.error().message : db.error().message);
            QMetaObject::invokeMethod(QCoreApplication::instance(), [self, m] {
                if (self) self->showError(m);
            });
            return;
        }
        QMetaObject::invokeMethod(QCoreApplication::instance(), [self, a = std::move(*da), b = std::move(*db)] {
            if (self) self->showNodes(a, b);
        });
    });
    connect(reader, &QThread::finished, reader, &QObject::deleteLater);
    reader->start();
}

QString NodeCompareDialog::summaryHtml() const {
    return summary_->toHtml();
}

void NodeCompareDialog::showError(const QString& message) {
    summary_->setHtml(tr("<p>Cannot read the nodes: %1</p>").arg(htmlEscaped(message)));
    emit loaded();
}

void NodeCompareDialog::showNodes(const inspect::NodeDetails& a, const inspect::NodeDetails& b) {
    QString html =
        QStringLiteral("<table cellpadding='3'><tr><th></th><th>node #%1</th><th>node #%2</th></tr>").arg(a_.seq).arg(b_.seq);
    const auto row = [&](const QString& k, const QString& x, const QString& y) {
        const bool differs = x != y;
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td><td>%3</td></tr>")
                    .arg(htmlEscaped(k), differs ? QStringLiteral("<b>%1</b>").arg(htmlEscaped(x)) : htmlEscaped(x),
                         differs ? QStringLiteral("<b>%1</b>").arg(htmlEscaped(y)) : htmlEscaped(y));
    };
    row(tr("outcome"), speedupText(a_), speedupText(b_));
    row(tr("origin"), a_.origin, b_.origin);
    const auto parentText = [this](const NodeSnapshot& n) {
        if (!n.parentId) return tr("(root)");
        return n.parentSeq ? QStringLiteral("#%1").arg(n.parentSeq) : tr("node %1 of the workspace").arg(n.parentId);
    };
    row(tr("parent"), parentText(a_), parentText(b_));
    row(tr("kernel"), a_.sourceName, b_.sourceName);
    const auto pa = parseParams(a_.params), pb = parseParams(b_.params);
    row(tr("params"), pa.isEmpty() ? a_.params : paramsText(pa), pb.isEmpty() ? b_.params : paramsText(pb));
    const auto ma = medians(a), mb = medians(b);
    const auto sa = paired(a), sb = paired(b);
    std::map<QString, int> shapes;
    for (const auto& [s, _] : ma) shapes[s];
    for (const auto& [s, _] : mb) shapes[s];
    QStringList apart, together;
    const auto cell = [](const auto& map, const QString& s, auto field) {
        const auto it = map.find(s);
        return it == map.end() || (it->second.*field).isEmpty() ? QStringLiteral("-") : it->second.*field;
    };
    for (const auto& [s, _] : shapes) {
        row(tr("speedup at %1 (paired)").arg(s), cell(sa, s, &Paired::speedup), cell(sb, s, &Paired::speedup));
        const auto x = ma.find(s), y = mb.find(s);
        row(tr("median at %1").arg(s), x == ma.end() ? QStringLiteral("-") : x->second,
            y == mb.end() ? QStringLiteral("-") : y->second);
        row(tr("reference at %1, same run").arg(s), cell(sa, s, &Paired::reference), cell(sb, s, &Paired::reference));
        const auto ia = sa.find(s), ib = sb.find(s);
        if (ia != sa.end() && ib != sb.end() && ia->second.high > 0 && ib->second.high > 0)
            (ia->second.low > ib->second.high || ib->second.low > ia->second.high ? apart : together) << s;
    }
    html += QStringLiteral("</table>");
    // The verdict a reader wants from two nodes: told apart or not, shape by shape.
    if (!apart.isEmpty() || !together.isEmpty())
        html += tr("<p>Their 95 % intervals are apart at %1 and overlap at %2: where they overlap, this measurement does "
                   "not tell the two nodes apart (medians from two runs were taken under different load; compare the "
                   "paired speedups).</p>")
                    .arg(apart.isEmpty() ? tr("no shape") : apart.join(QStringLiteral(", ")),
                         together.isEmpty() ? tr("no shape") : together.join(QStringLiteral(", ")));
    else
        html += tr("<p>Medians from two runs were taken under different load; compare the paired speedups.</p>");
    summary_->setHtml(html);
    // The code as it ran: a change of params alone shows in the baked-in values.
    const QString before = QString::fromStdString(a.asRun.empty() ? a.source : a.asRun);
    const QString after = QString::fromStdString(b.asRun.empty() ? b.source : b.asRun);
    diff_->showDiff(diffLines(before, after), CodeView::languageFor(b_.sourceName, after));
    emit loaded();
}

} // namespace kw::ui
