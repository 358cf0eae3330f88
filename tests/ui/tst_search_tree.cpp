// The live search tree: the tidy layout, the canvas (selection, collapse,
// filters, painting), the searches model, and the follower that reads a real
// workspace on its own thread and delivers new nodes within half a second.
#include "charts/breakdown_plot.h"
#include "charts/param_plot.h"
#include "charts/roofline_plot.h"
#include "charts/timing_plot.h"
#include "editor/code_view.h"
#include "inspect/param_importance.h"
#include "models/search_list_model.h"
#include "profile/kernel_breakdown.h"
#include "report/search_report.h"
#include "report/tree_shape.h"
#include "report/tree_svg.h"
#include "search/steering.h"
#include "session/detail_loader.h"
#include "session/search_follower.h"
#include "store/database.h"
#include "store/evaluation_store.h"
#include "store/search_store.h"
#include "store_records.h"
#include "test_support.h"
#include "tree/tree_canvas.h"
#include "tree/tree_layout.h"
#include "util/files.h"
#include "widgets/evaluation_html.h"
#include "widgets/llm_call_html.h"
#include "widgets/params_form.h"
#include "widgets/profile_html.h"
#include "widgets/search_view.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QElapsedTimer>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtCore/QThread>
#include <QtGui/QImage>
#include <QtGui/QPainter>
#include <QtTest/QAbstractItemModelTester>
#include <QtTest/QSignalSpy>
#include <QtTest/QtTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QInputDialog>
#include <QtWidgets/QTabWidget>
#include <QtWidgets/QTextBrowser>
#include <QtWidgets/QToolButton>

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <set>

using namespace kw;
using namespace kw::ui;

namespace {

NodeSnapshot node(qint64 id, qint64 parent, NodeGlyph glyph = NodeGlyph::Correct, double speedup = 1.0) {
    NodeSnapshot n;
    n.id = id;
    n.parentId = parent;
    n.glyph = glyph;
    n.speedup = glyph == NodeGlyph::Correct ? speedup : 0;
    n.origin = QStringLiteral("mutation");
    return n;
}

QPointF at(const TreeLayout& l, qint64 id) {
    return l.placed()[static_cast<std::size_t>(l.indexOf(id))].center;
}

// A canvas of `size` showing all of `batch`.
void fitTree(TreeCanvas& canvas, const NodeBatch& batch, QSize size) {
    canvas.resize(size);
    canvas.applyBatch(batch);
    canvas.fitToView();
}

// One paint of the canvas, as the screen would get it (the level of detail,
// the labels and the minimap are chosen there).
QImage rendered(TreeCanvas& canvas) {
    QImage image(canvas.size(), QImage::Format_ARGB32);
    canvas.render(&image);
    return image;
}

// A workspace with one running search of one kernel source, as the engine writes them.
struct Workspace {
    std::unique_ptr<store::Database> db;
    std::int64_t searchId = 0;

    explicit Workspace(const std::filesystem::path& path) {
        auto opened = store::Database::open(path);
        if (!opened) return;
        db = std::make_unique<store::Database>(std::move(*opened));
        if (auto id = store::SearchStore(*db).createSearch(test::searchRecord("saxpy", "running"))) searchId = *id;
        (void)store::SearchStore(*db).putSource("src", "void saxpy() {}");
    }
    Result<std::int64_t> addNode(std::int64_t parent, int seq, const std::string& state = "pending") const {
        store::NodeRecord n;
        n.searchId = searchId;
        n.parentId = parent;
        n.seq = seq;
        n.origin = parent ? "mutation" : "seed";
        n.sourceName = "k";
        n.sourceHash = "src";
        n.paramsJson = "{\"U\":\"" + std::to_string(seq) + "\"}";
        n.state = state;
        return store::SearchStore(*db).insertNode(n);
    }
};

// 1 -> {2 -> {4, 5}, 3}
NodeBatch smallTree() {
    return {node(1, 0), node(2, 1, NodeGlyph::Correct, 2.0), node(3, 1, NodeGlyph::Wrong), node(4, 2, NodeGlyph::Correct, 3.5),
            node(5, 2, NodeGlyph::Pending)};
}

} // namespace

class TestSearchTree : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { qRegisterMetaType<kw::ui::NodeBatch>(); }

    void tidyLayout() {
        TreeLayout l;
        l.apply(smallTree());
        QCOMPARE(l.size(), 5);
        // Leaves take consecutive columns in creation order; depth is the row.
        QCOMPARE(at(l, 4), QPointF(0, 2));
        QCOMPARE(at(l, 5), QPointF(1, 2));
        QCOMPARE(at(l, 3), QPointF(2, 1));
        QCOMPARE(at(l, 2), QPointF(0.5, 1)); // centred over its children
        QCOMPARE(at(l, 1), QPointF(1.25, 0));
        QCOMPARE(l.bounds(), QRectF(0, 0, 3, 3));
        QCOMPARE(l.placed()[static_cast<std::size_t>(l.indexOf(4))].parentIndex, l.indexOf(2));
    }

    void bestPathAndUpdates() {
        TreeLayout l;
        l.apply(smallTree());
        QCOMPARE(l.bestId(), qint64(4));
        QCOMPARE(l.bestPath(), (std::vector<qint64>{4, 2, 1}));
        // The best node is re-reported as failed (say, after a pruning): the best moves.
        l.apply({node(4, 2, NodeGlyph::Pruned)});
        QCOMPARE(l.bestId(), qint64(2));
        QCOMPARE(l.size(), 5);
    }

    void childBeforeParentIsPlacedLater() {
        TreeLayout l;
        l.apply({node(1, 0), node(3, 2)});
        QCOMPARE(static_cast<int>(l.placed().size()), 1); // 3 waits for its parent
        l.apply({node(2, 1)});
        QCOMPARE(static_cast<int>(l.placed().size()), 3);
        QCOMPARE(at(l, 3).y(), 2.0);
    }

    void collapseHidesASubtree() {
        TreeLayout l;
        l.apply(smallTree());
        l.setCollapsed(2, true);
        QCOMPARE(static_cast<int>(l.placed().size()), 3);
        QCOMPARE(l.indexOf(4), -1);
        const auto& p = l.placed()[static_cast<std::size_t>(l.indexOf(2))];
        QVERIFY(p.collapsed);
        QCOMPARE(p.hiddenDescendants, 2);
        l.setCollapsed(2, false);
        QCOMPARE(static_cast<int>(l.placed().size()), 5);
    }

    void deepTreesDoNotOverflowTheStack() {
        TreeLayout l;
        NodeBatch chain;
        for (qint64 i = 1; i <= 100000; ++i) chain.push_back(node(i, i - 1));
        l.apply(chain);
        QCOMPARE(at(l, 100000).y(), 99999.0);
    }

    void canvasSelectsFiltersAndPaints() {
        TreeCanvas canvas;
        canvas.resize(800, 500);
        QSignalSpy selected(&canvas, &TreeCanvas::nodeSelected);
        canvas.applyBatch(smallTree());
        QVERIFY(canvas.selectNode(4));
        QCOMPARE(selected.count(), 1);
        QCOMPARE(canvas.selectedId(), qint64(4));
        QVERIFY(!canvas.selectNode(99));
        // The selected node is centred, so it is under the view's centre.
        QCOMPARE(canvas.nodeAt(QPointF(400, 250)), qint64(4));
        canvas.toggleCollapsed(2);
        QCOMPARE(canvas.layout().indexOf(4), -1);
        canvas.toggleCollapsed(2);
        TreeFilter f;
        f.minSpeedup = 3;
        canvas.setFilter(f);
        QVERIFY(f.matches(*canvas.layout().node(4)));
        QVERIFY(!f.matches(*canvas.layout().node(2)));
        f = {};
        f.hiddenGlyphs.insert(static_cast<int>(NodeGlyph::Wrong));
        QVERIFY(!f.matches(*canvas.layout().node(3)));
        // Painting (zoomed in, fitted, zoomed far out) must not fail and must draw something.
        for (double zoom : {1.0, 4.0, 0.01}) {
            canvas.fitToView();
            canvas.zoomBy(zoom, QPointF(400, 250));
            QImage image(canvas.size(), QImage::Format_ARGB32);
            image.fill(Qt::black);
            canvas.render(&image);
            QVERIFY(image.pixelColor(400, 250).isValid());
        }
        // Zoomed far out (a fitted large tree), selecting the best zooms in to
        // a scale where its label shows, with the node under the centre.
        canvas.zoomBy(0.01, QPointF(400, 250));
        QVERIFY(canvas.scale() < 1);
        QVERIFY(canvas.selectNode(canvas.layout().bestId()));
        QVERIFY(canvas.scale() * 0.35 >= 9);
        QCOMPARE(canvas.nodeAt(QPointF(400, 250)), canvas.layout().bestId());
        QVERIFY(TreeCanvas::speedupColor(4, 4) != TreeCanvas::speedupColor(1.1, 4));
    }

    // Follow-live: new nodes come into view until the user moves the view
    // (here a zoom key); then the view stays where the user put it, until Fit (F).
    void viewFollowsTheGrowingTreeUntilMoved() {
        TreeCanvas canvas;
        canvas.resize(800, 500);
        canvas.applyBatch({node(1, 0)});
        QVERIFY(canvas.following());
        const auto inView = [&](qint64 id) { return QRectF(canvas.rect()).contains(canvas.toScreen(at(canvas.layout(), id))); };
        NodeBatch wide;
        for (qint64 id = 2; id <= 40; ++id) wide.push_back(node(id, 1, NodeGlyph::Correct, 1.0 + id / 10.0));
        canvas.applyBatch(wide);
        for (qint64 id = 1; id <= 40; ++id) QVERIFY2(inView(id), qPrintable(QStringLiteral("node %1 out of view").arg(id)));
        QTest::keyClick(&canvas, Qt::Key_Plus);
        QTest::keyClick(&canvas, Qt::Key_Plus);
        QVERIFY(!canvas.following());
        const double scale = canvas.scale();
        const QPointF origin = canvas.toScreen(QPointF(0, 0));
        NodeBatch more;
        for (qint64 id = 41; id <= 60; ++id) more.push_back(node(id, 2));
        canvas.applyBatch(more);
        QCOMPARE(canvas.scale(), scale); // the user's view stays
        QCOMPARE(canvas.toScreen(QPointF(0, 0)), origin);
        QTest::keyClick(&canvas, Qt::Key_F);
        QVERIFY(canvas.following());
        for (qint64 id = 1; id <= 60; ++id) QVERIFY(inView(id));
    }

    // Fit: a deep, narrow tree stands beside the legend, as tall as the view,
    // rather than shrunk above it; no node under the legend either way.
    void aNarrowTreeFitsBesideTheLegend() {
        TreeCanvas canvas;
        canvas.resize(700, 420);
        NodeBatch chain{node(1, 0)};
        for (qint64 id = 2; id <= 9; ++id) chain.push_back(node(id, id - 1, NodeGlyph::Correct, 1.0 + id / 10.0));
        canvas.applyBatch(chain);
        const QRectF legend = canvas.legendRect();
        double top = 1e9, bottom = -1e9;
        for (qint64 id = 1; id <= 9; ++id) {
            const QPointF at = canvas.toScreen(::at(canvas.layout(), id));
            QVERIFY2(!legend.adjusted(-6, -6, 6, 6).contains(at), qPrintable(QStringLiteral("node %1 under the legend").arg(id)));
            QVERIFY(QRectF(canvas.rect()).contains(at));
            top = std::min(top, at.y());
            bottom = std::max(bottom, at.y());
        }
        QVERIFY2(bottom - top > 0.6 * canvas.height(), qPrintable(QStringLiteral("the tree spans %1 px").arg(bottom - top)));
    }

    // A speedup whose 95 % interval holds 1x is badged "?", one whose ends
    // are far apart "±"; a tight one and one never timed are not.
    void noisySpeedupsAreBadged() {
        auto tight = node(2, 1, NodeGlyph::Correct, 2.0), unsure = node(3, 1, NodeGlyph::Correct, 1.03),
             noisy = node(4, 1, NodeGlyph::Correct, 3.0), checked = node(5, 1, NodeGlyph::Correct, 0);
        std::tie(tight.intervalLow, tight.intervalHigh) = std::pair{1.9, 2.1};
        std::tie(unsure.intervalLow, unsure.intervalHigh) = std::pair{0.41, 4.01};
        std::tie(noisy.intervalLow, noisy.intervalHigh) = std::pair{1.6, 5.0};
        QCOMPARE(speedupTrust(tight), SpeedupTrust::Apart);
        QCOMPARE(speedupTrust(unsure), SpeedupTrust::Unsure);
        QCOMPARE(speedupTrust(noisy), SpeedupTrust::Noisy);
        QCOMPARE(speedupTrust(checked), SpeedupTrust::Unknown);
        QVERIFY(trustText(unsure).contains(QStringLiteral("not told apart from the reference")));
        TreeCanvas canvas;
        canvas.resize(800, 500);
        canvas.applyBatch({node(1, 0), tight, unsure, noisy, checked});
        canvas.fitToView();
        QImage image(canvas.size(), QImage::Format_ARGB32);
        canvas.render(&image);
        auto badges = canvas.drawnBadges();
        std::sort(badges.begin(), badges.end());
        QCOMPARE(badges, (std::vector<std::pair<qint64, SpeedupTrust>>{{3, SpeedupTrust::Unsure}, {4, SpeedupTrust::Noisy}}));
        if (const char* dir = std::getenv("KW_SCREENSHOT_DIR")) canvas.grab().save(QString::fromUtf8(dir) + "/tree-badges.png");
    }

    // The minimap shows only when nodes are out of view, folds to a tab (its
    // button or M) and a click in its corner selects nodes when it is not
    // there; zoomed in, node numbers are drawn inside the glyphs.
    void minimapFoldsAndNumbersShow() {
        NodeBatch wide{node(1, 0)};
        for (int i = 0; i < 60; ++i) wide.push_back(node(2 + i, 1, NodeGlyph::Correct, 1.0 + i * 0.01));
        for (auto& n : wide) n.seq = n.id;
        TreeCanvas canvas;
        fitTree(canvas, wide, QSize(800, 500));
        QImage image = rendered(canvas);
        QVERIFY(!canvas.minimapShown()); // all in view
        QVERIFY(canvas.selectNode(30));  // zooms in: the rest is out of view
        canvas.render(&image);
        QVERIFY(canvas.minimapShown() && !canvas.minimapFolded());
        QTest::mouseClick(&canvas, Qt::LeftButton, Qt::NoModifier, QPoint(800 - 16, 16)); // its fold button
        QVERIFY(canvas.minimapFolded());
        QTest::keyClick(&canvas, Qt::Key_M);
        QVERIFY(!canvas.minimapFolded());
        canvas.render(&image);
        // The selected node's number is drawn inside it: its centre is not the fill colour.
        const QPointF c = canvas.toScreen(at(canvas.layout(), 30));
        const QColor fill = TreeCanvas::speedupColor(canvas.layout().node(30)->speedup, canvas.layout().bestSpeedup());
        bool text = false;
        for (int dx = -4; dx <= 4 && !text; ++dx)
            for (int dy = -3; dy <= 3 && !text; ++dy) {
                const QColor px = image.pixelColor(static_cast<int>(c.x()) + dx, static_cast<int>(c.y()) + dy);
                text = std::abs(px.red() - fill.red()) + std::abs(px.green() - fill.green()) + std::abs(px.blue() - fill.blue()) >
                       120;
            }
        QVERIFY2(text, "no number drawn in the node");
    }

    // The Profile tab's roofline: the node, its parent and the search's best
    // against the roofs they were measured with; no point without a flop count.
    void rooflinePlotPlacesTheNodeItsParentAndTheBest() {
        inspect::ProfileSummary node, parent, best, noFlops;
        for (auto* p : {&node, &parent, &best, &noFlops}) {
            p->hasRoofline = true;
            p->roofBandwidthGBs = 20;
            p->roofGflops = 276;
        }
        node.intensity = parent.intensity = 0.17;
        node.gflops = 2.4;
        parent.gflops = 1.2;
        best.intensity = 0.5;
        best.gflops = 8;
        noFlops.gbs = 12;
        RooflinePlot plot;
        plot.resize(500, 300);
        QVERIFY(plot.showProfiles(node, parent, best));
        QCOMPARE(plot.pointsDrawn(), 3);
        QCOMPARE(plot.graphCount(), 4);                                                    // the roof and three points
        QVERIFY(plot.xAxis->range().contains(13.8) && plot.xAxis->range().contains(0.17)); // the ridge and the points
        QVERIFY(plot.showProfiles(node, std::nullopt, std::nullopt));
        QCOMPARE(plot.pointsDrawn(), 1);
        QVERIFY(!plot.showProfiles(noFlops, parent, best));
        QVERIFY(!hasRooflinePoint(noFlops));
        if (const char* dir = std::getenv("KW_SCREENSHOT_DIR")) {
            plot.showProfiles(node, parent, best);
            plot.grab().save(QString::fromUtf8(dir) + "/roofline_plot.png");
        }
    }

    // The node table names each node's parent by the number the tree shows.
    void allNodesCarryTheirParentsNumber() {
        TreeLayout layout;
        NodeBatch batch{node(10, 0), node(20, 10), node(30, 20)};
        for (auto& n : batch) n.seq = n.id / 10;
        layout.apply(batch);
        const auto all = layout.allNodes();
        QCOMPARE(all.size(), std::size_t(3));
        QCOMPARE(all[0].parentSeq, qint64{0}); // a root
        QCOMPARE(all[1].parentSeq, qint64{1});
        QCOMPARE(all[2].parentSeq, qint64{2});
    }

    // A GPU node's kernels as bars, from the breakdown the H100 judge stored
    // for the RMSNorm backward seed (its two kernels) and a synthetic call of
    // many launches (the ninth and later summed into one bar).
    void breakdownPlotShowsEachKernel() {
        auto stored = readTextFile(test::dataDir() / "ncu/h100-judge/gpu_rmsnorm_bwd_breakdown.json");
        QVERIFY(stored);
        inspect::ProfileSummary p;
        p.breakdown = profile::breakdownFromJson(nlohmann::json::parse(*stored));
        QVERIFY(p.breakdown);
        BreakdownPlot plot;
        plot.resize(520, 160);
        QVERIFY(plot.showBreakdown(p));
        QCOMPARE(plot.barsDrawn(), 2);
        QVERIFY(plot.xAxis->range().upper > p.breakdown->entries[0].us); // the longest bar fits
        QVERIFY(plot.xAxis->label().contains(QStringLiteral("2 launches")));
        if (const char* dir = std::getenv("KW_SCREENSHOT_DIR")) plot.grab().save(QString::fromUtf8(dir) + "/breakdown_plot.png");
        inspect::ProfileSummary many;
        many.breakdown.emplace();
        for (int i = 0; i < 12; ++i)
            many.breakdown->entries.push_back({"k" + std::to_string(i), i == 11 ? "copy" : "kernel", 1, 12.0 - i});
        many.breakdown->launches = 12;
        QVERIFY(plot.showBreakdown(many));
        QCOMPARE(plot.barsDrawn(), 9);
        QVERIFY(!plot.showBreakdown(inspect::ProfileSummary{})); // a CPU node: no bars
    }

    // The Profile page: the dominant kernel's ncu metrics beside the nearest
    // ancestor's that ran ncu (a changed value in bold), the diagnosis with
    // its evidence.
    void profilePageShowsNcuMetricsBesideTheParent() {
        inspect::NodeDetails d;
        inspect::ProfileSummary node, parent;
        node.level = "ncu";
        node.ncuKernel = "rmsnorm_fwd";
        node.ncuMetrics = {{"DRAM throughput (%)", 88.0}, {"registers per thread", 40.0}, {"local-memory bytes (spills)", -1}};
        node.findings = {{"memory_bound", "DRAM throughput at 88% of peak (ncu, rmsnorm_fwd)"}};
        parent.ncuMetrics = {{"DRAM throughput (%)", 61.0}, {"registers per thread", 40.0}};
        d.profile = node;
        d.parentProfile = parent;
        d.ncuBaseline = parent;
        d.ncuBaselineSeq = 3;
        d.ncuBaselineIsParent = true;
        const QString html = profileHtml(d);
        QVERIFY(html.contains(QStringLiteral("Nsight Compute: rmsnorm_fwd")));
        QVERIFY2(html.contains(QStringLiteral("#3 (parent)")), qPrintable(html));
        QVERIFY2(html.contains(QStringLiteral("<b>88</b>")) && html.contains(QStringLiteral(">61<")), qPrintable(html));
        QVERIFY(!html.contains(QStringLiteral("<b>40</b>"))); // unchanged: not bold
        QVERIFY(html.contains(QStringLiteral("memory_bound")) && html.contains(QStringLiteral("88% of peak")));
        // A parent without ncu: the column is the ancestor's that ran it.
        d.parentProfile = inspect::ProfileSummary{};
        d.ncuBaselineSeq = 1;
        d.ncuBaselineIsParent = false;
        const QString fromAncestor = profileHtml(d);
        QVERIFY2(fromAncestor.contains(QStringLiteral("#1 (ancestor)")) && fromAncestor.contains(QStringLiteral(">61<")),
                 qPrintable(fromAncestor));
        d.ncuBaseline.reset(); // none ran it: the column says so with dashes
        QVERIFY(!profileHtml(d).contains(QStringLiteral(">61<")));
        // A GPU node: whose kernels its call ran, and the call's kernels.
        profile::KernelBreakdown b;
        b.shape = "prod";
        b.launches = 2;
        b.deviceUs = 400;
        b.entries = {{"sm90_xmma_fprop_implicit_gemm", "kernel", 1, 300.0},
                     {"fused_bias_relu(float const*)", "kernel", 1, 100.0}};
        d.profile->breakdown = b;
        d.profile->provenance = profile::provenanceOf(b, "__global__ void fused_bias_relu(const float* x) {}");
        const QString gpu = profileHtml(d);
        QVERIFY2(gpu.contains(QStringLiteral("own kernels 25.0 %")) && gpu.contains(QStringLiteral("library 75.0 %")),
                 qPrintable(gpu));
        QVERIFY2(gpu.contains(QStringLiteral("2 launches")) && gpu.contains(QStringLiteral("75.0%")), qPrintable(gpu));
        if (const char* dir = std::getenv("KW_SCREENSHOT_DIR")) {
            QTextBrowser page;
            page.resize(720, 520);
            page.setHtml(gpu);
            page.grab().save(QString::fromUtf8(dir) + "/profile_page_gpu.png");
        }
        d.profile.reset();
        QVERIFY(profileHtml(d).contains(QStringLiteral("No profile")));
    }

    // The Evaluation tab says how far a speedup can be trusted where the
    // judge measured it: the 95 % interval and the rounds behind it.
    void evaluationPageGivesTheSpeedupsInterval() {
        eval::EvaluationResult r;
        r.status = eval::EvalStatus::Ok;
        r.message = "correct";
        eval::TimingCase t;
        t.shape = "large";
        t.speedup = 1.04;
        t.reps = 87;
        t.candidate.median = 14e-3;
        t.speedupInterval = {0.99, 1.08};
        r.timing.push_back(t);
        const QString html = evaluationHtml(r, QStringLiteral("red"));
        QVERIFY2(html.contains(QStringLiteral("1.04× over the reference (95% interval 0.99–1.08×, 87 rounds)")),
                 qPrintable(html));
        QVERIFY2(!html.contains(QStringLiteral("room")), qPrintable(html)); // a C++ judge's: no room given
        r.timing[0].clock["device_room_bytes"] = 17179869184.0;             // the torch judge's: 16 GiB each
        const QString torch = evaluationHtml(r, QStringLiteral("red"));
        QVERIFY2(torch.contains(QStringLiteral("87 rounds); each kernel's room on the device: 16.0 GiB</p>")), qPrintable(torch));
        r.timing[0].clock.erase("device_room_bytes");
        r.timing[0].speedupInterval = {0, 0}; // a result stored before the judge gave one
        const QString older = evaluationHtml(r, QStringLiteral("red"));
        QVERIFY2(older.contains(QStringLiteral("1.04× over the reference</p>")) && !older.contains(QStringLiteral("interval")),
                 qPrintable(older));
    }

    // Nothing moves under the user's hand: while the pointer moves on the
    // tree (or a menu holds it), new nodes wait and updates of placed nodes
    // show in place; once the pointer leaves, the new nodes are laid out.
    void layoutHoldsStillUnderThePointer() {
        TreeCanvas canvas;
        canvas.resize(800, 500);
        canvas.applyBatch(smallTree());
        const int before = canvas.layout().size();
        const QPointF where = at(canvas.layout(), 4);
        QEnterEvent enter(QPointF(400, 250), QPointF(400, 250), QPointF(400, 250));
        QCoreApplication::sendEvent(&canvas, &enter);
        QTest::mouseMove(&canvas, QPoint(400, 250));
        QVERIFY(canvas.layoutHeld());
        auto changed = node(3, 1, NodeGlyph::Correct, 7.0); // an update of a placed node
        canvas.applyBatch({changed, node(100, 1), node(101, 100)});
        QCOMPARE(canvas.layout().size(), before); // the new ones wait
        QCOMPARE(canvas.waitingNodes(), 2);
        QCOMPARE(canvas.layout().node(3)->speedup, 7.0); // the update shows
        QCOMPARE(at(canvas.layout(), 4), where);         // nothing moved
        QEvent leave(QEvent::Leave);
        QCoreApplication::sendEvent(&canvas, &leave);
        QCOMPARE(canvas.waitingNodes(), 0);
        QCOMPARE(canvas.layout().size(), before + 2);
        // A menu holds it whatever the pointer does, until it closes.
        canvas.holdLayout(true);
        canvas.applyBatch({node(102, 1)});
        QCOMPARE(canvas.waitingNodes(), 1);
        canvas.holdLayout(false);
        QCOMPARE(canvas.waitingNodes(), 0);
        QVERIFY(canvas.layout().node(102));
    }

    // Sibling labels never run together: where they would overlap, some are
    // left out (the best path's and the selected node's are kept).
    void labelsNeverOverlap() {
        NodeBatch wide{node(1, 0, NodeGlyph::Correct, 1.0)};
        for (int i = 0; i < 40; ++i) wide.push_back(node(2 + i, 1, NodeGlyph::Correct, 1.0 + 0.137 * i));
        TreeCanvas canvas;
        fitTree(canvas, wide, QSize(900, 500));
        canvas.zoomBy(40.0 / canvas.scale(), QPointF(450, 250)); // radius 14: labels wider than a column
        QVERIFY(canvas.selectNode(10));
        canvas.zoomBy(40.0 / canvas.scale(), QPointF(450, 250));
        rendered(canvas);
        const auto& drawn = canvas.drawnLabels();
        QVERIFY(drawn.size() >= 3);
        QVERIFY(drawn.size() < 40); // some left out
        for (std::size_t a = 0; a < drawn.size(); ++a)
            for (std::size_t b = a + 1; b < drawn.size(); ++b) QVERIFY2(!drawn[a].intersects(drawn[b]), "two labels overlap");
        // The selected node's label is among them, under its node.
        const QPointF c = canvas.toScreen(at(canvas.layout(), 10));
        QVERIFY(std::any_of(drawn.begin(), drawn.end(), [&](const QRectF& r) { return std::abs(r.center().x() - c.x()) < 1; }));
    }

    // Level of detail: a fitted 20,000-node tree draws at most kMaxDrawn
    // nodes one by one and the rest as subtree glyphs whose counts add up to
    // the tree; the way to the best node stays drawn; a double click opens a
    // glyph; zoomed in, every node in view is drawn again.
    void largeTreesAggregateIntoSubtreeGlyphs() {
        NodeBatch big;
        std::uint64_t r = 7;
        for (int i = 1; i <= 20000; ++i) {
            r = r * 6364136223846793005ULL + 1442695040888963407ULL;
            const qint64 parent = i <= 3 ? 0 : std::max<qint64>(1, i - 1 - static_cast<qint64>((r >> 33) % 200));
            const bool fails = (r >> 20) % 5 == 0;
            big.push_back(node(i, parent, fails ? NodeGlyph::CompileError : NodeGlyph::Correct,
                               fails ? 0 : 1.0 + (r >> 40) % 1000 / 100.0));
        }
        big.push_back(node(20001, 19000, NodeGlyph::Correct, 50.0)); // the best, deep in the tree
        TreeCanvas canvas;
        fitTree(canvas, big, QSize(1200, 800));
        QImage image = rendered(canvas);
        const auto& glyphs = canvas.subtreeGlyphs();
        QVERIFY(!glyphs.empty());
        // At most kMaxDrawn, and the children of the nodes on the way to the best.
        const auto path = canvas.layout().bestPath();
        int kept = 0;
        for (const auto& pn : canvas.layout().placed())
            if (pn.parentIndex >= 0 &&
                std::count(path.begin(), path.end(), canvas.layout().placed()[static_cast<std::size_t>(pn.parentIndex)].id))
                ++kept;
        QVERIFY2(canvas.drawnNodes() <= TreeCanvas::kMaxDrawn + kept,
                 qPrintable(QStringLiteral("%1 drawn, %2 kept").arg(canvas.drawnNodes()).arg(kept)));
        int inGlyphs = 0, failures = 0;
        for (const auto& g : glyphs) {
            inGlyphs += g.nodes - 1; // the root is drawn itself
            failures += g.failures;
            QVERIFY(g.box.width() > 0 && g.box.height() > 0);
        }
        QCOMPARE(inGlyphs + canvas.drawnNodes(), 20001);
        QVERIFY(failures > 0);
        QCOMPARE(canvas.layout().bestId(), qint64{20001});
        // The best node is not inside any glyph: it is drawn, and a click finds it.
        const QPointF best = canvas.toScreen(at(canvas.layout(), 20001));
        QCOMPARE(canvas.nodeAt(best), qint64{20001});
        // A double click on a glyph opens it: that subtree is drawn one level deeper.
        const SubtreeGlyph first =
            *std::max_element(glyphs.begin(), glyphs.end(), [](const SubtreeGlyph& a, const SubtreeGlyph& b) {
                return a.box.width() * a.box.height() < b.box.width() * b.box.height();
            });
        QCOMPARE(canvas.nodeAt(first.box.center()), qint64{0});
        QTest::mouseDClick(&canvas, Qt::LeftButton, Qt::NoModifier, first.box.center().toPoint());
        canvas.render(&image);
        QVERIFY(std::none_of(canvas.subtreeGlyphs().begin(), canvas.subtreeGlyphs().end(),
                             [&](const SubtreeGlyph& g) { return g.root == first.root; }));
        // Zoomed in, few nodes are in view and all of them are drawn.
        canvas.zoomBy(200, QPointF(600, 400));
        canvas.render(&image);
        QVERIFY(canvas.subtreeGlyphs().empty());
        QVERIFY(canvas.drawnNodes() < TreeCanvas::kMaxDrawn);
        if (const char* dir = std::getenv("KW_SCREENSHOT_DIR")) {
            canvas.fitToView();
            canvas.render(&image);
            image.save(QString::fromUtf8(dir) + "/tree_level_of_detail.png");
        }
    }

    // Every failure kind has a glyph, a name and a colour of its own; a synth
    // error (no kernel) is not a compile error and not the candidate's fault.
    void everyFailureHasItsOwnGlyph() {
        using eval::EvalStatus;
        std::set<int> glyphs;
        std::set<std::string> names, colours;
        for (auto s : {EvalStatus::CompileError, EvalStatus::RuntimeError, EvalStatus::Timeout, EvalStatus::WrongAnswer,
                       EvalStatus::Oom, EvalStatus::SandboxViolation, EvalStatus::InfraError, EvalStatus::SynthError}) {
            const auto g = report::glyphOf(tree::NodeState::Done, s, false);
            glyphs.insert(static_cast<int>(g));
            names.insert(report::glyphName(g));
            colours.insert(report::glyphColor(g).hex());
        }
        QCOMPARE(glyphs.size(), std::size_t{8});
        QCOMPARE(names.size(), std::size_t{8});
        QCOMPARE(colours.size(), std::size_t{8});
        QVERIFY(!report::candidateFault(report::Glyph::SynthError));
        QVERIFY(!report::candidateFault(report::Glyph::Infra));
        QVERIFY(report::candidateFault(report::Glyph::Timeout));
        // The legend folds away with a click, and back.
        TreeCanvas canvas;
        canvas.resize(800, 500);
        canvas.applyBatch(smallTree());
        QVERIFY(canvas.legendExpanded());
        QTest::mouseClick(&canvas, Qt::LeftButton, {}, QPoint(20, 500 - 20));
        QVERIFY(!canvas.legendExpanded());
        QTest::mouseClick(&canvas, Qt::LeftButton, {}, QPoint(20, 500 - 20));
        QVERIFY(canvas.legendExpanded());
    }

    // The LLM tab: text wraps, the reply's code is coloured, and the prompt's
    // sections are folded until clicked.
    void llmCallPageFoldsThePromptAndColoursTheReply() {
        store::LlmCallRecord call;
        call.modelName = "m";
        call.provider = "p";
        call.prompt = "You write kernels.\n## Problem\nthe problem text\n## Kernel\nthe kernel text\n";
        call.reply = "A faster loop:\n```python\ndef forward(x):  # fused\n    return x\n```\nDone.";
        const auto sections = promptSections(QString::fromStdString(call.prompt));
        QCOMPARE(sections.size(), std::size_t{3});
        QCOMPARE(sections[1].title, QStringLiteral("Problem"));
        QCOMPARE(sections[2].title, QStringLiteral("Kernel"));
        const QPalette palette;
        store::RetrievedDoc doc;
        doc.docId = "hopper/tma.md";
        doc.title = "Tensor Memory Accelerator";
        doc.section = "Bulk copies";
        doc.score = 2.5;
        doc.reason = "trigger memory_bound";
        const QString folded = llmCallHtml(call, {doc}, {}, palette);
        QVERIFY(folded.contains(QStringLiteral("section:1")) && folded.contains(QStringLiteral("section:2")));
        QVERIFY(!folded.contains(QStringLiteral("the problem text")));
        QVERIFY(folded.contains(QStringLiteral("pre-wrap")));
        QVERIFY(folded.contains(QStringLiteral("<b>def</b>")) && folded.contains(QStringLiteral("# fused")));
        // Retrieved documents by title, with their section, id and why.
        QVERIFY(folded.contains(QStringLiteral("<b>Tensor Memory Accelerator</b>")));
        QVERIFY(folded.contains(QStringLiteral("Bulk copies")) && folded.contains(QStringLiteral("hopper/tma.md")));
        QVERIFY(folded.contains(QStringLiteral("trigger memory_bound")));
        const QString open = llmCallHtml(call, {}, {1}, palette);
        QVERIFY(open.contains(QStringLiteral("the problem text")) && !open.contains(QStringLiteral("the kernel text")));
    }

    // Param importance: a param that decides the speedup explains all of its
    // variance, one that does not explains none; the plot draws a line per
    // correct node across the params' axes.
    void paramImportanceAndParallelCoordinates() {
        std::vector<inspect::ParamSample> samples;
        for (int vec : {4, 8, 16})
            for (const char* order : {"a", "b"}) samples.push_back({{{"VEC", std::to_string(vec)}, {"ORDER", order}}, vec / 4.0});
        const auto imp = inspect::paramImportance(samples);
        QCOMPARE(imp.size(), std::size_t{2});
        QCOMPARE(imp[0].name, std::string("VEC"));
        QVERIFY(std::abs(imp[0].importance - 1.0) < 1e-9);
        QVERIFY(std::abs(imp[1].importance) < 1e-9);
        QCOMPARE(imp[0].values, (std::vector<std::string>{"4", "8", "16"})); // numbers in numeric order

        NodeBatch nodes;
        for (std::size_t i = 0; i < samples.size(); ++i) {
            auto n = node(static_cast<qint64>(i + 1), i ? 1 : 0, NodeGlyph::Correct, samples[i].speedup);
            nlohmann::json p;
            for (const auto& [k, v] : samples[i].params) p[k] = v;
            n.params = QString::fromStdString(p.dump());
            nodes.push_back(n);
        }
        nodes.push_back(node(99, 1, NodeGlyph::Wrong)); // failures draw no line
        ParamPlot plot;
        plot.resize(600, 400);
        plot.showParams(std::vector<NodeSnapshot>(nodes.begin(), nodes.end()));
        QCOMPARE(plot.linesDrawn(), 6);
        QCOMPARE(plot.importance().front().name, std::string("VEC"));

        // Brushing: a click on the VEC axis at 8 keeps the two VEC=8 lines;
        // ORDER=b as well keeps one; the filter is the node table's.
        QSignalSpy brushed(&plot, &ParamPlot::brushChanged);
        plot.replot();
        const auto* axes = plot.axisRects().front();
        const QPoint at(static_cast<int>(axes->axis(QCPAxis::atBottom)->coordToPixel(0)),
                        static_cast<int>(axes->axis(QCPAxis::atLeft)->coordToPixel(0.5))); // VEC's middle value, 8
        QTest::mouseClick(&plot, Qt::LeftButton, {}, at);
        QCOMPARE(brushed.count(), 1);
        QCOMPARE(plot.brushFilter(), QStringLiteral("VEC=8"));
        QCOMPARE(plot.linesBrushed(), 2);
        plot.toggleBrush("ORDER", "b");
        QCOMPARE(plot.brushFilter(), QStringLiteral("ORDER=b VEC=8"));
        QCOMPARE(plot.linesBrushed(), 1);
        QCOMPARE(plot.linesDrawn(), 6); // the others are drawn, faint
        plot.toggleBrush("VEC", "8");
        QCOMPARE(plot.brushFilter(), QStringLiteral("ORDER=b"));
        plot.toggleBrush("VEC", "1024"); // not a value of the search: nothing changes
        QCOMPARE(plot.brushFilter(), QStringLiteral("ORDER=b"));
        if (const char* dir = std::getenv("KW_SCREENSHOT_DIR")) plot.grab().save(QString::fromUtf8(dir) + "/params-brushed.png");
        plot.clearBrush();
        QCOMPARE(plot.brushFilter(), QString());
        QCOMPARE(brushed.last().first().toString(), QString());
    }

    void canvasKeyboardNavigation() {
        TreeCanvas canvas;
        canvas.resize(800, 500);
        canvas.applyBatch(smallTree()); // 1 → {2, 3}, 2 → {4, 5}
        QCOMPARE(canvas.neighbour(4, Qt::Key_Up), qint64(2));
        QCOMPARE(canvas.neighbour(2, Qt::Key_Down), qint64(4));
        QCOMPARE(canvas.neighbour(4, Qt::Key_Right), qint64(5));
        QCOMPARE(canvas.neighbour(5, Qt::Key_Left), qint64(4));
        QCOMPARE(canvas.neighbour(2, Qt::Key_Right), qint64(3));
        QCOMPARE(canvas.neighbour(1, Qt::Key_Up), qint64(0));
        QCOMPARE(canvas.neighbour(3, Qt::Key_Down), qint64(0));
        QCOMPARE(canvas.neighbour(4, Qt::Key_Left), qint64(0));
        // The keys themselves: from nothing selected the arrows start at the root.
        QSignalSpy selected(&canvas, &TreeCanvas::nodeSelected);
        QTest::keyClick(&canvas, Qt::Key_Down);
        QCOMPARE(canvas.selectedId(), qint64(1));
        QTest::keyClick(&canvas, Qt::Key_Down);
        QTest::keyClick(&canvas, Qt::Key_Down);
        QCOMPARE(canvas.selectedId(), qint64(4));
        QTest::keyClick(&canvas, Qt::Key_Right);
        QCOMPARE(canvas.selectedId(), qint64(5));
        QCOMPARE(selected.count(), 4);
        QTest::keyClick(&canvas, Qt::Key_Up);
        QTest::keyClick(&canvas, Qt::Key_C); // collapses the selected subtree
        QCOMPARE(canvas.layout().indexOf(4), -1);
        QSignalSpy activated(&canvas, &TreeCanvas::nodeActivated);
        QTest::keyClick(&canvas, Qt::Key_Return);
        QCOMPARE(activated.count(), 1);
    }

    void treeAsSvg() {
        TreeLayout l;
        l.apply(smallTree());
        const QString svg = QString::fromStdString(report::treeSvg(l.shape()));
        QVERIFY(svg.startsWith(QStringLiteral("<?xml")));
        QCOMPARE(svg.count(QStringLiteral("<circle")), 5);
        QCOMPARE(svg.count(QStringLiteral("<line")), 4);
        QVERIFY(svg.contains(QStringLiteral("node 4: correct, 3.5x")));
        QCOMPARE(svg.count(QStringLiteral("stroke=\"#ffb300\"")), 2); // the best path: 1-2-4
    }

    void searchListModel() {
        SearchListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        store::SearchRecord a;
        a.id = 3;
        a.problem = "softmax";
        a.status = "finished";
        a.stopReason = "budget";
        a.evaluations = 64;
        a.bestSpeedup = 12.5;
        a.configJson = R"({"policy":"mcts","synth":"tuner","max_evaluations":64})";
        a.createdAt = "2026-11-22T10:00:00.000Z";
        model.setSearches({SearchRow::fromRecord(a)});
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, SearchListModel::Status).data().toString(), QStringLiteral("finished (budget)"));
        QCOMPARE(model.index(0, SearchListModel::Evaluations).data().toString(), QStringLiteral("64 / 64"));
        QVERIFY(model.index(0, SearchListModel::Best).data().toString().startsWith(QStringLiteral("12")));
        QCOMPARE(model.index(0, SearchListModel::Policy).data().toString(), QStringLiteral("mcts, tuner"));
        QCOMPARE(model.rowOf(3), 0);
        QCOMPARE(model.rowOf(4), -1);

        // Marked running by a process that is gone: interrupted, with what to do.
        QProcess gone;
        gone.start(QStringLiteral("sleep"), {QStringLiteral("30")});
        QVERIFY(gone.waitForStarted(10000));
        const qint64 deadPid = gone.processId();
        gone.kill();
        QVERIFY(gone.waitForFinished(10000)); // reaped: no process has that pid now
        store::SearchRecord b = a;
        b.id = 4;
        b.status = "running";
        b.stopReason.clear();
        b.ownerPid = deadPid;
        store::SearchRecord mine = b;
        mine.id = 5;
        mine.ownerPid = QCoreApplication::applicationPid(); // this process runs it
        QProcess other;                                     // another live process runs it
        other.start(QStringLiteral("sleep"), {QStringLiteral("30")});
        QVERIFY(other.waitForStarted(10000));
        store::SearchRecord elsewhere = b;
        elsewhere.id = 6;
        elsewhere.ownerPid = other.processId();
        model.setSearches({SearchRow::fromRecord(b), SearchRow::fromRecord(mine), SearchRow::fromRecord(elsewhere)});
        QCOMPARE(model.index(0, SearchListModel::Status).data().toString(), QStringLiteral("interrupted"));
        QVERIFY(
            model.index(0, SearchListModel::Status).data(Qt::ToolTipRole).toString().contains(QStringLiteral("search resume 4")));
        QCOMPARE(model.index(1, SearchListModel::Status).data().toString(), QStringLiteral("running"));
        QCOMPARE(model.index(2, SearchListModel::Status).data().toString(), QStringLiteral("running"));
        other.kill();
        other.waitForFinished(10000);
        model.setSearches({});
        QCOMPARE(model.rowCount(), 0);

        // What people keep: the name (notes as its tool tip), the tags; an
        // archived search held back until asked for.
        store::SearchRecord named = a, archived = a;
        named.label = "unroll sweep";
        named.notes = "VEC=8 looked best";
        named.tags = {"VEC=8", "sweep:v2"};
        archived.id = 2;
        archived.archived = true;
        model.setSearches({SearchRow::fromRecord(named), SearchRow::fromRecord(archived)});
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.archivedHidden(), 1);
        QCOMPARE(model.index(0, SearchListModel::Name).data().toString(), QStringLiteral("unroll sweep"));
        QCOMPARE(model.index(0, SearchListModel::Name).data(Qt::ToolTipRole).toString(), QStringLiteral("VEC=8 looked best"));
        QCOMPARE(model.index(0, SearchListModel::Tags).data().toString(), QStringLiteral("VEC=8, sweep:v2"));
        model.setShowArchived(true);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(1, SearchListModel::Name).data().toString(), QStringLiteral("(archived)"));
        QVERIFY(model.index(1, SearchListModel::Id).data(Qt::FontRole).value<QFont>().italic());
        model.setShowArchived(false);
        QCOMPARE(model.rowCount(), 1);
    }

    // A writer (as a CLI search would be) adds nodes; the follower on its own
    // thread reads them from the database file and delivers them.
    void followerDeliversNewNodesLive() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.filePath(QStringLiteral("ws.db")).toStdString());
        Workspace ws(path);
        QVERIFY(ws.db && ws.searchId);
        store::SearchStore ss(*ws.db);
        auto searchId = std::optional<std::int64_t>(ws.searchId);
        auto add = [&](std::int64_t parent, int seq) { return ws.addNode(parent, seq); };
        auto root = add(0, 1);
        QVERIFY(root);

        QThread thread;
        auto* follower = new SearchFollower(path, *searchId, 50);
        follower->moveToThread(&thread);
        connect(&thread, &QThread::finished, follower, &QObject::deleteLater);
        NodeBatch received;
        connect(
            follower, &SearchFollower::nodes, this, [&](const NodeBatch& b) { received += b; }, Qt::QueuedConnection);
        thread.start();
        QMetaObject::invokeMethod(follower, &SearchFollower::start, Qt::QueuedConnection);
        QTRY_COMPARE_WITH_TIMEOUT(received.size(), 1, 2000); // the initial load

        // New nodes and a result, written now, must arrive within half a second.
        QElapsedTimer t;
        t.start();
        auto child = add(*root, 2);
        QVERIFY(child);
        store::NodeRecord done;
        done.id = *root;
        done.searchId = *searchId;
        done.state = "done";
        done.status = "ok";
        done.speedup = 2.5;
        auto search = ss.loadSearch(*searchId);
        QVERIFY(search);
        QVERIFY(ss.finishNode(done, *search));
        QTRY_VERIFY_WITH_TIMEOUT(
            std::any_of(received.begin(), received.end(), [&](const NodeSnapshot& n) { return n.id == *child; }) &&
                std::any_of(received.begin(), received.end(),
                            [&](const NodeSnapshot& n) { return n.id == *root && n.speedup == 2.5; }),
            500);
        qInfo("new nodes arrived after %lld ms", static_cast<long long>(t.elapsed()));
        QVERIFY(ss.appendEvent(*searchId, "search_ended", R"({"reason":"budget"})"));
        QSignalSpy ended(follower, &SearchFollower::ended);
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 1000);
        QCOMPARE(ended.first().first().toString(), QStringLiteral("budget"));
        thread.quit();
        thread.wait();
    }

    // The workbench steers through the CLI's API: checked against the stored
    // search, posted to the commands table, refused with a reason otherwise.
    // Every timing shape of a node can be seen: a selector names each shape
    // (and its speedup), the plot says which one it shows.
    void evaluationTabShowsEveryTimingShape() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.filePath(QStringLiteral("ws.db")).toStdString());
        Workspace ws(path);
        QVERIFY(ws.db && ws.searchId);
        eval::EvaluationResult r;
        r.status = eval::EvalStatus::Ok;
        r.message = "correct";
        for (const auto& [shape, speedup] : {std::pair<const char*, double>{"small", 1.5}, {"large", 2.25}}) {
            eval::TimingCase t;
            t.shape = shape;
            t.speedup = speedup;
            t.candidate.name = "";
            t.candidate.median = 1e-5;
            t.candidate.samples = {1e-5, 1.1e-5};
            eval::TimingStats reference;
            reference.name = "reference";
            reference.median = speedup * 1e-5;
            reference.samples = {speedup * 1e-5};
            t.baselines.push_back(reference);
            r.timing.push_back(t);
        }
        r.speedup = 2.25;
        auto evaluation = store::EvaluationStore(*ws.db).insert(test::evaluationRecord("k", r));
        QVERIFY(evaluation);
        auto n = test::doneNode(ws.searchId, 1);
        n.speedup = 2.25;
        auto node = store::SearchStore(*ws.db).insertNode(n);
        QVERIFY(node);
        n.id = *node;
        n.evaluationId = *evaluation;
        auto search = store::SearchStore(*ws.db).loadSearch(ws.searchId);
        QVERIFY(search && store::SearchStore(*ws.db).finishNode(n, *search).ok());

        SearchView view(path, ws.searchId);
        QTRY_VERIFY_WITH_TIMEOUT(view.canvas()->layout().size() == 1, 5000);
        QVERIFY(view.canvas()->selectNode(*node));
        auto* shapes = view.findChild<QComboBox*>(QStringLiteral("timingShape"));
        QVERIFY(shapes);
        QTRY_COMPARE_WITH_TIMEOUT(shapes->count(), 2, 5000);
        QCOMPARE(shapes->itemText(0), QStringLiteral("shape small · 1.5×"));
        QCOMPARE(shapes->itemText(1), QStringLiteral("shape large · 2.25×"));
        auto* plot = view.findChild<TimingPlot*>();
        QVERIFY(plot);
        QCOMPARE(plot->xAxis->label(), QStringLiteral("shape small"));
        shapes->setCurrentIndex(1);
        QCOMPARE(plot->xAxis->label(), QStringLiteral("shape large"));
    }

    void steeringFromTheView() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.filePath(QStringLiteral("ws.db")).toStdString());
        Workspace ws(path);
        QVERIFY(ws.db && ws.searchId);
        store::SearchStore ss(*ws.db);
        auto searchId = std::optional<std::int64_t>(ws.searchId);
        auto node = ws.addNode(0, 1, "done");
        QVERIFY(node);
        auto& db = ws.db;

        SearchView view(path, *searchId);
        QVERIFY(view.steer(search::SteeringCommand::prune(*node)));
        QVERIFY(view.steer(search::SteeringCommand::hint(*node, "try non-temporal stores")));
        QVERIFY(view.steer(search::SteeringCommand::budget(100)));
        QVERIFY(!view.steer(search::SteeringCommand::pin(*node + 100))); // no such node
        QVERIFY(!view.steer(search::SteeringCommand::budget(0)));        // not a budget
        // The keyboard steers too: Ctrl+Shift+P posts a pause; Ctrl+N picks inspector tab N.
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.activateWindow();
        view.canvas()->setFocus();
        QTest::keyClick(view.canvas(), Qt::Key_P, Qt::ControlModifier | Qt::ShiftModifier);
        QTest::keyClick(view.canvas(), Qt::Key_4, Qt::ControlModifier);
        QCOMPARE(view.inspector()->currentIndex(), 3);
        // The review report: self-contained HTML with the tree and a candidates table.
        auto html = report::searchReportHtml(*db, *searchId);
        QVERIFY2(html.ok(), html.ok() ? "" : html.error().message.c_str());
        const QString report = QString::fromStdString(*html);
        QVERIFY(report.startsWith(QStringLiteral("<!DOCTYPE html>")));
        QVERIFY(report.contains(QStringLiteral("<svg")));
        QVERIFY(report.contains(QStringLiteral("Top candidates")));
        QVERIFY(!report.contains(QStringLiteral("src=\"http")));
        auto pending = ss.pendingCommands(*searchId);
        QVERIFY(pending);
        QCOMPARE(pending->size(), std::size_t(4));
        QCOMPARE((*pending)[3].verb, std::string("pause"));
        QCOMPARE((*pending)[0].verb, std::string("prune"));
        QCOMPARE(nlohmann::json::parse((*pending)[0].argsJson)["node"].get<std::int64_t>(), *node);
        QCOMPARE(nlohmann::json::parse((*pending)[1].argsJson)["text"].get<std::string>(),
                 std::string("try non-temporal stores"));
        QCOMPARE(nlohmann::json::parse((*pending)[2].argsJson)["max_evaluations"].get<int>(), 100);
        // A finished search takes no commands.
        auto rec = ss.loadSearch(*searchId);
        QVERIFY(rec);
        rec->status = "finished";
        rec->stopReason = "budget";
        QVERIFY(ss.updateSearch(*rec));
        auto refused = search::postSteering(*db, *searchId, search::SteeringCommand::stop());
        QVERIFY(!refused);
        QVERIFY(refused.error().message.find("nothing changed") != std::string::npos);
    }

    // A pruned node's Node tab says who pruned it, when, and what it did;
    // every command on the node is listed there as on the Steering tab.
    void aPrunedNodeSaysWhy() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.filePath(QStringLiteral("ws.db")).toStdString());
        Workspace ws(path);
        QVERIFY(ws.db && ws.searchId);
        store::SearchStore ss(*ws.db);
        const auto root = ws.addNode(0, 1, "done"), child = ws.addNode(*root, 2, "done");
        QVERIFY(root && child);
        const auto prune = ss.postCommand(ws.searchId, "prune", R"({"node": )" + std::to_string(*root) + "}", "cli");
        QVERIFY(prune);
        QVERIFY(ss.markCommand(*prune, "pruned node #1 (its subtree takes no more expansions)"));
        QVERIFY(ss.postCommand(ws.searchId, "hint", R"({"node": )" + std::to_string(*root) + R"(, "text": "try VEC=8"})",
                               "workbench"));
        auto nodes = ss.loadNodesById(ws.searchId, {*root});
        QVERIFY(nodes && nodes->size() == 1);
        (*nodes)[0].pruned = true;
        QVERIFY(ss.updateNodeFlags((*nodes)[0]));

        SearchView view(path, ws.searchId);
        auto* info = view.findChild<QTextBrowser*>(QStringLiteral("nodeInfo"));
        QVERIFY(info);
        QTRY_COMPARE_WITH_TIMEOUT(view.canvas()->layout().size(), 2, 5000);
        QVERIFY(view.canvas()->selectNode(*root));
        QTRY_VERIFY_WITH_TIMEOUT(info->toPlainText().contains(QStringLiteral("by cli at")), 5000);
        const QString text = info->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("pruned node #1 (its subtree takes no more expansions)")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("hint by workbench")) && text.contains(QStringLiteral(": pending")),
                 qPrintable(text));
        if (const char* out = std::getenv("KW_SCREENSHOT_DIR")) {
            info->resize(520, 300);
            info->grab().save(QString::fromUtf8(out) + "/node-pruned-why.png");
        }
        QVERIFY(view.canvas()->selectNode(*child)); // steered through its parent only: no rows of its own
        QTRY_VERIFY_WITH_TIMEOUT(info->toPlainText().contains(QStringLiteral("Node #2")), 5000);
        QVERIFY(!info->toPlainText().contains(QStringLiteral("steered")));
    }

    // Fork & edit: the node's code beside a form of its params, prefilled
    // from the node; the form follows declarations added while editing; the
    // child goes to the search as add_child with the chosen params.
    void forkAndEditOffersTheParamsPrefilled() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.filePath(QStringLiteral("ws.db")).toStdString());
        Workspace ws(path);
        QVERIFY(ws.db && ws.searchId);
        store::SearchStore ss(*ws.db);
        const std::string source = "// @kw-param VEC: 4 | 8 | 16 = 4\n// @kw-param ROWS: 1..3 = 1\nvoid k() {}\n";
        QVERIFY(ss.putSource("p", source));
        store::NodeRecord n;
        n.searchId = ws.searchId;
        n.seq = 1;
        n.origin = "seed";
        n.sourceName = "k";
        n.sourceHash = "p";
        n.paramsJson = R"({"ROWS":"2","VEC":"8"})";
        n.state = "done";
        const auto id = ss.insertNode(n);
        QVERIFY(id);
        SearchView view(path, ws.searchId);
        QTRY_COMPARE_WITH_TIMEOUT(view.canvas()->layout().size(), 1, 5000);
        QVERIFY(view.canvas()->selectNode(*id));
        auto* code = view.findChild<CodeView*>(QStringLiteral("codeView"));
        QVERIFY(code);
        QTRY_VERIFY_WITH_TIMEOUT(code->text().contains(QStringLiteral("void k()")), 5000); // the node's details are in
        QString seen;
        QTimer::singleShot(300, [&] {
            auto* dialog = view.childDialog();
            auto* form = dialog ? dialog->findChild<ParamsForm*>(QStringLiteral("childParams")) : nullptr;
            if (!form) return;
            seen = form->choice(QStringLiteral("VEC"))->currentText() + QLatin1Char(' ') +
                   form->choice(QStringLiteral("ROWS"))->currentText();
            form->choice(QStringLiteral("VEC"))->setCurrentText(QStringLiteral("16"));
            auto* editor = dialog->findChild<CodeView*>();
            editor->setText(QStringLiteral("// @kw-param FUSE: bool = true\n") + editor->text());
            QTimer::singleShot(700, [dialog, form, &seen] {
                if (!form->choice(QStringLiteral("FUSE"))) seen += QStringLiteral(" (no FUSE)");
                if (const char* out = std::getenv("KW_SCREENSHOT_DIR"))
                    dialog->grab().save(QString::fromUtf8(out) + "/fork-and-edit.png");
                dialog->accept();
            });
        });
        view.forkAndEdit();
        QCOMPARE(seen, QStringLiteral("8 2"));
        auto pending = ss.pendingCommands(ws.searchId);
        QVERIFY(pending && pending->size() == 1);
        const auto args = nlohmann::json::parse((*pending)[0].argsJson);
        QCOMPARE(args["params"], (nlohmann::json{{"FUSE", "true"}, {"ROWS", "2"}, {"VEC", "16"}}));
        QVERIFY(args["source"].get<std::string>().rfind("// @kw-param FUSE: bool = true\n", 0) == 0);
        QCOMPARE(args["node"].get<std::int64_t>(), *id);
    }

    // Steering closes when the search ends (buttons disabled, commands refused
    // here), also for a search that had ended before it was opened; a
    // refused hint comes back with its text.
    void steeringClosesWhenTheSearchEnds() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.filePath(QStringLiteral("ws.db")).toStdString());
        Workspace ws(path);
        QVERIFY(ws.db && ws.searchId);
        store::SearchStore ss(*ws.db);
        auto node = ws.addNode(0, 1, "done");
        QVERIFY(node);
        const auto pause = [](SearchView& v) {
            for (auto* b : v.findChildren<QToolButton*>())
                if (b->text() == QStringLiteral("Pause")) return b;
            return static_cast<QToolButton*>(nullptr);
        };
        {
            SearchView view(path, ws.searchId);
            QVERIFY(pause(view));
            QTest::qWait(300); // the follower's first load: still running
            QVERIFY(pause(view)->isEnabled());

            // A refused hint (no such node) reopens the dialog with the same words.
            QStringList offered;
            int dialogs = 0;
            std::function<void()> answer = [&] {
                auto* d = qobject_cast<QInputDialog*>(QApplication::activeModalWidget());
                if (!d) {
                    QTimer::singleShot(20, answer);
                    return;
                }
                offered << d->textValue();
                if (++dialogs == 1) {
                    d->setTextValue(QStringLiteral("unroll by four"));
                    QTimer::singleShot(0, d, &QDialog::accept);
                } else {
                    QVERIFY(d->labelText().contains(QStringLiteral("Not sent")));
                    QTimer::singleShot(0, d, &QDialog::reject);
                }
                if (dialogs == 1) QTimer::singleShot(20, answer);
            };
            QTimer::singleShot(0, answer);
            view.askHint(*node + 100);
            QCOMPARE(dialogs, 2);
            QCOMPARE(offered.value(1), QStringLiteral("unroll by four"));

            QVERIFY(ss.appendEvent(ws.searchId, "search_ended", R"({"reason":"budget"})"));
            QTRY_VERIFY_WITH_TIMEOUT(!pause(view)->isEnabled(), 3000);
            QVERIFY(pause(view)->toolTip().contains(QStringLiteral("search resume")));
            QVERIFY(!view.steer(search::SteeringCommand::pause())); // refused here, nothing posted
        }
        auto rec = ss.loadSearch(ws.searchId);
        QVERIFY(rec);
        rec->status = "finished";
        rec->stopReason = "budget";
        QVERIFY(ss.updateSearch(*rec));
        SearchView reopened(path, ws.searchId);
        QTRY_VERIFY_WITH_TIMEOUT(!pause(reopened)->isEnabled(), 3000);
        auto pending = ss.pendingCommands(ws.searchId);
        QVERIFY(pending);
        QVERIFY(pending->empty());
    }

    // The inspector's reads run off the UI thread; of two quick requests only
    // the newer is answered, whatever order the reads finish in.
    void detailLoaderAnswersTheNewestRequestOnly() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.filePath(QStringLiteral("ws.db")).toStdString());
        Workspace ws(path);
        QVERIFY(ws.db && ws.searchId);
        auto a = ws.addNode(0, 1, "done");
        auto b = ws.addNode(a ? *a : 0, 2, "done");
        QVERIFY(a && b);
        DetailLoader loader(path, ws.searchId);
        QSignalSpy ready(&loader, &DetailLoader::nodeReady);
        QSignalSpy failed(&loader, &DetailLoader::nodeFailed);
        loader.requestNode(*a);
        const quint64 newest = loader.requestNode(*b);
        QTRY_COMPARE(ready.count(), 1);
        QTest::qWait(200); // room for a late answer to the older request, which must not come
        QCOMPARE(ready.count(), 1);
        QCOMPARE(ready[0][0].value<quint64>(), newest);
        const auto details = ready[0][1].value<NodeDetailsPtr>();
        QVERIFY(details);
        QCOMPARE(details->nodeId, *b);
        QCOMPARE(details->parentId, *a);
        QCOMPARE(details->source, std::string("void saxpy() {}"));
        QCOMPARE(details->parentSource, std::string("void saxpy() {}"));
        QVERIFY(!details->evaluation && !details->llmCall);
        // A node that is not there: a failure that names it.
        loader.requestNode(*b + 50);
        QTRY_COMPARE(failed.count(), 1);
        QVERIFY2(failed[0][2].toString().contains(QString::number(*b + 50)), qPrintable(failed[0][2].toString()));
        // The LLM spend: none for a search without calls.
        QSignalSpy spend(&loader, &DetailLoader::spendReady);
        loader.requestSpend();
        QTRY_COMPARE(spend.count(), 1);
        QVERIFY(spend[0][1].value<SpendTimeline>().empty());
    }

    void followerReportsAMissingWorkspace() {
        QThread thread;
        auto* follower = new SearchFollower("/nonexistent/dir/ws.db", 1, 50);
        follower->moveToThread(&thread);
        connect(&thread, &QThread::finished, follower, &QObject::deleteLater);
        QSignalSpy failed(follower, &SearchFollower::failed);
        thread.start();
        QMetaObject::invokeMethod(follower, &SearchFollower::start, Qt::QueuedConnection);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 2000);
        QVERIFY(!failed.first().first().toString().isEmpty());
        thread.quit();
        thread.wait();
    }
};

QTEST_MAIN(TestSearchTree)
#include "tst_search_tree.moc"
