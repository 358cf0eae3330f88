// The workbench against real processes: a search run by kernelwright-cli is
// followed live in a SearchView while a watchdog measures how long the UI
// thread ever goes without serving its event loop; then the real
// `kernelwright` app saves screenshots of the window and every inspector tab
// (into the build folder, to be looked at).
#include "charts/progress_overlay_plot.h"
#include "charts/progress_plot.h"
#include "cli_runner.h"
#include "editor/code_view.h"
#include "llm_server_fixture.h"
#include "models/evaluation_list_model.h"
#include "models/node_table_model.h"
#include "models/problem_list_model.h"
#include "models/search_list_model.h"
#include "models/suite_table_model.h"
#include "saxpy_replies.h"
#include "search/search_config_json.h"
#include "store/database.h"
#include "store/llm_call_store.h"
#include "store/search_store.h"
#include "tree/tree_canvas.h"
#include "util/files.h"
#include "widgets/node_compare_dialog.h"
#include "widgets/progress_overlay_dialog.h"
#include "widgets/retime_dialog.h"
#include "widgets/search_notes_actions.h"
#include "widgets/search_view.h"
#include "widgets/suite_view.h"
#include "windows/main_window.h"
#include "windows/new_search_dialog.h"

#include <QtCore/QDir>
#include <QtCore/QElapsedTimer>
#include <QtCore/QProcess>
#include <QtCore/QSettings>
#include <QtCore/QStandardPaths>
#include <QtCore/QTemporaryDir>
#include <QtCore/QTimer>
#include <QtGui/QImage>
#include <QtTest/QSignalSpy>
#include <QtTest/QtTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QInputDialog>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSpinBox>
#include <QtWidgets/QStackedWidget>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QTabWidget>
#include <QtWidgets/QTableView>
#include <QtWidgets/QTableWidget>
#include <QtWidgets/QTextBrowser>

#include <sys/stat.h>

#include <algorithm>
#include <fstream>

using namespace kw;
using nlohmann::json;

namespace {

QString saxpy() {
    return QString::fromStdString(test::problemDir("saxpy").string());
}

// A node's number in its search (what the workbench shows and --node takes).
qint64 numberOf(const store::Database& db, qint64 nodeId) {
    auto searches = store::SearchStore(db).listSearches();
    if (!searches) return 0;
    for (const auto& s : *searches)
        if (auto nodes = store::SearchStore(db).loadNodesById(s.id, {nodeId}); nodes && !nodes->empty())
            return nodes->front().seq;
    return 0;
}

} // namespace

class TestWorkbenchLive : public QObject {
    Q_OBJECT
  private:
    QTemporaryDir dir_;
    QString db() const { return dir_.filePath(QStringLiteral("ws.db")); }
    QString llmDb() const { return dir_.filePath(QStringLiteral("llm-ws.db")); }

    // Runs the real app on a workspace, saves its window as file and checks the picture.
    void screenshot(const QString& workspace, const QStringList& extra, const QString& file) {
        QFile::remove(file);
        QProcess app;
        app.start(qEnvironmentVariable("KW_GUI"), QStringList{"--workspace", workspace, "--screenshot", file} + extra);
        QVERIFY(app.waitForFinished(60000));
        QVERIFY2(app.exitCode() == 0, app.readAllStandardError().constData());
        QImage image(file);
        QVERIFY2(!image.isNull(), qPrintable(file));
        QVERIFY(image.width() >= 800 && image.height() >= 500);
        qInfo("saved %s", qPrintable(file));
    }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        // Keeps what the dialogs remember out of the user's configuration,
        // and an earlier run's choices out of these tests.
        QStandardPaths::setTestModeEnabled(true);
        QSettings(QStringLiteral("Kernelwright"), QStringLiteral("Kernelwright")).clear();
    }

    void followsALiveCliSearchWithoutBlocking() {
        // The workspace and the search exist before the CLI runs it, so the view opens at once.
        QProcess cli;
        cli.setProcessChannelMode(QProcess::MergedChannels);
        cli.start(test::cliPath(), {"--db", db(), "search", "start", "--problem", saxpy(), "--budget", "10", "--workers", "1",
                                    "--time-budget", "0.05"});
        QVERIFY(cli.waitForStarted());
        // Wait for the search row (the CLI creates it first).
        std::int64_t searchId = 0;
        QElapsedTimer waited;
        waited.start();
        while (!searchId && waited.elapsed() < 60000) {
            QTest::qWait(50);
            if (!QFile::exists(db())) continue;
            auto ro = store::Database::open(db().toStdString(), store::Database::Mode::ReadOnly);
            if (!ro) continue;
            auto searches = store::SearchStore(*ro).listSearches();
            if (searches && !searches->empty()) searchId = searches->front().id;
        }
        QVERIFY2(searchId, "the CLI never created its search");

        ui::SearchView view(db().toStdString(), searchId);
        view.resize(1200, 700);
        view.show();
        // Watchdog: a 10 ms timer; the longest gap between its ticks is how long the UI thread was busy.
        qint64 worstGapMs = 0;
        QElapsedTimer tick;
        tick.start();
        QTimer watchdog;
        connect(&watchdog, &QTimer::timeout, this, [&] { worstGapMs = std::max(worstGapMs, tick.restart()); });
        watchdog.start(10);
        // Clicking around while nodes arrive: selection reads the node's details.
        QTimer clicker;
        connect(&clicker, &QTimer::timeout, this, [&] {
            if (view.canvas()->layout().bestId()) view.canvas()->selectNode(view.canvas()->layout().bestId());
        });
        clicker.start(250);
        while (cli.state() != QProcess::NotRunning) QTest::qWait(20);
        QCOMPARE(cli.exitCode(), 0);
        // Every node the CLI wrote shows within half a second of the run's end.
        auto ro = store::Database::open(db().toStdString(), store::Database::Mode::ReadOnly);
        QVERIFY(ro);
        auto nodes = store::SearchStore(*ro).loadNodes(searchId);
        QVERIFY(nodes && nodes->size() >= 3); // saxpy has 4 configurations: the search exhausts them
        QElapsedTimer caughtUp;
        caughtUp.start();
        QTRY_COMPARE_WITH_TIMEOUT(view.canvas()->layout().size(), static_cast<int>(nodes->size()), 500);
        QTRY_VERIFY_WITH_TIMEOUT(view.canvas()->layout().bestSpeedup() > 0, 500);
        watchdog.stop();
        clicker.stop();
        qInfo("the view caught up %lld ms after the CLI ended; the UI thread's longest busy stretch: %lld ms",
              static_cast<long long>(caughtUp.elapsed()), static_cast<long long>(worstGapMs));
        QVERIFY2(worstGapMs < 100, qPrintable(QStringLiteral("the UI thread was busy for %1 ms").arg(worstGapMs)));
    }

    // Run management in the Searches list: a name and tags through their
    // dialogs, Compare Progress laying two searches' best-so-far lines side
    // by side, archive out of the list and back, delete after a question.
    void searchListKeepsNamesAndComparesProgress() {
        const QString ws = dir_.filePath(QStringLiteral("runs.db"));
        for (const char* budget : {"4", "3"}) {
            const auto run = test::runCli({"--db", ws, "search", "start", "--problem", saxpy(), "--budget", budget, "--workers",
                                           "1", "--time-budget", "0.05"},
                                          300000);
            QVERIFY2(run.code == 0, qPrintable(run.err));
        }
        ui::MainWindow window(test::dataDir() / "problems");
        window.resize(1280, 800);
        QVERIFY(window.openWorkspace(ws).ok());
        window.show();
        auto* model = window.searchModel();
        QCOMPARE(model->rowCount(), 2);
        const auto rowOf = [&](qint64 id) { return model->searchAt(model->rowOf(id)); };
        // Answers the next modal text dialog with `text`, as a user typing it would.
        const auto answer = [](const QString& text) {
            QTimer::singleShot(200, [text] {
                auto* dialog = qobject_cast<QInputDialog*>(QApplication::activeModalWidget());
                if (!dialog) return;
                dialog->setTextValue(text);
                dialog->accept();
            });
        };
        answer(QStringLiteral("unroll sweep"));
        auto outcome = ui::renameSearch(&window, ws.toStdString(), rowOf(1));
        QVERIFY2(outcome.changed, qPrintable(outcome.message));
        answer(QStringLiteral("VEC=8, sweep:v2"));
        QVERIFY(ui::editSearchTags(&window, ws.toStdString(), rowOf(1)).changed);
        answer(QStringLiteral("two words?"));
        outcome = ui::editSearchTags(&window, ws.toStdString(), rowOf(2));
        QVERIFY(!outcome.changed && outcome.message.contains(QStringLiteral("no spaces or commas")));
        window.refreshSearches();
        QCOMPARE(model->index(model->rowOf(1), ui::SearchListModel::Name).data().toString(), QStringLiteral("unroll sweep"));
        QCOMPARE(model->index(model->rowOf(1), ui::SearchListModel::Tags).data().toString(), QStringLiteral("VEC=8, sweep:v2"));

        auto* dialog = window.compareProgress({1, 2});
        QVERIFY(dialog);
        QSignalSpy shown(dialog, &ui::ProgressOverlayDialog::curvesShown);
        QVERIFY(shown.wait(20000));
        QCOMPARE(dialog->plot()->legendNames(),
                 (QStringList{QStringLiteral("unroll sweep"), QStringLiteral("search 2 · saxpy")}));
        QCOMPARE(dialog->table()->rowCount(), 2);
        QCOMPARE(dialog->table()->item(0, 1)->text(), QStringLiteral("4"));
        QCOMPARE(dialog->table()->item(1, 1)->text(), QStringLiteral("3"));
        if (const char* out = std::getenv("KW_SCREENSHOT_DIR")) {
            dialog->grab().save(QString::fromUtf8(out) + "/compare-progress.png");
            window.grab().save(QString::fromUtf8(out) + "/searches-named.png");
        }
        dialog->close();

        QVERIFY(ui::archiveSearches(ws.toStdString(), {rowOf(2)}, true).changed);
        window.refreshSearches();
        QCOMPARE(model->rowCount(), 1);
        QCOMPARE(model->archivedHidden(), 1);
        QTimer::singleShot(200, [] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) box->button(QMessageBox::Yes)->click();
        });
        model->setShowArchived(true);
        outcome = ui::deleteSearchAsked(&window, ws.toStdString(), rowOf(2));
        QVERIFY2(outcome.changed && outcome.message.contains(QStringLiteral("Search 2 deleted: 3 nodes")),
                 qPrintable(outcome.message));
        window.refreshSearches();
        QCOMPARE(model->rowCount(), 1);
        QCOMPARE(model->archivedHidden(), 0);

        // Re-time Alone: the best node and a runner-up timed again, one after
        // another, beside what the search measured; nothing to re-time in a
        // selection without a correct, timed node.
        ui::SearchView view(ws.toStdString(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(view.canvas()->layout().size(), 4, 10000);
        const qint64 best = view.canvas()->layout().bestId();
        qint64 other = 0;
        for (const auto& placed : view.canvas()->layout().placed())
            if (placed.id != best) other = placed.id;
        QVERIFY(best && other);
        QVERIFY(!view.retimeAlone({}));
        auto* retime = view.retimeAlone({other, best});
        QVERIFY(retime);
        QSignalSpy ended(retime, &ui::RetimeDialog::allTimed);
        QVERIFY(ended.wait(120000));
        QCOMPARE(retime->rows().size(), std::size_t(2));
        for (const auto& row : retime->rows()) {
            QCOMPARE(row.status, std::string("ok"));
            QVERIFY(row.inSearch > 0 && row.alone > 0);
            QVERIFY2(row.aloneInterval.first > 0 && row.aloneInterval.first <= row.alone && row.alone <= row.aloneInterval.second,
                     qPrintable(
                         QStringLiteral("%1 (%2-%3)").arg(row.alone).arg(row.aloneInterval.first).arg(row.aloneInterval.second)));
        }
        QVERIFY(retime->rows()[0].seq < retime->rows()[1].seq); // in the order of their numbers
        if (const char* out = std::getenv("KW_SCREENSHOT_DIR")) retime->grab().save(QString::fromUtf8(out) + "/retime-alone.png");
        retime->close();
    }

    // The Searches and Recent evaluations docks follow the workspace with no
    // reload: a search the CLI starts appears while it runs, its status
    // follows it to the end, and its evaluations arrive.
    void docksFollowTheWorkspaceWithoutReload() {
        const QString live = dir_.filePath(QStringLiteral("docks.db"));
        ui::MainWindow window(test::dataDir() / "problems");
        QVERIFY(window.openWorkspace(live).ok());
        QCOMPARE(window.searchModel()->rowCount(), 0);
        QProcess cli;
        cli.start(test::cliPath(), {"--db", live, "search", "start", "--problem", saxpy(), "--budget", "4", "--workers", "1",
                                    "--time-budget", "0.05"});
        QVERIFY(cli.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(window.searchModel()->rowCount() == 1, 30000);
        const bool seenRunning = window.searchModel()->searchAt(0).status == QStringLiteral("running");
        QVERIFY(cli.waitForFinished(120000));
        QCOMPARE(cli.exitCode(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(window.searchModel()->searchAt(0).status != QStringLiteral("running"), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(window.evaluationModel()->rowCount() > 0, 5000);
        QVERIFY(window.searchModel()->searchAt(0).evaluations > 0);
        qInfo("status while the CLI ran: %s; after: %s", seenRunning ? "running" : "(finished before the first poll)",
              qPrintable(window.searchModel()->searchAt(0).status));

        // The Code tab shows a node's kernel as it ran, its params baked in;
        // the template is a toggle away.
        auto* view = window.openSearch(window.searchModel()->searchAt(0).id);
        QVERIFY(view);
        QTRY_VERIFY_WITH_TIMEOUT(view->canvas()->layout().size() >= 2, 5000);
        // The header says how far the search got against its budget; on the
        // ended search, Budget… offers to go on past it.
        QCOMPARE(view->budget(), qint64(4));
        auto* summary = view->findChild<QLabel*>(QStringLiteral("searchSummary"));
        QVERIFY(summary);
        QVERIFY2(summary->text().contains(QStringLiteral(" of 4 evaluations")), qPrintable(summary->text()));
        // The end arrives with the follower's events: on a loaded host after
        // the nodes (Budget… before it would change the budget, not resume).
        QTRY_VERIFY2_WITH_TIMEOUT(summary->text().contains(QStringLiteral(" · ended (")), qPrintable(summary->text()), 15000);
        int offered = -1;
        QString asked;
        QTimer::singleShot(0, [&] {
            if (auto* input = qobject_cast<QInputDialog*>(QApplication::activeModalWidget())) {
                offered = input->intValue();
                asked = input->labelText();
                input->reject();
            }
        });
        for (auto* b : view->findChildren<QToolButton*>())
            if (b->text() == QStringLiteral("Budget…")) {
                QVERIFY(b->isEnabled()); // open on an ended search: it is how the search goes on
                b->click();
            }
        QCOMPARE(offered, 4 + 16);
        QVERIFY2(asked.contains(QStringLiteral("has ended")), qPrintable(asked));
        const qint64 child = view->canvas()->layout().placed().back().id;
        QVERIFY(view->canvas()->selectNode(child));
        auto* code = view->findChild<ui::CodeView*>(QStringLiteral("codeView"));
        auto* showTemplate = view->findChild<QCheckBox*>(QStringLiteral("showTemplate"));
        QVERIFY(code && showTemplate);
        QTRY_VERIFY_WITH_TIMEOUT(code->text().contains(QStringLiteral("#define UNROLL ")), 5000);
        showTemplate->setChecked(true);
        QVERIFY(!code->text().contains(QStringLiteral("#define UNROLL ")));
        QVERIFY(code->text().contains(QStringLiteral("UNROLL")));

        // The node table: every node, sorted by speedup on its number, filtered by outcome and text.
        auto* table = view->nodeTable();
        QVERIFY(table);
        view->showTable(); // filled while on screen
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), view->canvas()->layout().size(), 3000);
        table->sortByColumn(ui::NodeTableModel::Speedup, Qt::DescendingOrder);
        QCOMPARE(table->model()->index(0, ui::NodeTableModel::Id).data().toLongLong(),
                 view->canvas()->layout().node(view->canvas()->layout().bestId())->seq); // the number the tree shows
        auto* text = view->findChild<QLineEdit*>(QStringLiteral("nodeTableText"));
        QVERIFY(text);
        // The judge's 95 % intervals: in the table and the header's best,
        // wherever the node's stored result has one (a run of few rounds has none).
        {
            auto ro = store::Database::open(live.toStdString(), store::Database::Mode::ReadOnly);
            QVERIFY(ro);
            const auto stored = store::SearchStore(*ro).loadNodes(view->searchId());
            const auto intervals = store::SearchStore(*ro).speedupIntervals(view->searchId());
            QVERIFY(stored && intervals);
            int withInterval = 0;
            for (int r = 0; r < table->model()->rowCount(); ++r) {
                const qint64 seq = table->model()->index(r, ui::NodeTableModel::Id).data().toLongLong();
                const auto it = std::find_if(stored->begin(), stored->end(), [&](const auto& n) { return n.seq == seq; });
                QVERIFY(it != stored->end());
                const bool has = intervals->count(it->id) > 0;
                const QString shown = table->model()->index(r, ui::NodeTableModel::Interval).data().toString();
                QCOMPARE(shown.contains(QChar(0x2013)), has);
                withInterval += has ? 1 : 0;
                if (r == 0) QCOMPARE(summary->text().contains(QStringLiteral("95 %")), has);
            }
            QVERIFY2(withInterval > 0, "no node of a saxpy search has an interval");
        }
        text->setText(QStringLiteral("UNROLL=8")); // as the param's own column and the Params column read
        QCOMPARE(table->model()->rowCount(), 1);
        const int unroll = static_cast<int>(ui::NodeTableModel::ColumnCount);
        QCOMPARE(table->model()->headerData(unroll, Qt::Horizontal).toString(), QStringLiteral("UNROLL"));
        QCOMPARE(table->model()->index(0, unroll).data().toString(), QStringLiteral("8"));
        if (const char* dir = std::getenv("KW_SCREENSHOT_DIR"))
            view->grab().save(QString::fromUtf8(dir) + "/node_table_params.png");
        text->clear();
        auto* status = view->findChild<QComboBox*>(QStringLiteral("nodeTableStatus"));
        QVERIFY(status);
        status->setCurrentIndex(status->findText(QStringLiteral("failed (any)")));
        QCOMPARE(table->model()->rowCount(), 0); // saxpy's configurations are all correct
        status->setCurrentIndex(0);

        // Two nodes compared: their params and timings side by side, the diff of their code as it ran.
        const auto placed = view->canvas()->layout().placed();
        auto* compare = view->compareNodes(placed[0].id, placed[1].id);
        QVERIFY(compare);
        QSignalSpy loaded(compare, &ui::NodeCompareDialog::loaded);
        QVERIFY(loaded.wait(5000));
        QVERIFY2(compare->summaryHtml().contains(QStringLiteral("median at")), qPrintable(compare->summaryHtml()));
        // Paired speedups with their intervals and the reference's time in each run, and whether they are told apart.
        const QString compared = compare->findChild<QTextBrowser*>(QStringLiteral("compareSummary"))->toPlainText();
        QVERIFY2(compared.contains(QStringLiteral("(paired)")) && compared.contains(QStringLiteral("95 %")) &&
                     compared.contains(QStringLiteral("same run")) && compared.contains(QStringLiteral("intervals are")),
                 qPrintable(compared));
        if (const char* dir = std::getenv("KW_SCREENSHOT_DIR"))
            compare->grab().save(QString::fromUtf8(dir) + "/compare_paired.png");
        QVERIFY(compare->diffView()->text().contains(QStringLiteral("#define UNROLL")));
        compare->close();
    }

    // First steps: an empty workspace offers New Search; a problem picked in
    // the Problems tab (selected, or double-clicked) prefills the dialog.
    void aProblemLeadsToANewSearchOnIt() {
        ui::MainWindow window(test::dataDir() / "problems");
        QVERIFY(window.openWorkspace(dir_.filePath(QStringLiteral("first.db"))).ok());
        auto* empty = window.findChild<QWidget*>(QStringLiteral("searchesEmpty"));
        QVERIFY(empty);
        auto* stack = qobject_cast<QStackedWidget*>(empty->parentWidget());
        QVERIFY(stack && stack->currentWidget() == empty);
        int saxpyRow = -1;
        for (int r = 0; r < window.problemModel()->rowCount(); ++r)
            if (window.problemModel()->problemAt(r).id == QStringLiteral("saxpy")) saxpyRow = r;
        QVERIFY(saxpyRow >= 0);
        window.selectProblem(saxpyRow);
        QString offered;
        QTimer::singleShot(0, this, [&] {
            QTRY_VERIFY(qobject_cast<ui::NewSearchDialog*>(QApplication::activeModalWidget()));
            auto* dialog = qobject_cast<ui::NewSearchDialog*>(QApplication::activeModalWidget());
            offered = QString::fromStdString(dialog->problemDir().filename().string());
            dialog->reject();
        });
        auto* button = window.findChild<QPushButton*>(QStringLiteral("newSearchButton"));
        QVERIFY(button);
        button->click();
        QCOMPARE(offered, QStringLiteral("saxpy"));
        // Workspaces opened before are listed there, the open one left out; one opens with a double click.
        QVERIFY(window.findChild<QPushButton*>(QStringLiteral("openWorkspaceButton")));
        QVERIFY(window.openWorkspace(dir_.filePath(QStringLiteral("second.db"))).ok());
        auto* recent = window.findChild<QListWidget*>(QStringLiteral("recentWorkspaces"));
        QVERIFY(recent);
        QList<QListWidgetItem*> first = recent->findItems(QStringLiteral("first.db"), Qt::MatchExactly);
        QCOMPARE(first.size(), 1);
        QVERIFY(recent->findItems(QStringLiteral("second.db"), Qt::MatchExactly).isEmpty());
        emit recent->itemActivated(first.front());
        QVERIFY(window.workspacePath().endsWith(QStringLiteral("first.db")));
    }

    // A suite opens as a table of its problems; a row opens the problem's
    // search (the run's own, else the workspace's newest of that problem).
    void suiteOpensAsATableAndARowOpensItsSearch() {
        const auto dir = std::filesystem::path(dir_.path().toStdString()) / "suite";
        std::filesystem::create_directories(dir);
        std::filesystem::copy(test::problemDir("saxpy"), dir / "saxpy", std::filesystem::copy_options::recursive);
        std::filesystem::copy(test::problemDir("poly_eval"), dir / "poly_eval", std::filesystem::copy_options::recursive);
        std::ofstream(dir / "suite.json") << R"({"name": "two", "problems": ["saxpy", "poly_eval"], )"
                                          << R"("not_imported": [{"file": "broken.py", "error": "not valid Python"}]})";
        std::ofstream(dir / "suite-run-reference.jsonl")
            << R"({"problem": "saxpy", "status": "ok", "speedup": 1.01, "wall_s": 3})"
            << "\n";
        ui::MainWindow window(test::dataDir() / "problems");
        QVERIFY(window.openWorkspace(db()).ok()); // the searches of followsALiveCliSearchWithoutBlocking
        auto* view = window.openSuite(QString::fromStdString(dir.string()));
        QVERIFY(view);
        QCOMPARE(view->model()->rowCount(), 2);
        QCOMPARE(view->model()->rowAt(0).status, QStringLiteral("ok"));
        QCOMPARE(view->model()->rowAt(1).status, QStringLiteral("not run"));
        const auto* summary = view->findChild<QLabel*>(QStringLiteral("suiteSummary"));
        QVERIFY(summary);
        QVERIFY2(summary->text().contains("1 of 2 run") && summary->text().contains("broken.py"), qPrintable(summary->text()));
        const int tabsBefore = window.tabs()->count();
        emit view->problemActivated(QStringLiteral("saxpy"), 0);
        QCOMPARE(window.tabs()->count(), tabsBefore + 1);
        QVERIFY(qobject_cast<ui::SearchView*>(window.tabs()->currentWidget()));
        emit view->problemActivated(QStringLiteral("poly_eval"), 0); // no search of it: a message, no tab
        QCOMPARE(window.tabs()->count(), tabsBefore + 1);
        QVERIFY(window.statusBar()->currentMessage().contains("No search of poly_eval"));
        QVERIFY(!window.openSuite(dir_.filePath("no-such-suite")));

        // Reference mode marks a problem that read more than 3 % off itself.
        std::ofstream(dir / "suite-run-reference.jsonl", std::ios::app)
            << R"({"problem": "poly_eval", "status": "ok", "speedup": 1.2, "wall_s": 3})"
            << "\n";
        view->reload();
        const auto* model = view->model();
        QVERIFY(!model->data(model->index(0, ui::SuiteTableModel::VsEager), Qt::ForegroundRole).isValid()); // 1.01x
        QVERIFY(model->data(model->index(1, ui::SuiteTableModel::VsEager), Qt::ForegroundRole).isValid());  // 1.2x
        QVERIFY(model->data(model->index(1, ui::SuiteTableModel::VsEager), Qt::ToolTipRole).toString().contains("1.00 ± 0.03"));
        QVERIFY2(summary->text().contains("1 of 2 within 1.00 ± 0.03"), qPrintable(summary->text()));
        // Read again with an interval that holds 1.00 (the run file's last line counts): the
        // judge's noise, in the ordinary colour, as the tooltip and the summary say.
        std::ofstream(dir / "suite-run-reference.jsonl", std::ios::app)
            << R"({"problem": "poly_eval", "status": "ok", "speedup": 1.2, "speedup_interval": [0.98, 1.3], "wall_s": 3})"
            << "\n";
        view->reload();
        QVERIFY(!model->data(model->index(1, ui::SuiteTableModel::VsEager), Qt::ForegroundRole).isValid());
        QVERIFY(model->data(model->index(1, ui::SuiteTableModel::VsEager), Qt::ToolTipRole).toString().contains("holds 1.00"));
        QVERIFY2(summary->text().contains("interval holds 1.00 for 1 of 1"), qPrintable(summary->text()));

        // Sorted by name with numbers as numbers; filtered by name and to the
        // rows that need a look; a row of the sorted table opens its own problem.
        QVERIFY(ui::naturalSortKey("kb_2_relu") < ui::naturalSortKey("kb_10_gelu"));
        QVERIFY(ui::naturalSortKey("kb_10_gelu") < ui::naturalSortKey("kb_100_loss"));
        QCOMPARE(ui::naturalSortKey("kb_007"), ui::naturalSortKey("kb_7"));
        auto* table = view->findChild<QTableView*>(QStringLiteral("suiteTable"));
        auto* shown = view->findChild<QLabel*>(QStringLiteral("suiteShown"));
        QVERIFY(table && shown);
        const auto* sorted = table->model();
        QCOMPARE(sorted->rowCount(), 2);
        QCOMPARE(sorted->index(0, 0).data().toString(), QStringLiteral("poly_eval")); // the suite lists saxpy first
        QSignalSpy opened(view, &ui::SuiteView::problemActivated);
        emit table->activated(sorted->index(0, ui::SuiteTableModel::Status));
        QCOMPARE(opened.size(), 1);
        QCOMPARE(opened.front().front().toString(), QStringLiteral("poly_eval"));
        table->sortByColumn(ui::SuiteTableModel::VsEager, Qt::DescendingOrder);
        QCOMPARE(sorted->index(0, 0).data().toString(), QStringLiteral("poly_eval")); // 1.2x before 1.01x
        view->findChild<QCheckBox*>(QStringLiteral("suiteOnlyToLook"))->setChecked(true);
        QCOMPARE(sorted->rowCount(), 1); // poly_eval, off itself
        QCOMPARE(sorted->index(0, 0).data().toString(), QStringLiteral("poly_eval"));
        QCOMPARE(shown->text(), QStringLiteral("1 of 2 shown"));
        view->findChild<QCheckBox*>(QStringLiteral("suiteOnlyToLook"))->setChecked(false);
        view->findChild<QLineEdit*>(QStringLiteral("suiteFilter"))->setText(QStringLiteral("SAX"));
        QCOMPARE(sorted->rowCount(), 1);
        QCOMPARE(sorted->index(0, 0).data().toString(), QStringLiteral("saxpy"));
    }

    void startsALanguageModelSearchInTheWorkbench() {
        // The scripted server answers each prompt with another correct kernel.
        json replies = json::array();
        for (int unroll : {2, 4, 8, 16, 32, 64})
            replies.push_back({{"text", test::saxpyKernelReply(unroll, false)},
                               {"reasoning", "Unrolling keeps more FMAs in flight."},
                               {"input_tokens", 1200},
                               {"output_tokens", 300}});
        test::LlmServer server(json{{"replies", replies}, {"default", replies.back()}});
        QVERIFY(server.ready());
        const auto settings = dir_.filePath(QStringLiteral("llm.json")).toStdString();
        std::ofstream(settings) << json{{"models", json::array({{{"name", "scripted"},
                                                                 {"provider", "openai"},
                                                                 {"base_url", server.baseUrl("/v1")},
                                                                 {"model", "scripted-model"},
                                                                 {"api_key", "sk-workbench-test"},
                                                                 {"price_in_per_mtok", 1.0},
                                                                 {"price_out_per_mtok", 2.0}}})}}
                                       .dump();
        chmod(settings.c_str(), 0600);
        qputenv("KW_LLM_CONFIG", QByteArray::fromStdString(settings));

        ui::MainWindow window(test::dataDir() / "problems");
        QVERIFY(window.openWorkspace(llmDb()).ok());
        window.show();
        const json config{
            {"policy", "greedy"},   {"synth", "llm"}, {"models", json::array({{{"name", "scripted"}, {"weight", 1.0}}})},
            {"max_evaluations", 6}, {"workers", 1},   {"seed", 1}};
        window.startSearch(test::problemDir("saxpy"), QString::fromStdString(config.dump()), 0.05);
        // The search's tab opens as soon as the engine has created it, and it ends on its budget.
        QTRY_VERIFY_WITH_TIMEOUT(window.tabs()->count() == 2, 30000);
        auto* view = qobject_cast<ui::SearchView*>(window.tabs()->widget(1));
        QVERIFY(view);
        QTRY_VERIFY_WITH_TIMEOUT(window.statusBar()->currentMessage().contains(QStringLiteral("ended")), 120000);
        QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("budget")),
                 qPrintable(window.statusBar()->currentMessage()));

        auto ro = store::Database::open(llmDb().toStdString(), store::Database::Mode::ReadOnly);
        QVERIFY(ro);
        const auto calls = store::LlmCallStore(*ro).forSearch(view->searchId());
        QVERIFY(calls && calls->size() >= 5);
        QCOMPARE(calls->front().reasoning, std::string("Unrolling keeps more FMAs in flight."));
        // The knowledge base fed the prompts, as it does for the CLI.
        QVERIFY(calls->front().prompt.find("## Reference material") != std::string::npos);
        auto nodes = store::SearchStore(*ro).loadNodes(view->searchId());
        QVERIFY(nodes);
        QString tree;
        for (const auto& n : *nodes) tree += QString::fromStdString(n.origin + ":" + n.status.value_or("-") + " ");
        QVERIFY2(std::count_if(nodes->begin(), nodes->end(),
                               [](const store::NodeRecord& n) { return n.origin == "llm" && n.status == "ok"; }) >= 4,
                 qPrintable(tree));

        // The progress page's panels: throughput counts every finished node once,
        // and the cost curve ends at what the calls cost.
        QTRY_COMPARE_WITH_TIMEOUT(view->canvas()->layout().size(), static_cast<int>(nodes->size()), 2000);
        view->inspector()->setCurrentIndex(view->inspector()->count() - 1);
        auto* plot = view->findChild<ui::ProgressPlot*>();
        QVERIFY(plot);
        QTRY_VERIFY_WITH_TIMEOUT(plot->series().evals.size() == static_cast<int>(nodes->size()), 2000);
        const auto& series = plot->series();
        double counted = 0;
        for (double rate : series.perMinute) counted += rate * series.binWidth;
        QCOMPARE(qRound(counted), static_cast<int>(nodes->size()));
        // The history scatter: one dot per correct evaluation, none above the best line.
        int correct = 0;
        for (const auto& n : *nodes) correct += n.status.value_or("") == "ok" ? 1 : 0;
        QCOMPARE(series.correctSpeedups.size(), correct);
        for (double v : series.correctSpeedups) QVERIFY(v <= series.bestByEval.back() + 1e-12);
        double cost = 0;
        for (const auto& c : *calls) cost += c.costUsd;
        QVERIFY(!series.cumulativeCost.isEmpty());
        QVERIFY(qAbs(series.cumulativeCost.back() - cost) < 1e-12);
        QCOMPARE(static_cast<std::size_t>(series.cumulativeTokens.size()), calls->size());
        qunsetenv("KW_LLM_CONFIG");
    }

    // The dialog offers the engine's policies, each of which the engine takes.
    void newSearchDialogOffersThePoliciesTheEngineRuns() {
        ui::NewSearchDialog dialog({{QStringLiteral("saxpy"), test::problemDir("saxpy")}});
        auto* policy = dialog.findChildren<QComboBox*>().at(1);
        QCOMPARE(static_cast<std::size_t>(policy->count()), tree::policyNames().size());
        QCOMPARE(policy->currentText(), QStringLiteral("mcts"));
        for (int i = 0; i < policy->count(); ++i) {
            policy->setCurrentIndex(i);
            const auto config = search::configFromJson(json::parse(dialog.configJson().toStdString()));
            QVERIFY2(config, config ? "" : config.error().message.c_str());
            QCOMPARE(QString::fromStdString(tree::policyName(config->policy)), policy->itemText(i));
        }
        QVERIFY(!search::configFromJson(json{{"policy", "evolutionary"}}));
    }

    // Every option of `search start` is in the dialog and reaches the
    // config the engine reads; a billed model needs a spending cap.
    void newSearchDialogHasTheCliOptionsAndCapsBilledModels() {
        ui::NewSearchDialog dialog({{QStringLiteral("saxpy"), test::problemDir("saxpy")}});
        auto* memory = dialog.findChild<QComboBox*>(QStringLiteral("memory"));
        QVERIFY(memory);
        QCOMPARE(static_cast<std::size_t>(memory->count()), tree::memoryModeNames().size());
        QCOMPARE(memory->currentText(), QStringLiteral("both"));
        memory->setCurrentText(QStringLiteral("ancestors"));
        dialog.findChild<QDoubleSpinBox*>(QStringLiteral("maxWall"))->setValue(600);
        dialog.findChild<QDoubleSpinBox*>(QStringLiteral("target"))->setValue(2.5);
        dialog.findChild<QDoubleSpinBox*>(QStringLiteral("stall"))->setValue(20);
        auto* tokens = dialog.findChild<QDoubleSpinBox*>(QStringLiteral("maxTokens"));
        auto* cost = dialog.findChild<QDoubleSpinBox*>(QStringLiteral("maxCost"));
        QVERIFY(!tokens->isEnabled() && !cost->isEnabled()); // the tuner spends nothing
        QVERIFY(!dialog.checkOnly());
        dialog.findChild<QCheckBox*>(QStringLiteral("checkOnly"))->setChecked(true);
        QVERIFY(dialog.checkOnly());
        auto config = search::configFromJson(json::parse(dialog.configJson().toStdString()));
        QVERIFY2(config, config ? "" : config.error().message.c_str());
        QCOMPARE(config->memory, tree::MemoryMode::Ancestors);
        QCOMPARE(config->maxWallSeconds, 600.0);
        QCOMPARE(config->targetSpeedup, 2.5);
        QCOMPARE(config->stallEvaluations, 20);

        qputenv("OPENAI_API_KEY", "sk-never-sent");
        auto* synth = dialog.findChildren<QComboBox*>().at(2);
        synth->setCurrentText(QStringLiteral("llm"));
        QVERIFY(tokens->isEnabled() && cost->isEnabled());
        dialog.findChild<QLineEdit*>()->setText(QStringLiteral("openai:gpt-4o"));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        auto* error = dialog.findChild<QLabel*>(QStringLiteral("newSearchError"));
        QVERIFY2(error->text().contains(QStringLiteral("is billed")) && error->text().contains(QStringLiteral("Max cost")),
                 qPrintable(error->text()));
        cost->setValue(5);
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        config = search::configFromJson(json::parse(dialog.configJson().toStdString()));
        QVERIFY2(config, config ? "" : config.error().message.c_str());
        QCOMPARE(config->maxCostUsd, 5.0);
        qunsetenv("OPENAI_API_KEY");
        if (const QString out = qEnvironmentVariable("KW_SCREENSHOT_DIR"); !out.isEmpty()) {
            QDir().mkpath(out);
            dialog.show();
            dialog.resize(dialog.sizeHint());
            QApplication::processEvents();
            QVERIFY(dialog.grab().save(QDir(out).filePath(QStringLiteral("new-search-dialog.png"))));
        }

        // The rest of search start's options, folded until asked for.
        auto* exploration = dialog.findChild<QDoubleSpinBox*>(QStringLiteral("exploration"));
        auto* more = dialog.findChild<QCheckBox*>(QStringLiteral("moreOptions"));
        QVERIFY(exploration && more);
        QVERIFY(!exploration->isVisibleTo(&dialog));
        more->setChecked(true);
        QVERIFY(exploration->isVisibleTo(&dialog));
        exploration->setValue(0.4);
        dialog.findChild<QDoubleSpinBox*>(QStringLiteral("nearRoofline"))->setValue(0.8);
        dialog.findChild<QSpinBox*>(QStringLiteral("llmConcurrency"))->setValue(6);
        auto* polish = dialog.findChild<QSpinBox*>(QStringLiteral("polish"));
        QVERIFY(!polish->isEnabled()); // polishing is the hybrid's
        synth->setCurrentText(QStringLiteral("hybrid"));
        QVERIFY(polish->isEnabled());
        polish->setValue(2);
        dialog.findChild<QCheckBox*>(QStringLiteral("seedFromHistory"))->setChecked(true);
        dialog.findChild<QCheckBox*>(QStringLiteral("distill"))->setChecked(true);
        config = search::configFromJson(json::parse(dialog.configJson().toStdString()));
        QVERIFY2(config, config ? "" : config.error().message.c_str());
        QCOMPARE(config->mctsExploration, 0.4);
        QCOMPARE(config->stopNearRoofline, 0.8);
        QCOMPARE(config->llmConcurrency, 6);
        QCOMPARE(config->polishSteps, 2);
        QVERIFY(config->seedFromHistory && config->distillSkill);
        if (const QString out = qEnvironmentVariable("KW_SCREENSHOT_DIR"); !out.isEmpty()) {
            dialog.resize(dialog.sizeHint());
            QApplication::processEvents();
            QVERIFY(dialog.grab().save(QDir(out).filePath(QStringLiteral("new-search-dialog-more.png"))));
        }
    }

    void newSearchDialogRemembersTheLastChoices() {
        {
            ui::NewSearchDialog dialog({{QStringLiteral("saxpy"), test::problemDir("saxpy")}});
            dialog.restoreChoices({{QStringLiteral("synth"), QStringLiteral("tuner")}}); // no model to resolve here
            dialog.findChild<QComboBox*>(QStringLiteral("memory"))->setCurrentText(QStringLiteral("ancestors"));
            dialog.findChild<QDoubleSpinBox*>(QStringLiteral("target"))->setValue(2.5);
            dialog.findChild<QCheckBox*>(QStringLiteral("checkOnly"))->setChecked(true);
            dialog.restoreChoices({{QStringLiteral("budget"), 12}, {QStringLiteral("policy"), QStringLiteral("no such policy")}});
            dialog.accept(); // starts: what was chosen is remembered
            QVERIFY2(dialog.result() == QDialog::Accepted,
                     qPrintable(dialog.findChild<QLabel*>(QStringLiteral("newSearchError"))->text()));
        }
        ui::NewSearchDialog again({{QStringLiteral("saxpy"), test::problemDir("saxpy")}});
        QCOMPARE(again.findChild<QComboBox*>(QStringLiteral("memory"))->currentText(), QStringLiteral("ancestors"));
        QCOMPARE(again.findChild<QDoubleSpinBox*>(QStringLiteral("target"))->value(), 2.5);
        QVERIFY(again.checkOnly());
        QCOMPARE(again.choices()[QStringLiteral("budget")].toInt(), 12);
        QCOMPARE(again.choices()[QStringLiteral("synth")].toString(), QStringLiteral("tuner"));
        // A policy no longer offered left the default in place.
        QCOMPARE(again.choices()[QStringLiteral("policy")].toString(),
                 QString::fromStdString(tree::policyName(tree::SearchConfig{}.policy)));
        // A dialog closed without starting remembers nothing.
        again.findChild<QComboBox*>(QStringLiteral("memory"))->setCurrentText(QStringLiteral("both"));
        again.reject();
        ui::NewSearchDialog third({{QStringLiteral("saxpy"), test::problemDir("saxpy")}});
        QCOMPARE(third.findChild<QComboBox*>(QStringLiteral("memory"))->currentText(), QStringLiteral("ancestors"));
        QSettings(QStringLiteral("Kernelwright"), QStringLiteral("Kernelwright")).clear(); // the next tests see the defaults
    }

    void newSearchDialogRefusesModelsThatDoNotResolve() {
        ui::NewSearchDialog dialog({{QStringLiteral("saxpy"), test::problemDir("saxpy")}});
        auto* synth = dialog.findChildren<QComboBox*>().at(2);
        QCOMPARE(synth->itemText(1), QStringLiteral("llm"));
        synth->setCurrentIndex(1);
        auto* models = dialog.findChild<QLineEdit*>();
        QVERIFY(models->isEnabled());
        models->setText(QStringLiteral("no-such-model"));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        auto* error = dialog.findChild<QLabel*>(QStringLiteral("newSearchError"));
        QVERIFY(error && !error->isHidden());
        QVERIFY2(error->text().contains(QStringLiteral("no-such-model")), qPrintable(error->text()));
        // A local preset needs no key: accepted, with its weight.
        models->setText(QStringLiteral("ollama:qwen2.5-coder:2"));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        const auto config = json::parse(dialog.configJson().toStdString());
        QCOMPARE(config["models"][0]["name"].get<std::string>(), std::string("ollama:qwen2.5-coder"));
        QCOMPARE(config["models"][0]["weight"].get<double>(), 2.0);

        // Candidates may run on GPU hosts over ssh: the hosts are checked before the dialog closes.
        ui::NewSearchDialog remote({{QStringLiteral("saxpy"), test::problemDir("saxpy")}});
        auto combos = remote.findChildren<QComboBox*>();
        auto* executor = combos.at(3);
        QCOMPARE(executor->itemData(1).toString(), QStringLiteral("ssh"));
        executor->setCurrentIndex(1);
        remote.accept();
        QCOMPARE(remote.result(), int(QDialog::Rejected));
        QVERIFY(remote.findChild<QLabel*>(QStringLiteral("newSearchError"))->text().contains(QStringLiteral("at least one")));
        remote.findChild<QLineEdit*>(QStringLiteral("sshHosts"))->setText(QStringLiteral("me@gpu-box:2222, gpu2"));
        remote.findChild<QLineEdit*>(QStringLiteral("sshGpus"))->setText(QStringLiteral("0,1"));
        remote.accept();
        QCOMPARE(remote.result(), int(QDialog::Accepted));
        const auto ssh = remote.executorConfig();
        QVERIFY(ssh.ok() && ssh->kind == eval::ExecutorKind::Ssh);
        const auto& hosts = ssh->ssh.hosts;
        QCOMPARE(hosts.size(), std::size_t(2));
        QCOMPARE(hosts[0].user, std::string("me"));
        QCOMPARE(hosts[0].port, 2222);
        QCOMPARE(hosts[1].host, std::string("gpu2"));
        QCOMPARE(hosts[1].slotCount, std::size_t(2));
        QCOMPARE(hosts[1].gpus, (std::vector<std::string>{"0", "1"}));
    }

    // Or on a Slurm cluster, given in the dialog or named by a profile of executors.json.
    void newSearchDialogRunsOnSlurm() {
        const auto profiles = eval::defaultExecutorProfilesFile();
        std::filesystem::remove(profiles);
        ui::NewSearchDialog cluster({{QStringLiteral("saxpy"), test::problemDir("saxpy")}});
        auto* executor = cluster.findChildren<QComboBox*>().at(3);
        QCOMPARE(executor->itemData(2).toString(), QStringLiteral("slurm"));
        QCOMPARE(executor->count(), 3); // no profiles file: no profiles
        auto* dir = cluster.findChild<QLineEdit*>(QStringLiteral("slurmDir"));
        QVERIFY(!dir->isEnabled());
        executor->setCurrentIndex(2);
        QVERIFY(dir->isEnabled());
        QVERIFY(!cluster.findChild<QLineEdit*>(QStringLiteral("sshHosts"))->isEnabled());
        cluster.accept();
        QCOMPARE(cluster.result(), int(QDialog::Rejected));
        QVERIFY(cluster.findChild<QLabel*>(QStringLiteral("newSearchError"))->text().contains(QStringLiteral("absolute path")));
        dir->setText(QStringLiteral("/shared/kw-jobs"));
        cluster.findChild<QLineEdit*>(QStringLiteral("slurmPartition"))->setText(QStringLiteral("gpu"));
        cluster.findChild<QLineEdit*>(QStringLiteral("slurmGres"))->setText(QStringLiteral("gpu:1"));
        cluster.findChild<QSpinBox*>(QStringLiteral("slurmJobs"))->setValue(8);
        cluster.accept();
        QCOMPARE(cluster.result(), int(QDialog::Accepted));
        auto slurm = cluster.executorConfig();
        QVERIFY(slurm.ok() && slurm->kind == eval::ExecutorKind::Slurm);
        QCOMPARE(slurm->slurm.sharedDir, std::filesystem::path("/shared/kw-jobs"));
        QCOMPARE(slurm->slurm.submit.partition, std::string("gpu"));
        QCOMPARE(slurm->slurm.submit.gres, std::string("gpu:1"));
        QCOMPARE(slurm->slurm.maxJobs, std::size_t(8));

        std::filesystem::create_directories(profiles.parent_path());
        QVERIFY(writeFileAtomic(profiles, R"({"profiles": {"gpu-cluster": {"kind": "slurm", "dir": "/shared/kw", "jobs": 16}}})")
                    .ok());
        ui::NewSearchDialog named({{QStringLiteral("saxpy"), test::problemDir("saxpy")}});
        auto* choices = named.findChildren<QComboBox*>().at(3);
        const int at = choices->findData(QStringLiteral("profile:gpu-cluster"));
        QVERIFY(at >= 0);
        QVERIFY2(choices->itemText(at).contains(QStringLiteral("slurm")), qPrintable(choices->itemText(at)));
        choices->setCurrentIndex(at);
        named.accept();
        QCOMPARE(named.result(), int(QDialog::Accepted));
        slurm = named.executorConfig();
        QVERIFY(slurm.ok() && slurm->kind == eval::ExecutorKind::Slurm);
        QCOMPARE(slurm->slurm.maxJobs, std::size_t(16));

        // A malformed file is said in the dialog; the other choices still work.
        QVERIFY(writeFileAtomic(profiles, R"({"profiles": {"gpu-cluster": {"kind": "slurm"}}})").ok());
        ui::NewSearchDialog broken({{QStringLiteral("saxpy"), test::problemDir("saxpy")}});
        auto* error = broken.findChild<QLabel*>(QStringLiteral("newSearchError"));
        QVERIFY2(!error->isHidden() && error->text().contains(QStringLiteral("\"dir\"")), qPrintable(error->text()));
        QCOMPARE(broken.findChildren<QComboBox*>().at(3)->count(), 3);
        std::filesystem::remove(profiles);
    }

    void screenshotsOfTheWindowAndEveryTab() {
        const QString out = qEnvironmentVariable("KW_SCREENSHOT_DIR");
        QVERIFY2(!qEnvironmentVariable("KW_GUI").isEmpty() && !out.isEmpty(), "KW_GUI and KW_SCREENSHOT_DIR come from CTest");
        QDir().mkpath(out);
        auto ro = store::Database::open(db().toStdString(), store::Database::Mode::ReadOnly);
        QVERIFY(ro);
        auto searches = store::SearchStore(*ro).listSearches();
        QVERIFY(searches && !searches->empty());
        const auto& s = searches->front();
        QVERIFY(s.bestNode);
        const QStringList tabs{"Node", "Code", "Diff", "Evaluation", "Profile", "LLM", "Progress"};
        for (const QString& tab : QStringList{QString()} + tabs) {
            const QString file = QDir(out).filePath(tab.isEmpty() ? QStringLiteral("window.png")
                                                                  : QStringLiteral("inspector-%1.png").arg(tab.toLower()));
            QStringList args{"--search", QString::number(s.id)};
            if (!tab.isEmpty()) args << "--node" << QString::number(numberOf(*ro, *s.bestNode)) << "--inspector-tab" << tab;
            screenshot(db(), args, file);
            if (QTest::currentTestFailed()) return;
        }
        // The language-model search started in the workbench: its reasoning and
        // its spending; and the dark theme, on the same pages.
        auto llmRo = store::Database::open(llmDb().toStdString(), store::Database::Mode::ReadOnly);
        QVERIFY(llmRo);
        auto llmSearches = store::SearchStore(*llmRo).listSearches();
        QVERIFY(llmSearches && !llmSearches->empty() && llmSearches->front().bestNode);
        const auto& l = llmSearches->front();
        const std::pair<QString, QString> pages[] = {
            {"light", "LLM"}, {"light", "Progress"}, {"dark", "Code"}, {"dark", "LLM"}, {"dark", "Progress"}};
        for (const auto& [theme, tab] : pages) {
            screenshot(llmDb(),
                       {"--theme", theme, "--search", QString::number(l.id), "--node",
                        QString::number(numberOf(*llmRo, *l.bestNode)), "--inspector-tab", tab},
                       QDir(out).filePath(QStringLiteral("llm-%1-%2.png").arg(theme, tab.toLower())));
            if (QTest::currentTestFailed()) return;
        }
    }
};

QTEST_MAIN(TestWorkbenchLive)
#include "tst_workbench_live.moc"
