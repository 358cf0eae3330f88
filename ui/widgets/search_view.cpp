#include "widgets/search_view.h"
#include "widgets/html_escape.h"

#include "charts/breakdown_plot.h"
#include "charts/param_plot.h"
#include "charts/progress_plot.h"
#include "charts/roofline_plot.h"
#include "charts/timing_plot.h"
#include "editor/code_view.h"
#include "editor/line_diff.h"
#include "eval/evaluation_result.h"
#include "inspect/workspace_reader.h"
#include "models/node_table_model.h"
#include "report/search_report.h"
#include "report/tree_svg.h"
#include "session/detail_loader.h"
#include "session/search_follower.h"
#include "theme/app_theme.h"
#include "tree/tree_canvas.h"
#include "widgets/evaluation_html.h"
#include "widgets/file_dialogs.h"
#include "widgets/llm_call_html.h"
#include "widgets/node_compare_dialog.h"
#include "widgets/params_form.h"
#include "widgets/profile_html.h"
#include "widgets/retime_dialog.h"

#include <nlohmann/json.hpp>

#include <map>

#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QSignalBlocker>
#include <QtCore/QThread>
#include <QtCore/QTimer>
#include <QtGui/QAction>
#include <QtGui/QFontDatabase>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDialog>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QDoubleSpinBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QInputDialog>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QScrollBar>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QTabWidget>
#include <QtWidgets/QTableView>
#include <QtWidgets/QTextBrowser>
#include <QtWidgets/QToolButton>
#include <QtWidgets/QVBoxLayout>

#include <algorithm>

namespace kw::ui {
namespace {

// An ISO 8601 time as its clock reading: 2026-11-29T03:12:45.123Z -> 03:12:45.
QString clockOf(const std::string& iso) {
    const auto t = iso.find('T');
    return QString::fromStdString(t == std::string::npos ? iso : iso.substr(t + 1, 8));
}

} // namespace

SearchView::SearchView(std::filesystem::path database, qint64 searchId, QWidget* parent)
    : QWidget(parent), database_(std::move(database)), searchId_(searchId) {
    qRegisterMetaType<kw::ui::NodeBatch>();

    canvas_ = new TreeCanvas(this);
    canvas_->setObjectName(QStringLiteral("treeCanvas"));
    buildInspector();
    addShortcuts();
    auto* split = new QSplitter(Qt::Horizontal, this);
    // The tree, or every node as a table.
    views_ = new QTabWidget(this);
    views_->setObjectName(QStringLiteral("searchViews"));
    views_->setDocumentMode(true);
    views_->addTab(canvas_, tr("Tree"));
    views_->addTab(buildNodeTable(), tr("Table"));
    connect(views_, &QTabWidget::currentChanged, this, [this] { refreshShownViews(); });
    split->addWidget(views_);
    split->addWidget(inspector_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(buildToolbar());
    layout->addWidget(split, 1);

    watchSelection();
    follow();
}

// Fit, best, find, filters, steering buttons, exports and the summary line.
QHBoxLayout* SearchView::buildToolbar() {
    auto* bar = new QHBoxLayout;
    auto button = [&](const QString& text, const QString& tip, auto slot) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        connect(b, &QToolButton::clicked, this, slot);
        bar->addWidget(b);
        return b;
    };
    button(tr("Fit"), tr("Fit the tree into the view and keep new nodes in it until you move the view (F)"),
           [this] { canvas_->followTree(); });
    button(tr("Best"), tr("Select and centre the best node (B)"), [this] {
        if (canvas_->layout().bestId()) canvas_->selectNode(canvas_->layout().bestId());
    });
    find_ = new QLineEdit(this);
    find_->setPlaceholderText(tr("Node id"));
    find_->setClearButtonEnabled(true);
    find_->setMaximumWidth(120);
    connect(find_, &QLineEdit::returnPressed, this, &SearchView::findNode);
    bar->addWidget(find_);
    hideFailures_ = new QCheckBox(tr("Dim failures"), this);
    connect(hideFailures_, &QCheckBox::toggled, this, &SearchView::applyFilter);
    bar->addWidget(hideFailures_);
    bar->addWidget(new QLabel(tr("Speedup ≥"), this));
    minSpeedup_ = new QDoubleSpinBox(this);
    minSpeedup_->setRange(0, 1000);
    minSpeedup_->setDecimals(2);
    minSpeedup_->setSingleStep(0.5);
    minSpeedup_->setSpecialValueText(tr("any"));
    connect(minSpeedup_, &QDoubleSpinBox::valueChanged, this, &SearchView::applyFilter);
    bar->addWidget(minSpeedup_);
    bar->addSpacing(12);
    steeringButtons_ = {button(tr("Pause"), tr("Pause the search (the running evaluations finish)"),
                               [this] { steer(search::SteeringCommand::pause()); }),
                        button(tr("Resume"), tr("Resume a paused search"), [this] { steer(search::SteeringCommand::resume()); }),
                        button(tr("Stop"), tr("Stop the search"), [this] { steer(search::SteeringCommand::stop()); }),
                        button(tr("Budget…"), tr("Change the number of evaluations"), [this] {
                            if (!ended_.isEmpty()) return askResume();
                            // Starts from the search's own budget; unchanged, nothing is sent.
                            bool ok = false;
                            const int current = static_cast<int>(std::clamp<qint64>(budget_, 1, 1000000));
                            const int n = QInputDialog::getInt(
                                this, tr("Budget"), tr("Evaluations in all (%1 done, budget %2):").arg(evaluations_).arg(budget_),
                                current, static_cast<int>(std::clamp<qint64>(evaluations_, 1, 1000000)), 1000000, 1, &ok);
                            if (ok && n != budget_) steer(search::SteeringCommand::budget(n));
                        })};
    for (auto* b : steeringButtons_) b->setProperty("openToolTip", b->toolTip());
    bar->addWidget(exportMenuButton());
    bar->addStretch(1);
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("searchSummary"));
    // A long summary (the best's interval and its rival) wraps rather than
    // widening the window; the whole line is its tooltip too.
    summary_->setWordWrap(true);
    summary_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    summary_->setMinimumWidth(200);
    summary_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    bar->addWidget(summary_, 1);
    return bar;
}

QToolButton* SearchView::exportMenuButton() {
    auto* exportButton = new QToolButton(this);
    exportButton->setText(tr("Export"));
    exportButton->setPopupMode(QToolButton::InstantPopup);
    auto* exportMenu = new QMenu(exportButton);
    exportMenu->addAction(tr("Kernel of the selected node…"), this, [this] { exportKernel(canvas_->selectedId()); });
    exportMenu->addAction(tr("Best kernel…"), this, [this] { exportKernel(canvas_->layout().bestId()); });
    exportMenu->addAction(tr("Tree as PNG…"), this, [this] {
        const QString file = file_dialogs::saveFileName(this, tr("Tree as PNG"), QStringLiteral("search-%1.png").arg(searchId_),
                                                        tr("PNG (*.png)"), {}, database_);
        if (!file.isEmpty() && !canvas_->grab().save(file, "PNG")) summary_->setText(tr("Cannot write %1").arg(file));
    });
    exportMenu->addAction(tr("Tree as SVG…"), this, [this] {
        const QString file = file_dialogs::saveFileName(this, tr("Tree as SVG"), QStringLiteral("search-%1.svg").arg(searchId_),
                                                        tr("SVG (*.svg)"), {}, database_);
        if (file.isEmpty()) return;
        QFile f(file);
        const std::string svg = report::treeSvg(canvas_->layout().shape());
        if (!f.open(QIODevice::WriteOnly) || f.write(svg.data(), static_cast<qint64>(svg.size())) < 0)
            summary_->setText(tr("Cannot write %1").arg(file));
    });
    exportMenu->addAction(tr("HTML report…"), this, [this] {
        const QString file = file_dialogs::saveFileName(
            this, tr("Search report"), QStringLiteral("search-%1.html").arg(searchId_), tr("HTML (*.html)"), {}, database_);
        if (file.isEmpty()) return;
        auto reader = inspect::WorkspaceReader::open(database_);
        auto html = reader ? reader->reportHtml(searchId_) : Result<std::string>(reader.error());
        if (!html) return summary_->setText(QString::fromStdString(html.error().message));
        QFile f(file);
        if (!f.open(QIODevice::WriteOnly) || f.write(html->data(), static_cast<qint64>(html->size())) < 0)
            summary_->setText(tr("Cannot write %1").arg(file));
    });
    exportButton->setMenu(exportMenu);
    return exportButton;
}

// The tabs that show the selected node: node, code, diff, evaluation, profile, LLM, progress.
void SearchView::buildInspector() {
    inspector_ = new QTabWidget(this);
    inspector_->setObjectName(QStringLiteral("inspector"));
    nodeInfo_ = new QTextBrowser(inspector_);
    nodeInfo_->setObjectName(QStringLiteral("nodeInfo"));
    auto* codePage = new QWidget(inspector_);
    auto* codeLayout = new QVBoxLayout(codePage);
    codeLayout->setContentsMargins(0, 0, 0, 0);
    code_ = new CodeView(codePage);
    code_->setObjectName(QStringLiteral("codeView"));
    auto* fork = new QToolButton(codePage);
    fork->setText(tr("Fork && edit…"));
    fork->setToolTip(tr("Edit a copy of this kernel and submit it as a manual child of the node"));
    connect(fork, &QToolButton::clicked, this, &SearchView::forkAndEdit);
    // The code as it ran (params baked in) by default; the template a toggle away.
    showTemplate_ = new QCheckBox(tr("Template (params not filled in)"), codePage);
    showTemplate_->setObjectName(QStringLiteral("showTemplate"));
    connect(showTemplate_, &QCheckBox::toggled, this, [this] { showCodeText(); });
    auto* codeBar = new QHBoxLayout;
    codeBar->addWidget(fork);
    codeBar->addWidget(showTemplate_);
    codeBar->addStretch(1);
    codeLayout->addLayout(codeBar);
    codeLayout->addWidget(code_, 1);
    diff_ = new CodeView(inspector_);
    diff_->setObjectName(QStringLiteral("diffView"));
    auto* evalPage = new QSplitter(Qt::Vertical, inspector_);
    evaluation_ = new QTextBrowser(evalPage);
    // One timing shape at a time, chosen by name: every shape a node was timed on can be seen.
    timingBox_ = new QWidget(evalPage);
    auto* timingLayout = new QVBoxLayout(timingBox_);
    timingLayout->setContentsMargins(0, 0, 0, 0);
    timingShape_ = new QComboBox(timingBox_);
    timingShape_->setObjectName(QStringLiteral("timingShape"));
    timing_ = new TimingPlot(timingBox_);
    timingLayout->addWidget(timingShape_);
    timingLayout->addWidget(timing_, 1);
    connect(timingShape_, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0 && static_cast<std::size_t>(i) < timings_.size()) timing_->showTiming(timings_[static_cast<std::size_t>(i)]);
    });
    evalPage->addWidget(evaluation_);
    evalPage->addWidget(timingBox_);
    // The Profile tab: the node on its machine's roofline, its kernels' device time (GPU), the numbers and the diagnosis.
    auto* profilePage = new QSplitter(Qt::Vertical, inspector_);
    roofline_ = new RooflinePlot(profilePage);
    roofline_->setObjectName(QStringLiteral("rooflinePlot"));
    breakdown_ = new BreakdownPlot(profilePage);
    breakdown_->setObjectName(QStringLiteral("breakdownPlot"));
    profile_ = new QTextBrowser(profilePage);
    profilePage->addWidget(roofline_);
    profilePage->addWidget(breakdown_);
    profilePage->addWidget(profile_);
    llm_ = new QTextBrowser(inspector_);
    llm_->setObjectName(QStringLiteral("llmView"));
    llm_->setOpenLinks(false);
    // A prompt section's heading folds or unfolds it.
    connect(llm_, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() != QStringLiteral("section") || !llmCall_) return;
        const int i = url.path().toInt();
        if (!llmExpanded_.erase(i)) llmExpanded_.insert(i);
        const int scroll = llm_->verticalScrollBar()->value();
        llm_->setHtml(llmCallHtml(*llmCall_, llmDocs_, llmExpanded_, palette()));
        llm_->verticalScrollBar()->setValue(scroll);
    });
    inspector_->addTab(nodeInfo_, tr("Node"));
    inspector_->addTab(codePage, tr("Code"));
    inspector_->addTab(diff_, tr("Diff"));
    inspector_->addTab(evalPage, tr("Evaluation"));
    inspector_->addTab(profilePage, tr("Profile"));
    inspector_->addTab(llm_, tr("LLM"));
    auto* progressPage = new QWidget(inspector_);
    auto* progressLayout = new QVBoxLayout(progressPage);
    progress_ = new ProgressPlot(progressPage);
    progressText_ = new QLabel(progressPage);
    progressText_->setWordWrap(true);
    progressLayout->addWidget(progress_, 1);
    progressLayout->addWidget(progressText_);
    inspector_->addTab(progressPage, tr("Progress"));
    // The params against speedup: parallel coordinates and importance, for the whole search.
    params_ = new ParamPlot(inspector_);
    params_->setObjectName(QStringLiteral("paramPlot"));
    params_->setToolTip(tr("Click a value on an axis to brush it: the node table keeps the nodes with every brushed value"));
    // Brushing filters the node table as typing NAME=value in its filter does.
    connect(params_, &ParamPlot::brushChanged, this, [this](const QString& filter) { tableText_->setText(filter); });
    inspector_->addTab(params_, tr("Params"));
    steering_ = new QTextBrowser(inspector_);
    steering_->setObjectName(QStringLiteral("steeringTimeline"));
    steering_->setHtml(tr("<p><i>Nobody has steered this search.</i></p>"));
    inspector_->addTab(steering_, tr("Steering"));
    connect(inspector_, &QTabWidget::currentChanged, this, [this] { refreshShownViews(); });
    progressTimer_ = new QTimer(this);
    progressTimer_->setSingleShot(true);
    progressTimer_->setInterval(300);
    connect(progressTimer_, &QTimer::timeout, this, &SearchView::updateProgress);
    nodeInfo_->setPlaceholderText(tr("Select a node in the tree."));
}

// A selection shows the node at once and asks the loader for the rest.
void SearchView::watchSelection() {
    loader_ = new DetailLoader(database_, searchId_, this);
    connect(loader_, &DetailLoader::nodeReady, this, [this](quint64, const NodeDetailsPtr& d) { showDetails(*d); });
    connect(loader_, &DetailLoader::nodeFailed, this, [this](quint64, qint64 nodeId, const QString& message) {
        if (nodeId != canvas_->selectedId()) return;
        const QString text = tr("<p><i>Cannot read node %1: %2</i></p>").arg(nodeLabel(nodeId)).arg(message.toHtmlEscaped());
        evaluation_->setHtml(text);
        llm_->setHtml(text);
        profile_->setHtml(text);
    });
    connect(loader_, &DetailLoader::spendReady, this, [this](quint64, const SpendTimeline& spend) { showProgress(spend); });
    connect(loader_, &DetailLoader::steeringReady, this,
            [this](quint64, const SteeringTimeline& steering) { showSteering(steering); });
    connect(canvas_, &TreeCanvas::nodeSelected, this, &SearchView::showNode);
    connect(canvas_, &TreeCanvas::nodeContextMenu, this, &SearchView::nodeMenu);
    connect(canvas_, &TreeCanvas::nodeActivated, this,
            [this] { inspector_->setCurrentIndex(1); }); // Enter or a double click: the code
}

// The follower reads on its own thread; batches arrive queued, as values.
void SearchView::follow() {
    thread_ = new QThread(this);
    follower_ = new SearchFollower(database_, searchId_);
    follower_->moveToThread(thread_);
    connect(thread_, &QThread::finished, follower_, &QObject::deleteLater);
    connect(follower_, &SearchFollower::nodes, this, &SearchView::onBatch, Qt::QueuedConnection);
    connect(follower_, &SearchFollower::ended, this, [this](const QString& reason) {
        ended_ = reason;
        setSteeringOpen(false);
        onBatch({});
    });
    connect(follower_, &SearchFollower::failed, this,
            [this](const QString& message) { summary_->setText(tr("Cannot follow: %1").arg(message)); });
    thread_->start();
    QMetaObject::invokeMethod(follower_, &SearchFollower::start, Qt::QueuedConnection);
}

SearchView::~SearchView() {
    thread_->quit();
    thread_->wait();
}

void SearchView::setProgress(qint64 evaluations, qint64 budget) {
    if (evaluations == evaluations_ && budget == budget_) return;
    evaluations_ = evaluations;
    budget_ = budget;
    onBatch({});
}

// The best node's interval in the header and, when the runner-up's interval
// reaches into it, that the two are not told apart: a ranking by point
// estimates alone reads noise as progress.
QString SearchView::bestIntervalText(const TreeLayout& layout) const {
    const NodeSnapshot* best = layout.node(layout.bestId());
    if (!best || best->intervalHigh <= 0) return {};
    QString text = tr(" (95 %: %1–%2×)").arg(best->intervalLow, 0, 'f', 2).arg(best->intervalHigh, 0, 'f', 2);
    const NodeSnapshot* second = nullptr;
    for (const auto& p : layout.placed())
        if (const NodeSnapshot* n = layout.node(p.id); n && n->id != best->id && n->glyph == NodeGlyph::Correct &&
                                                       n->speedup > 0 && (!second || n->speedup > second->speedup))
            second = n;
    if (second && second->intervalHigh > 0 && second->intervalHigh >= best->intervalLow)
        text += tr(", not told apart from node %1 (%2–%3×)")
                    .arg(nodeLabel(second->id))
                    .arg(second->intervalLow, 0, 'f', 2)
                    .arg(second->intervalHigh, 0, 'f', 2);
    return text;
}

void SearchView::onBatch(const NodeBatch& batch) {
    canvas_->applyBatch(batch);
    const auto& layout = canvas_->layout();
    QString text = tr("%1 nodes").arg(layout.size());
    if (budget_ > 0) text += tr(" · %1 of %2 evaluations").arg(evaluations_).arg(budget_);
    if (layout.bestId()) {
        text += tr(" · best %1× at node %2").arg(layout.bestSpeedup(), 0, 'g', 3).arg(nodeLabel(layout.bestId()));
        text += bestIntervalText(layout);
    }
    if (!ended_.isEmpty()) text += tr(" · ended (%1)").arg(ended_);
    summary_->setText(text);
    summary_->setToolTip(text);
    if (!batch.isEmpty()) {
        // Coalesced: a burst of batches redraws the plots once.
        if (!progressTimer_->isActive()) progressTimer_->start();
        emit nodesArrived(layout.size());
    }
    if (canvas_->selectedId()) {
        for (const auto& n : batch)
            if (n.id == canvas_->selectedId()) {
                showNode(n.id);
                break;
            }
    }
}

void SearchView::applyFilter() {
    TreeFilter f;
    if (hideFailures_->isChecked())
        for (auto g : report::kFailureGlyphs) f.hiddenGlyphs.insert(static_cast<int>(g));
    if (hideFailures_->isChecked())
        for (auto g : {NodeGlyph::Failed, NodeGlyph::Pruned}) f.hiddenGlyphs.insert(static_cast<int>(g));
    f.minSpeedup = minSpeedup_->value();
    canvas_->setFilter(f);
    if (nodeProxy_) applyTableFilter();
}

QString SearchView::nodeLabel(qint64 id) const {
    const NodeSnapshot* n = canvas_->layout().node(id);
    return n && n->seq ? QStringLiteral("#%1").arg(n->seq) : QStringLiteral("#?");
}

void SearchView::findNode() {
    // The node's number in this search, as the tree shows it ("17" or "#17").
    QString text = find_->text().trimmed();
    if (text.startsWith(QLatin1Char('#'))) text.remove(0, 1);
    bool ok = false;
    const qint64 number = text.toLongLong(&ok);
    const qint64 id = ok ? canvas_->layout().idOfNumber(number) : 0;
    if (!id || !canvas_->selectNode(id)) summary_->setText(tr("No node %1 in this search").arg(find_->text().trimmed()));
}

// The node's summary from its snapshot at once; its details from the loader.
void SearchView::showNode(qint64 id) {
    const NodeSnapshot* n = canvas_->layout().node(id);
    if (!n) return;
    showNodeInfo(*n);
    // The rest comes from the workspace, read off this thread; the newest request wins.
    const QString loading = tr("<p><i>Reading node %1…</i></p>").arg(nodeLabel(id));
    evaluation_->setHtml(loading);
    llm_->setHtml(loading);
    profile_->setHtml(loading);
    loader_->requestNode(id);
}

void SearchView::showNodeInfo(const NodeSnapshot& node) {
    const NodeSnapshot* n = &node;
    QString html = QStringLiteral("<h3>Node %1</h3><table>").arg(nodeLabel(n->id));
    auto row = [&](const QString& k, const QString& v) {
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(k, v);
    };
    row(tr("status"),
        htmlEscaped(glyphLabel(n->glyph) +
                    (n->status ? QStringLiteral(" (%1)").arg(QString::fromStdString(eval::statusName(*n->status))) : QString())));
    if (n->glyph == NodeGlyph::Correct)
        row(tr("speedup"),
            QStringLiteral("%1×").arg(n->speedup, 0, 'g', 4) +
                (n->intervalHigh > 0 ? tr(" (95 %: %1–%2×)").arg(n->intervalLow, 0, 'f', 2).arg(n->intervalHigh, 0, 'f', 2)
                                     : QString()));
    row(tr("origin"), htmlEscaped(n->origin));
    row(tr("parent"), n->parentId ? nodeLabel(n->parentId) : tr("(root)"));
    row(tr("kernel"), htmlEscaped(n->sourceName));
    const auto parsed = parseParams(n->params);
    row(tr("params"), htmlEscaped(parsed.isEmpty() ? n->params : paramsText(parsed)));
    if (!n->hint.isEmpty()) row(tr("hint"), htmlEscaped(n->hint));
    if (n->pinned) row(tr("pinned"), n->pinOnce ? tr("for its next expansion") : tr("until unpinned (sticky)"));
    if (n->boost != 0) row(tr("boost"), QString::number(n->boost, 'g', 3));
    // Who steered this node, when, and what it did (the Steering tab, this node's rows).
    const inspect::SteeringEntry* lastPrune = nullptr;
    QStringList steered;
    for (const auto& e : steeringEntries_) {
        if (e.node != n->seq) continue;
        if (e.verb == "prune" && !e.appliedAt.empty()) lastPrune = &e;
        const QString by = e.origin.empty() ? tr("not recorded") : QString::fromStdString(e.origin);
        QString line = tr("%1 by %2, posted %3 UTC").arg(QString::fromStdString(e.verb), by, clockOf(e.postedAt));
        if (!e.detail.empty()) line += QStringLiteral(" (%1)").arg(QString::fromStdString(e.detail));
        line += e.appliedAt.empty() ? tr(": pending") : QStringLiteral(": %1").arg(QString::fromStdString(e.outcome));
        steered << htmlEscaped(line);
    }
    if (n->pruned)
        row(tr("pruned"), lastPrune
                              ? htmlEscaped(tr("by %1 at %2 UTC: %3")
                                                .arg(lastPrune->origin.empty() ? tr("an unrecorded origin")
                                                                               : QString::fromStdString(lastPrune->origin),
                                                     clockOf(lastPrune->appliedAt), QString::fromStdString(lastPrune->outcome)))
                              : tr("its subtree takes no more expansions (no prune command of this node is "
                                   "recorded: an ancestor's prune covers it)"));
    if (!steered.isEmpty()) row(tr("steered"), steered.join(QStringLiteral("<br>")));
    html += QStringLiteral("</table>");
    if (!n->message.isEmpty()) html += QStringLiteral("<p>%1</p>").arg(htmlEscaped(n->message));
    nodeInfo_->setHtml(html);
}

void SearchView::showCodeText() {
    const QString& text = showTemplate_->isChecked() ? templateSource_ : asRunSource_;
    code_->showCode(text, CodeView::languageFor(codeName_, text));
}

void SearchView::showDetails(const inspect::NodeDetails& d) {
    const NodeSnapshot* n = canvas_->layout().node(d.nodeId);
    if (!n || d.nodeId != canvas_->selectedId()) return; // the selection moved on
    const QString source = QString::fromStdString(d.source);
    const auto language = CodeView::languageFor(n->sourceName, source);
    templateSource_ = source;
    asRunSource_ = d.asRun.empty() ? source : QString::fromStdString(d.asRun);
    codeName_ = n->sourceName;
    showCodeText();
    if (n->parentId) {
        const auto lines = diffLines(QString::fromStdString(d.parentSource), source);
        const bool same = std::all_of(lines.begin(), lines.end(), [](const DiffLine& l) { return l.kind == DiffLine::Same; });
        if (same) {
            // Same source: the change is in the params, one per line.
            auto paramLines = [](const QString& json) {
                QString out;
                const auto j = nlohmann::json::parse(json.toStdString(), nullptr, false);
                if (j.is_object())
                    for (auto it = j.begin(); it != j.end(); ++it)
                        out += QStringLiteral("%1 = %2\n")
                                   .arg(QString::fromStdString(it.key()),
                                        QString::fromStdString(it->is_string() ? it->get<std::string>() : it->dump()));
                return out;
            };
            const NodeSnapshot* parent = canvas_->layout().node(n->parentId);
            auto params = diffLines(parent ? paramLines(parent->params) : QString(), paramLines(n->params));
            params.insert(params.begin(), {DiffLine::Same, tr("// same source as node %1; params:").arg(nodeLabel(n->parentId))});
            diff_->showDiff(params, language);
        } else {
            diff_->showDiff(lines, language);
        }
    } else {
        diff_->showCode(tr("// A root: no parent to compare with."), language);
    }
    showEvaluation(*n, d);
    showLlmCall(*n, d);
    showProfile(d);
}

void SearchView::showProfile(const inspect::NodeDetails& d) {
    roofline_->setVisible(d.profile && roofline_->showProfiles(*d.profile, d.parentProfile, d.bestProfile));
    breakdown_->setVisible(d.profile && breakdown_->showBreakdown(*d.profile));
    profile_->setHtml(profileHtml(d));
}

void SearchView::forkAndEdit() {
    const qint64 id = canvas_->selectedId();
    const NodeSnapshot* n = canvas_->layout().node(id);
    if (!n) {
        summary_->setText(tr("Select a node to fork"));
        return;
    }
    // The template: the child starts from the node's code and params, as the search would.
    editChild(id, templateSource_, n->sourceName + QStringLiteral("-edit"),
              tr("Edit the kernel and its params; it is submitted as a manual child of node %1.").arg(nodeLabel(id)));
}

// A manual child's code in an editor beside its params (prefilled from the
// parent's where the child declares the same), submitted as add_child.
void SearchView::editChild(qint64 parentId, const QString& source, const QString& name, const QString& introText) {
    const NodeSnapshot* parent = canvas_->layout().node(parentId);
    if (!parent) return;
    const auto parentParams = nlohmann::json::parse(parent->params.toStdString(), nullptr, false);
    QDialog dialog(this);
    dialog.setObjectName(QStringLiteral("childDialog"));
    dialog.setWindowTitle(tr("Manual child of node %1").arg(nodeLabel(parentId)));
    auto* layout = new QVBoxLayout(&dialog);
    auto* intro = new QLabel(introText, &dialog);
    intro->setWordWrap(true);
    auto* editor = new CodeView(&dialog);
    editor->showCode(source, CodeView::languageFor(name, source));
    editor->setReadOnly(false);
    auto* form = new ParamsForm(&dialog);
    form->setObjectName(QStringLiteral("childParams"));
    form->setSource(source.toStdString(), parentParams);
    // The form follows the declarations as they are edited (after a pause in typing).
    auto* reparse = new QTimer(&dialog);
    reparse->setSingleShot(true);
    reparse->setInterval(400);
    connect(editor, &QsciScintilla::textChanged, reparse, qOverload<>(&QTimer::start));
    connect(reparse, &QTimer::timeout, &dialog, [&] { form->setSource(editor->text().toStdString(), parentParams); });
    auto* split = new QSplitter(Qt::Horizontal, &dialog);
    split->addWidget(editor);
    split->addWidget(form);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    layout->addWidget(intro);
    layout->addWidget(split, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Submit as child"));
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    layout->addWidget(buttons);
    dialog.resize(1000, 700);
    childDialog_ = &dialog;
    // A refused child keeps the edits: the dialog stays, saying why.
    while (dialog.exec() == QDialog::Accepted) {
        form->setSource(editor->text().toStdString(), parentParams);
        if (form->problem().isEmpty() && steer(search::SteeringCommand::addChild(
                                             parentId, name.toStdString(), editor->text().toStdString(), form->assignment())))
            break;
        const QString why = form->problem().isEmpty() ? lastRefusal_ : form->problem();
        intro->setText(tr("<span style='color:%1'>Not submitted: %2</span>").arg(errorColorName(palette()), why.toHtmlEscaped()));
    }
    childDialog_ = nullptr;
}

void SearchView::exportKernel(qint64 nodeId) {
    if (!nodeId) {
        summary_->setText(tr("No node to export: select one, or wait for a correct node"));
        return;
    }
    auto reader = inspect::WorkspaceReader::open(database_);
    auto text = reader ? reader->standaloneKernel(searchId_, nodeId) : Result<std::string>(reader.error());
    if (!text) {
        summary_->setText(QString::fromStdString(text.error().message).toHtmlEscaped());
        return;
    }
    const QString file = file_dialogs::saveFileName(
        this, tr("Export kernel"),
        // Named by the node's number in its search, as every view shows it (not its row id).
        QStringLiteral("search-%1-node-%2.%3")
            .arg(searchId_)
            .arg(nodeLabel(nodeId).mid(1))
            .arg(QString::fromStdString(*text).contains(QStringLiteral("class ModelNew")) ? QStringLiteral("py")
                                                                                          : QStringLiteral("cpp")),
        tr("Sources (*.cpp *.cu *.py);;All files (*)"), {}, database_);
    if (file.isEmpty()) return;
    QFile f(file);
    if (!f.open(QIODevice::WriteOnly) || f.write(QByteArray::fromStdString(*text)) < 0)
        summary_->setText(tr("Cannot write %1").arg(file));
    else
        summary_->setText(tr("Wrote node %1 to %2").arg(nodeLabel(nodeId)).arg(file));
}

void SearchView::addShortcuts() {
    // Active while focus is anywhere in this tab, so several open searches do not clash.
    auto shortcut = [this](const QString& text, const QKeySequence& keys, auto slot) {
        auto* a = new QAction(text, this);
        a->setShortcut(keys);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        connect(a, &QAction::triggered, this, slot);
        addAction(a);
    };
    shortcut(tr("Find a node by id"), QKeySequence::Find, [this] {
        find_->setFocus();
        find_->selectAll();
    });
    shortcut(tr("Focus the tree"), QKeySequence(Qt::CTRL | Qt::Key_T), [this] { canvas_->setFocus(); });
    for (int i = 0; i < inspector_->count() && i < 9; ++i)
        shortcut(tr("Inspector: %1").arg(inspector_->tabText(i)), QKeySequence(Qt::CTRL | (Qt::Key_1 + i)),
                 [this, i] { inspector_->setCurrentIndex(i); });
    shortcut(tr("Pause the search"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P),
             [this] { steer(search::SteeringCommand::pause()); });
    shortcut(tr("Resume the search"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R),
             [this] { steer(search::SteeringCommand::resume()); });
    shortcut(tr("Export the best kernel"), QKeySequence(Qt::CTRL | Qt::Key_E),
             [this] { exportKernel(canvas_->layout().bestId()); });
}

void SearchView::updateProgress() {
    loader_->requestSpend(); // the plots redraw when the spend arrives
    loader_->requestSteering();
    refreshShownViews();
}

// The table and the params plot copy every node (and parse every node's
// params): done for the one on screen only, and again when one is shown.
void SearchView::refreshShownViews() {
    if (!views_ || !params_) return; // still being built
    if (views_->currentIndex() == 1) refreshNodeTable();
    if (inspector_->currentWidget() == params_) params_->showParams(canvas_->layout().allNodes());
}

// Every node, sortable and filterable; a row selects its node in the tree and
// the inspector, and two rows can be compared.
QWidget* SearchView::buildNodeTable() {
    auto* page = new QWidget(this);
    auto* column = new QVBoxLayout(page);
    column->setContentsMargins(0, 4, 0, 0);
    auto* bar = new QHBoxLayout;
    tableStatus_ = new QComboBox(page);
    tableStatus_->setObjectName(QStringLiteral("nodeTableStatus"));
    tableStatus_->addItem(tr("every outcome"), -1);
    tableStatus_->addItem(tr("correct"), static_cast<int>(NodeGlyph::Correct));
    tableStatus_->addItem(tr("failed (any)"), -2);
    for (auto g : report::kFailureGlyphs) tableStatus_->addItem(glyphLabel(g), static_cast<int>(g));
    tableStatus_->addItem(glyphLabel(NodeGlyph::Pending), static_cast<int>(NodeGlyph::Pending));
    tableText_ = new QLineEdit(page);
    tableText_->setObjectName(QStringLiteral("nodeTableText"));
    tableText_->setPlaceholderText(tr("VEC=8, or words in params, origin or kernel…"));
    tableText_->setClearButtonEnabled(true);
    compare_ = new QToolButton(page);
    compare_->setText(tr("Compare"));
    compare_->setToolTip(tr("Select two rows (Ctrl+click) to compare their nodes"));
    compare_->setEnabled(false);
    retime_ = new QToolButton(page);
    retime_->setObjectName(QStringLiteral("retimeSelected"));
    retime_->setText(tr("Re-time Alone"));
    retime_->setToolTip(tr("Time the selected correct nodes again, one after another on this machine, 2 s a shape: "
                           "a steadier number than the search's, beside it"));
    retime_->setEnabled(false);
    bar->addWidget(tableStatus_);
    bar->addWidget(tableText_, 1);
    bar->addWidget(retime_);
    bar->addWidget(compare_);
    column->addLayout(bar);
    nodeModel_ = new NodeTableModel(page);
    nodeProxy_ = new NodeFilterProxy(page);
    nodeProxy_->setSourceModel(nodeModel_);
    nodeTable_ = new QTableView(page);
    nodeTable_->setObjectName(QStringLiteral("nodeTable"));
    nodeTable_->setModel(nodeProxy_);
    nodeTable_->setSortingEnabled(true);
    nodeTable_->sortByColumn(NodeTableModel::Id, Qt::AscendingOrder);
    nodeTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    nodeTable_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    nodeTable_->verticalHeader()->hide();
    nodeTable_->verticalHeader()->setDefaultSectionSize(nodeTable_->fontMetrics().height() + 6);
    nodeTable_->horizontalHeader()->setStretchLastSection(true);
    column->addWidget(nodeTable_, 1);
    // A node selected in the tree is the table's current row too.
    connect(canvas_, &TreeCanvas::nodeSelected, this, [this](qint64 id) {
        const int row = nodeModel_->rowOf(id);
        if (row < 0) return;
        const auto index = nodeProxy_->mapFromSource(nodeModel_->index(row, 0));
        if (!index.isValid()) return;
        const QSignalBlocker block(nodeTable_->selectionModel());
        nodeTable_->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        nodeTable_->scrollTo(index);
        compare_->setEnabled(false);
    });
    const auto refilter = [this] { applyTableFilter(); };
    connect(tableStatus_, &QComboBox::currentIndexChanged, this, refilter);
    connect(tableText_, &QLineEdit::textChanged, this, refilter);
    connect(nodeTable_->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        const auto rows = nodeTable_->selectionModel()->selectedRows();
        compare_->setEnabled(rows.size() == 2);
        retime_->setEnabled(!rows.isEmpty());
        const auto current = nodeTable_->currentIndex();
        if (rows.size() == 1 && current.isValid()) {
            const qint64 id = nodeModel_->rowAt(nodeProxy_->mapToSource(current).row()).id;
            if (id != canvas_->selectedId()) canvas_->selectNode(id);
        }
    });
    connect(retime_, &QToolButton::clicked, this, [this] {
        std::vector<qint64> ids;
        for (const auto& index : nodeTable_->selectionModel()->selectedRows())
            ids.push_back(nodeModel_->rowAt(nodeProxy_->mapToSource(index).row()).id);
        retimeAlone(ids);
    });
    connect(compare_, &QToolButton::clicked, this, [this] {
        const auto rows = nodeTable_->selectionModel()->selectedRows();
        if (rows.size() != 2) return;
        compareNodes(nodeModel_->rowAt(nodeProxy_->mapToSource(rows[0]).row()).id,
                     nodeModel_->rowAt(nodeProxy_->mapToSource(rows[1]).row()).id);
    });
    return page;
}

void SearchView::showTable() {
    views_->setCurrentIndex(1);
}

RetimeDialog* SearchView::retimeAlone(const std::vector<qint64>& nodeIds) {
    // Only correct, timed nodes have a speedup to check; in the order of their numbers.
    std::vector<std::pair<qint64, qint64>> nodes;
    for (const qint64 id : nodeIds)
        if (const NodeSnapshot* n = canvas_->layout().node(id); n && n->glyph == NodeGlyph::Correct && n->speedup > 0)
            nodes.emplace_back(id, n->seq);
    std::sort(nodes.begin(), nodes.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    if (nodes.empty()) {
        summary_->setText(tr("Re-time alone: choose correct, timed nodes (a failed or check-only node has no speedup to check)"));
        return nullptr;
    }
    auto* dialog = new RetimeDialog(database_, searchId_, std::move(nodes), 2.0, this);
    dialog->setObjectName(QStringLiteral("retimeDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

NodeCompareDialog* SearchView::compareNodes(qint64 a, qint64 b) {
    const NodeSnapshot* x = canvas_->layout().node(a);
    const NodeSnapshot* y = canvas_->layout().node(b);
    if (!x || !y) return nullptr;
    // Parents by their number in the search, as the tree shows them.
    NodeSnapshot first = *x, second = *y;
    for (auto* n : {&first, &second})
        if (const NodeSnapshot* parent = canvas_->layout().node(n->parentId)) n->parentSeq = parent->seq;
    auto* dialog = new NodeCompareDialog(database_, searchId_, first, second, this);
    dialog->setObjectName(QStringLiteral("compareDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

void SearchView::applyTableFilter() {
    NodeTableFilter f;
    const int pick = tableStatus_->currentData().toInt();
    if (pick == -2)
        for (auto g : report::kFailureGlyphs) f.glyphs.insert(static_cast<int>(g));
    else if (pick >= 0)
        f.glyphs.insert(pick);
    f.minSpeedup = minSpeedup_->value();
    f.text = tableText_->text().trimmed();
    nodeProxy_->setNodeFilter(std::move(f));
}

// New rows keep the user's selection and sort.
void SearchView::refreshNodeTable() {
    std::vector<qint64> selected;
    for (const auto& i : nodeTable_->selectionModel()->selectedRows())
        selected.push_back(nodeModel_->rowAt(nodeProxy_->mapToSource(i).row()).id);
    if (selected.empty() && canvas_->selectedId()) selected.push_back(canvas_->selectedId()); // the tree's selection
    const QSignalBlocker block(nodeTable_->selectionModel());
    const int columns = nodeModel_->columnCount();
    nodeModel_->setRows(canvas_->layout().allNodes());
    // A new param column (or the first rows) gets widths from its contents;
    // after that the user's widths stay.
    if (nodeModel_->columnCount() != columns) nodeTable_->resizeColumnsToContents();
    // The param columns show beside the kernel, before the Params text (a
    // reset puts every section back in model order).
    auto* header = nodeTable_->horizontalHeader();
    for (int k = 0; k < static_cast<int>(nodeModel_->paramNames().size()); ++k)
        header->moveSection(header->visualIndex(NodeTableModel::ColumnCount + k), header->visualIndex(NodeTableModel::Params));
    for (qint64 id : selected)
        if (const int row = nodeModel_->rowOf(id); row >= 0)
            nodeTable_->selectionModel()->select(nodeProxy_->mapFromSource(nodeModel_->index(row, 0)),
                                                 QItemSelectionModel::Select | QItemSelectionModel::Rows);
}

// The search's steering timeline: one row a command, oldest first, with who
// posted it (CLI or workbench), when, and what applying it did.
void SearchView::showSteering(const SteeringTimeline& steering) {
    steeringEntries_ = steering;
    if (const NodeSnapshot* n = canvas_->layout().node(canvas_->selectedId())) showNodeInfo(*n);
    if (steering.empty()) {
        steering_->setHtml(tr("<p><i>Nobody has steered this search.</i></p>"));
        return;
    }
    const auto clock = clockOf;
    QString html = tr("<table cellpadding='3'><tr><th align='left'>posted (UTC)</th><th align='left'>by</th>"
                      "<th align='left'>command</th><th align='left'>applied</th><th align='left'>outcome</th></tr>");
    for (const auto& e : steering) {
        QString what = QString::fromStdString(e.verb);
        if (e.node > 0) what += QStringLiteral(" #%1").arg(e.node);
        if (!e.detail.empty()) what += QLatin1Char(' ') + QString::fromStdString(e.detail);
        const QString by = e.origin.empty() ? tr("(not recorded)") : QString::fromStdString(e.origin);
        html += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td></tr>")
                    .arg(clock(e.postedAt), by.toHtmlEscaped(), what.toHtmlEscaped(),
                         e.appliedAt.empty() ? tr("<i>pending</i>") : clock(e.appliedAt),
                         QString::fromStdString(e.outcome).toHtmlEscaped());
    }
    steering_->setHtml(html + QStringLiteral("</table>"));
    // Where each applied command took effect, on the Progress plot too.
    std::vector<ProgressPlot::SteeringMark> marks;
    for (const auto& e : steering) {
        if (e.appliedAt.empty()) continue;
        auto at = QDateTime::fromString(QString::fromStdString(e.appliedAt), Qt::ISODateWithMs);
        at.setTimeSpec(Qt::UTC);
        QString label = QString::fromStdString(e.verb);
        if (e.node > 0) label += QStringLiteral(" #%1").arg(e.node);
        marks.push_back({at, label});
    }
    progress_->setSteeringMarks(std::move(marks));
}

void SearchView::showProgress(const SpendTimeline& spend) {
    const auto& layout = canvas_->layout();
    std::vector<NodeSnapshot> nodes;
    nodes.reserve(static_cast<std::size_t>(layout.size()));
    std::map<NodeGlyph, int> counts;
    for (const auto& p : layout.placed())
        if (const NodeSnapshot* n = layout.node(p.id)) {
            nodes.push_back(*n);
            ++counts[n->glyph];
        }
    progress_->showProgress(nodes, spend);
    QStringList parts;
    for (const auto& [glyph, count] : counts) parts << QStringLiteral("%1 %2").arg(count).arg(glyphLabel(glyph));
    QString text = parts.join(QStringLiteral(" · "));
    if (!spend.empty()) {
        std::int64_t tokens = 0;
        double cost = 0;
        for (const auto& p : spend) {
            tokens += p.tokens;
            cost += p.costUsd;
        }
        text += tr(" · %1 LLM calls, %2 tokens, $%3").arg(spend.size()).arg(tokens).arg(cost, 0, 'f', 4);
    }
    progressText_->setText(text);
}

void SearchView::askResume() {
    bool ok = false;
    const qint64 done = std::max(evaluations_, budget_);
    const int n = QInputDialog::getInt(this, tr("Go on"),
                                       tr("The search has ended (%1) after %2 evaluations. Evaluations in all, "
                                          "to go on in this window:")
                                           .arg(ended_)
                                           .arg(evaluations_),
                                       static_cast<int>(std::clamp<qint64>(done + 16, 2, 1000000)),
                                       static_cast<int>(std::clamp<qint64>(evaluations_ + 1, 1, 1000000)), 1000000, 1, &ok);
    if (ok) emit resumeRequested(searchId_, n);
}

void SearchView::resumed() {
    if (ended_.isEmpty()) return;
    ended_.clear();
    setSteeringOpen(true);
    onBatch({});
}

void SearchView::setSteeringOpen(bool open) {
    for (auto* b : steeringButtons_) {
        // Budget… stays open on an ended search: it is how the search goes on.
        if (!open && b == steeringButtons_.back()) {
            b->setEnabled(true);
            b->setToolTip(tr("The search has ended (%1): give it more evaluations and it goes on in this window "
                             "(as kernelwright-cli search resume %2 --budget N)")
                              .arg(ended_)
                              .arg(searchId_));
            continue;
        }
        b->setEnabled(open);
        b->setToolTip(open ? b->property("openToolTip").toString()
                           : tr("The search has ended (%1): steering applies to a running search. "
                                "kernelwright-cli search resume %2 --budget N continues it.")
                                 .arg(ended_)
                                 .arg(searchId_));
    }
}

bool SearchView::steer(const search::SteeringCommand& command) {
    if (!ended_.isEmpty()) {
        lastRefusal_ = tr("the search has ended (%1); Budget… gives it more evaluations and it goes on").arg(ended_);
        summary_->setText(
            tr("<span style='color:%3'>%1 refused: %2</span>")
                .arg(QString::fromStdString(command.verb), lastRefusal_.toHtmlEscaped(), errorColorName(palette())));
        return false;
    }
    // A writing connection for the moment of posting: the view reads through read-only ones.
    auto posted = command;
    posted.origin = "workbench";
    auto id = search::postSteering(database_, searchId_, posted);
    if (!id) {
        lastRefusal_ = QString::fromStdString(id.error().message);
        // In the summary line, not a modal box: steering is often done in a hurry, mid-search.
        summary_->setText(tr("<span style='color:%3'>%1 refused: %2</span>")
                              .arg(QString::fromStdString(command.verb),
                                   QString::fromStdString(id.error().message).toHtmlEscaped(), errorColorName(palette())));
        return false;
    }
    summary_->setText(
        tr("%1 sent (command %2); the running search applies it").arg(QString::fromStdString(command.verb)).arg(*id));
    return true;
}

void SearchView::askHint(qint64 id) {
    QString text, label = tr("Instruction for the next expansion of node %1\n(a tuner search reads its NAME=value terms, "
                             "e.g. VEC=8, for the node's next child; a language model reads all of it):")
                              .arg(nodeLabel(id));
    for (;;) {
        bool ok = false;
        text = QInputDialog::getMultiLineText(this, tr("Hint"), label, text, &ok);
        if (!ok || text.trimmed().isEmpty()) return;
        if (steer(search::SteeringCommand::hint(id, text.trimmed().toStdString()))) return;
        // Refused: the same words come back with why, to fix or cancel.
        label = tr("Not sent: %1\nEdit and send again, or cancel.\n\nInstruction for node %2:").arg(lastRefusal_).arg(id);
    }
}

void SearchView::nodeMenu(qint64 id, QPoint globalPos) {
    const NodeSnapshot* n = canvas_->layout().node(id);
    if (!n) return;
    // Values, not the snapshot: batches keep arriving while the menu is open.
    const bool pruned = n->pruned, pinned = n->pinned;
    QMenu menu(this);
    // Steering actions, disabled once the search has ended.
    std::vector<QAction*> steering;
    steering.push_back(menu.addAction(pruned ? tr("Unprune subtree") : tr("Prune subtree"), this,
                                      [this, id, pruned] { steer(search::SteeringCommand::prune(id, !pruned)); }));
    if (pinned) {
        steering.push_back(menu.addAction(tr("Unpin"), this, [this, id] { steer(search::SteeringCommand::pin(id, false)); }));
    } else {
        steering.push_back(menu.addAction(tr("Pin (expand this node next, once)"), this,
                                          [this, id] { steer(search::SteeringCommand::pin(id, true, true)); }));
        steering.push_back(menu.addAction(tr("Pin until unpinned (every expansion)"), this,
                                          [this, id] { steer(search::SteeringCommand::pin(id, true, false)); }));
    }
    steering.push_back(menu.addAction(tr("Boost…"), this, [this, id] {
        bool ok = false;
        const double amount =
            QInputDialog::getDouble(this, tr("Boost"), tr("Priority added to node %1:").arg(nodeLabel(id)), 0.5, -10, 10, 2, &ok);
        if (ok) steer(search::SteeringCommand::boost(id, amount));
    }));
    steering.push_back(menu.addAction(tr("Hint…"), this, [this, id] { askHint(id); }));
    steering.push_back(menu.addAction(tr("Add a manual child from a file…"), this, [this, id] {
        const QString file = file_dialogs::openFileName(this, tr("Kernel source"), {},
                                                        tr("Sources (*.cpp *.cc *.cu *.py);;All files (*)"), database_);
        if (file.isEmpty()) return;
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly)) {
            QMessageBox::warning(this, tr("Add child"), tr("Cannot read %1").arg(file));
            return;
        }
        editChild(id, QString::fromUtf8(f.readAll()), QFileInfo(file).completeBaseName(),
                  tr("%1 as a manual child of node %2: check the code and its params, then submit.")
                      .arg(QFileInfo(file).fileName(), nodeLabel(id)));
    }));
    if (!ended_.isEmpty())
        for (auto* a : steering) {
            a->setEnabled(false);
            a->setToolTip(tr("The search has ended: steering applies to a running search"));
        }
    menu.setToolTipsVisible(true);
    menu.addSeparator();
    auto* retime = menu.addAction(tr("Re-time Alone…"), this, [this, id] { retimeAlone({id}); });
    if (n->glyph != NodeGlyph::Correct || n->speedup <= 0) retime->setEnabled(false);
    retime->setToolTip(tr("Time this node again on this machine, 2 s a shape, with nothing else timed beside it"));
    menu.addAction(tr("Test Knowledge Retrieval…"), this, [this, id] { emit retrievalRequested(searchId_, id); });
    menu.addAction(tr("Collapse / expand subtree"), this, [this, id] { canvas_->toggleCollapsed(id); });
    // Nothing moves under the menu, nor under a dialog one of its actions opens.
    canvas_->holdLayout(true);
    menu.exec(globalPos);
    canvas_->holdLayout(false);
}

void SearchView::showEvaluation(const NodeSnapshot& n, const inspect::NodeDetails& d) {
    timing_->clearTiming();
    timingBox_->hide(); // shown only with timings to draw: a failed node has none
    timings_.clear();
    if (!n.evaluationId) {
        evaluation_->setHtml(tr("<p><i>Not evaluated (yet).</i></p>"));
        return;
    }
    if (!d.evaluation) {
        evaluation_->setHtml(
            QStringLiteral("<p><i>%1</i></p>")
                .arg(htmlEscaped(d.evaluationError.empty() ? tr("Not evaluated (yet).").toStdString() : d.evaluationError)));
        return;
    }
    const auto* result = &*d.evaluation;
    const QString html = evaluationHtml(*result, errorColorName(palette()));
    evaluation_->setHtml(html);
    if (!result->timing.empty()) {
        timings_ = result->timing;
        const QSignalBlocker quiet(timingShape_);
        timingShape_->clear();
        for (const auto& t : timings_)
            timingShape_->addItem(t.speedup > 0
                                      ? tr("shape %1 · %2×").arg(QString::fromStdString(t.shape)).arg(t.speedup, 0, 'g', 3)
                                      : tr("shape %1").arg(QString::fromStdString(t.shape)));
        timingShape_->setCurrentIndex(0);
        timingShape_->setVisible(timings_.size() > 1);
        timing_->showTiming(timings_.front());
        timingBox_->show();
    }
}

void SearchView::showLlmCall(const NodeSnapshot& n, const inspect::NodeDetails& d) {
    if (!d.llmCall) {
        llmCall_.reset();
        llm_->setHtml(tr("<p><i>No language-model call made this node (origin: %1).</i></p>").arg(htmlEscaped(n.origin)));
        return;
    }
    llmCall_ = *d.llmCall;
    llmDocs_ = d.retrievedDocs;
    llmExpanded_.clear();
    llm_->setHtml(llmCallHtml(*llmCall_, llmDocs_, llmExpanded_, palette()));
}

} // namespace kw::ui
