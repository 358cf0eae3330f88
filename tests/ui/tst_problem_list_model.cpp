// The workbench's models over fixture problems and a scratch workspace, and a
// smoke test of the main window. Headless (QT_QPA_PLATFORM=offscreen).
#include "models/evaluation_list_model.h"
#include "models/node_table_model.h"
#include "models/problem_list_model.h"
#include "store/database.h"
#include "store/evaluation_store.h"
#include "store/search_store.h"
#include "store_records.h"
#include "test_support.h"
#include "widgets/problem_details_view.h"
#include "widgets/search_view.h"
#include "windows/app_settings.h"
#include "windows/main_window.h"

#include <QtCore/QSettings>
#include <QtCore/QStandardPaths>
#include <QtCore/QTemporaryDir>
#include <QtCore/QTimer>
#include <QtGui/QAction>
#include <QtTest/QAbstractItemModelTester>
#include <QtTest/QtTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QTabWidget>
#include <QtWidgets/QTableView>

using kw::ui::EvaluationListModel;
using kw::ui::ProblemListModel;

namespace {

int rowOf(const ProblemListModel& model, const QString& id) {
    for (int r = 0; r < model.rowCount(); ++r)
        if (model.problemAt(r).id == id) return r;
    return -1;
}

kw::store::EvaluationRecord record(const std::string& problem, const std::string& status, std::optional<double> speedup) {
    kw::store::EvaluationRecord r;
    r.cacheKey = problem + "-" + status;
    r.problem = problem;
    r.problemHash = "p0";
    r.candidateHash = "c0";
    r.paramsJson = R"({"UNROLL":"4"})";
    r.status = status;
    r.speedup = speedup;
    r.resultJson = "{}";
    return r;
}

// Two evaluations in a fresh workspace at path; the second is the newest.
void fillWorkspace(const QString& path) {
    auto db = kw::store::Database::open(path.toStdString());
    QVERIFY2(db.ok(), db.ok() ? "" : db.error().message.c_str());
    kw::store::EvaluationStore store(*db);
    const auto first = store.insert(record("saxpy", "ok", 1.5));
    QVERIFY(first.ok());
    QVERIFY(store.insert(record("tiny_values", "wrong_answer", std::nullopt)).ok());
    // The first one was node #7 of a search.
    kw::store::SearchStore searches(*db);
    auto search = kw::test::searchRecord("saxpy", "");
    auto sid = searches.createSearch(search);
    QVERIFY(sid.ok() && searches.putSource("src", "void k() {}").ok());
    auto n = kw::test::doneNode(*sid, 7);
    auto nodeId = searches.insertNode(n);
    QVERIFY(nodeId.ok());
    n.id = *nodeId;
    n.evaluationId = *first; // recorded with the node's result
    search.id = *sid;
    QVERIFY(searches.finishNode(n, search).ok());
}

} // namespace

class TestProblemListModel : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        // Keeps QSettings written by the window out of the user's configuration.
        QStandardPaths::setTestModeEnabled(true);
        QSettings(QStringLiteral("Kernelwright"), QStringLiteral("Kernelwright")).clear(); // no state from an earlier run
    }

    void listsValidAndInvalidProblems() {
        ProblemListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.reload(kw::test::dataDir() / "problems");
        QCOMPARE(model.rowCount(), 7);
        QCOMPARE(model.columnCount(), int(ProblemListModel::ColumnCount));

        const int saxpy = rowOf(model, QStringLiteral("saxpy"));
        QVERIFY(saxpy >= 0);
        QVERIFY(model.problemAt(saxpy).valid());
        QCOMPARE(model.index(saxpy, ProblemListModel::Name).data().toString(), QStringLiteral("saxpy"));
        QCOMPARE(model.index(saxpy, ProblemListModel::Status).data().toString(), QStringLiteral("ok"));
        QCOMPARE(model.index(saxpy, ProblemListModel::Backend).data().toString(), QStringLiteral("cpp"));
        QCOMPARE(model.index(saxpy, ProblemListModel::Seeds).data().toInt(), 1);
        QCOMPARE(model.index(saxpy, ProblemListModel::Configurations).data().toULongLong(), 4ull); // UNROLL: 1|2|4|8
        QVERIFY(rowOf(model, QStringLiteral("tiny_values")) >= 0);
        QVERIFY(model.problemAt(rowOf(model, QStringLiteral("tiny_values"))).valid());

        for (const auto* id : {"bad_json", "bad_schema", "missing_reference"}) {
            const int row = rowOf(model, QString::fromLatin1(id));
            QVERIFY2(row >= 0, id);
            const auto& problem = model.problemAt(row);
            QVERIFY2(!problem.valid(), id);
            QVERIFY2(!problem.error.isEmpty(), id);
            QCOMPARE(model.index(row, ProblemListModel::Status).data().toString(), QStringLiteral("invalid"));
            const auto tooltip = model.index(row, ProblemListModel::Status).data(Qt::ToolTipRole).toString();
            QVERIFY2(tooltip.contains(problem.error), qPrintable(tooltip));
        }
    }

    void reloadKeepsRowCountStable() {
        ProblemListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const auto root = kw::test::dataDir() / "problems";
        model.reload(root);
        const int first = model.rowCount();
        model.reload(root);
        QCOMPARE(model.rowCount(), first);
        model.reload(kw::test::dataDir() / "no-such-folder");
        QCOMPARE(model.rowCount(), 0);
    }

    void detailsDescribeAProblem() {
        ProblemListModel model;
        model.reload(kw::test::dataDir() / "problems");
        const auto html = kw::ui::problemDetailsHtml(model.problemAt(rowOf(model, QStringLiteral("saxpy"))), QPalette());
        QVERIFY(html.contains(QStringLiteral("void saxpy(const float* x")));
        QVERIFY(html.contains(QStringLiteral("UNROLL")));
        QVERIFY(html.contains(QStringLiteral("1 | 2 | 4 | 8")));
        QVERIFY(html.contains(QStringLiteral("N = 4099")));

        const auto& bad = model.problemAt(rowOf(model, QStringLiteral("bad_schema")));
        QVERIFY(!bad.errorWithoutDir().contains(bad.dir));
        QVERIFY(kw::ui::problemDetailsHtml(bad, QPalette()).contains(bad.errorWithoutDir().toHtmlEscaped()));
    }

    // A correct node a check-only search never timed reads "checked", not "0x".
    void nodeTableSaysCheckedForUntimedNodes() {
        kw::ui::NodeTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        kw::ui::NodeSnapshot timed, untimed, failed;
        timed.id = 1, timed.seq = 1, timed.glyph = kw::ui::NodeGlyph::Correct, timed.speedup = 2.5;
        untimed.id = 2, untimed.seq = 2, untimed.glyph = kw::ui::NodeGlyph::Correct, untimed.speedup = 0;
        failed.id = 3, failed.seq = 3, failed.glyph = kw::ui::NodeGlyph::Wrong;
        model.setRows({timed, untimed, failed});
        const auto speedup = [&](int row) { return model.index(row, kw::ui::NodeTableModel::Speedup).data().toString(); };
        QVERIFY2(speedup(0).startsWith(QStringLiteral("2")), qPrintable(speedup(0)));
        QCOMPARE(speedup(1), QStringLiteral("checked"));
        QCOMPARE(speedup(2), QString());
    }

    // One column per tunable parameter (the union over the nodes), sorted as
    // numbers; NAME=value in the filter matches a parameter exactly, other
    // words as before; the Params column reads as the filter is typed.
    void nodeTableHasAColumnPerParamAndFiltersByValue() {
        kw::ui::NodeTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        std::vector<kw::ui::NodeSnapshot> nodes(4);
        const char* params[] = {R"({"VEC":"8","BLOCK":"256"})", R"({"VEC":"16","BLOCK":"1024"})",
                                R"({"VEC":"4","UNROLL":"true"})", ""};
        for (int i = 0; i < 4; ++i) {
            nodes[i].id = 10 + i, nodes[i].seq = i + 1, nodes[i].glyph = kw::ui::NodeGlyph::Correct, nodes[i].speedup = 1 + i;
            nodes[i].params = QString::fromUtf8(params[i]);
            nodes[i].sourceName = QStringLiteral("kernel_%1").arg(i);
        }
        nodes[1].intervalLow = 1.5, nodes[1].intervalHigh = 2.25;
        model.setRows(nodes);
        QCOMPARE(model.paramNames(), (QStringList{"BLOCK", "UNROLL", "VEC"}));
        QVERIFY(model.index(1, kw::ui::NodeTableModel::Interval).data().toString().startsWith(QStringLiteral("1")));
        QVERIFY(model.index(1, kw::ui::NodeTableModel::Interval).data().toString().endsWith(QStringLiteral("×")));
        QCOMPARE(model.index(0, kw::ui::NodeTableModel::Interval).data().toString(), QString()); // not known
        QCOMPARE(model.columnCount(), int(kw::ui::NodeTableModel::ColumnCount) + 3);
        const int vec = kw::ui::NodeTableModel::ColumnCount + 2, block = kw::ui::NodeTableModel::ColumnCount;
        QCOMPARE(model.headerData(vec, Qt::Horizontal).toString(), QStringLiteral("VEC"));
        QCOMPARE(model.index(0, vec).data().toString(), QStringLiteral("8"));
        QCOMPARE(model.index(2, block).data().toString(), QString()); // a node without that param
        QCOMPARE(model.index(0, kw::ui::NodeTableModel::Params).data().toString(), QStringLiteral("BLOCK=256 VEC=8"));

        kw::ui::NodeFilterProxy proxy;
        proxy.setSourceModel(&model);
        proxy.sort(vec, Qt::AscendingOrder); // 4 < 8 < 16 as numbers, not as text
        QStringList order;
        for (int r = 0; r < proxy.rowCount(); ++r)
            if (const QString v = proxy.index(r, vec).data().toString(); !v.isEmpty()) order << v;
        QCOMPARE(order, (QStringList{"4", "8", "16"}));

        const auto shown = [&](const QString& text) {
            kw::ui::NodeTableFilter f;
            f.text = text;
            proxy.setNodeFilter(f);
            QStringList ids;
            for (int r = 0; r < proxy.rowCount(); ++r) ids << proxy.index(r, kw::ui::NodeTableModel::Id).data().toString();
            ids.sort();
            return ids.join(',');
        };
        QCOMPARE(shown(QStringLiteral("VEC=8")), QStringLiteral("1")); // not 16's "8" inside a longer text
        QCOMPARE(shown(QStringLiteral("vec=16 block=1024")), QStringLiteral("2"));
        QCOMPARE(shown(QStringLiteral("VEC=8.0")), QStringLiteral("1"));
        QCOMPARE(shown(QStringLiteral("UNROLL=true")), QStringLiteral("3"));
        QCOMPARE(shown(QStringLiteral("VEC=2")), QString());
        QCOMPARE(shown(QStringLiteral("kernel_1")), QStringLiteral("2"));
        QCOMPARE(shown(QStringLiteral("BLOCK=256 kernel_0")), QStringLiteral("1"));
        QCOMPARE(shown(QString()), QStringLiteral("1,2,3,4"));
    }

    void listsRecentEvaluations() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto path = dir.filePath(QStringLiteral("ws.db"));
        fillWorkspace(path);
        auto db = kw::store::Database::open(path.toStdString());
        QVERIFY(db.ok());
        auto records = kw::store::EvaluationStore(*db).recent(50);
        QVERIFY(records.ok());

        EvaluationListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        std::vector<kw::ui::EvaluationRow> rows;
        for (const auto& r : *records) rows.push_back(kw::ui::EvaluationRow::fromRecord(r));
        model.setEvaluations(rows);
        QCOMPARE(model.rowCount(), 2);
        // Newest first; a wrong answer has no speedup, shown as an empty cell, not 0.
        QCOMPARE(model.index(0, EvaluationListModel::Problem).data().toString(), QStringLiteral("tiny_values"));
        QCOMPARE(model.index(0, EvaluationListModel::Speedup).data().toString(), QString());
        QCOMPARE(model.index(1, EvaluationListModel::Status).data().toString(), QStringLiteral("ok"));
        QVERIFY(model.index(1, EvaluationListModel::Speedup).data().toString().startsWith(QStringLiteral("1")));
        QVERIFY(model.evaluationAt(1).createdAt.isValid());
        // Named by the search and node number the tree shows; the id is in the tooltip.
        QCOMPARE(model.index(1, EvaluationListModel::Node).data().toString(), QStringLiteral("search 1 · #7"));
        QVERIFY(
            model.index(1, EvaluationListModel::Node).data(Qt::ToolTipRole).toString().contains(QStringLiteral("evaluation 1")));
        QCOMPARE(model.index(0, EvaluationListModel::Node).data().toString(), QString());

        model.setEvaluations(rows); // a refresh with the same rows
        QCOMPARE(model.rowCount(), 2);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void mainWindowOpensAWorkspace() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto path = dir.filePath(QStringLiteral("smoke-ws.db"));
        fillWorkspace(path);

        kw::ui::MainWindow window(kw::test::dataDir() / "problems");
        QVERIFY(window.openWorkspace(path).ok());
        QVERIFY2(window.windowTitle().contains(QStringLiteral("smoke-ws.db")), qPrintable(window.windowTitle()));
        QCOMPARE(window.workspacePath(), path);

        auto* table = window.findChild<QTableView*>(QStringLiteral("problemTable"));
        QVERIFY(table);
        QVERIFY(table->model()->rowCount() > 0);
        // The first valid problem is selected, so the details are not empty.
        QVERIFY(table->currentIndex().isValid());
        const auto& selected = window.problemModel()->problemAt(table->currentIndex().row());
        QVERIFY(selected.valid());
        QVERIFY(window.detailsView()->toPlainText().contains(QString::fromStdString(selected.spec->prototype())));
        QCOMPARE(window.evaluationModel()->rowCount(), 2);

        // A file that is not a database: an error value, and the open workspace stays.
        const auto junk = dir.filePath(QStringLiteral("junk.db"));
        QFile file(junk);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(4096, 'x'));
        file.close();
        const auto status = window.openWorkspace(junk);
        QVERIFY(!status.ok());
        QVERIFY(!status.error().message.empty());
        QCOMPARE(window.workspacePath(), path);
        QVERIFY(window.windowTitle().contains(QStringLiteral("smoke-ws.db")));

        // Interactively, the same failure is a message box carrying the error's text.
        QString shownText;
        QTimer::singleShot(0, &window, [&shownText] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                shownText = box->informativeText();
                box->accept();
            }
        });
        QVERIFY(!window.openWorkspaceOrWarn(junk));
        QCOMPARE(shownText, QString::fromStdString(status.error().message));
    }

    void mainWindowHasTheKeyboardShortcuts() {
        kw::ui::MainWindow window(kw::test::dataDir() / "problems");
        QStringList shortcuts;
        for (const auto* action : window.findChildren<QAction*>()) shortcuts << action->shortcut().toString();
        QVERIFY(shortcuts.contains(QStringLiteral("Ctrl+O")));
        QVERIFY(shortcuts.contains(QStringLiteral("Ctrl+Q")));
        QVERIFY(shortcuts.contains(QStringLiteral("Ctrl+W")));
        QVERIFY(shortcuts.contains(QStringLiteral("F1")));
    }

    void remembersTheLastWorkspace() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto path = dir.filePath(QStringLiteral("remembered.db"));
        // Test mode keeps this out of the user's own settings.
        QVERIFY(QSettings(QStringLiteral("Kernelwright"), QStringLiteral("Kernelwright"))
                    .fileName()
                    .contains(QStringLiteral("qttest")));
        {
            kw::ui::MainWindow window(kw::test::dataDir() / "problems");
            QVERIFY(window.openWorkspace(path).ok());
            QVERIFY(window.close()); // closing saves the workspace and the window's layout
        }
        QCOMPARE(kw::ui::settings::lastWorkspace(), path);
        QCOMPARE(kw::ui::settings::initialWorkspace(QString()), path);
        QCOMPARE(kw::ui::settings::initialWorkspace(QStringLiteral("other.db")), QStringLiteral("other.db"));
        QVERIFY(!kw::ui::settings::mainWindowState().geometry.isEmpty());
    }

    void restoresSearchTabsPerWorkspace() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto first = dir.filePath(QStringLiteral("tabs-a.db")), second = dir.filePath(QStringLiteral("tabs-b.db"));
        std::vector<std::int64_t> ids;
        {
            auto db = kw::store::Database::open(first.toStdString());
            QVERIFY(db.ok());
            for (int i = 0; i < 3; ++i) {
                auto id = kw::store::SearchStore(*db).createSearch(kw::test::searchRecord("vector_add", "finished"));
                QVERIFY(id.ok());
                ids.push_back(*id);
            }
        }
        auto tabIds = [](const kw::ui::MainWindow& w) {
            QList<qint64> open;
            for (int i = 1; i < w.tabs()->count(); ++i)
                if (auto* v = qobject_cast<kw::ui::SearchView*>(w.tabs()->widget(i))) open.push_back(v->searchId());
            return open;
        };
        {
            kw::ui::MainWindow window(kw::test::dataDir() / "problems");
            QVERIFY(window.openWorkspace(first).ok());
            QVERIFY(window.openSearch(ids[2]));
            QVERIFY(window.openSearch(ids[0]));
            // Another workspace has tabs of its own: none yet.
            QVERIFY(window.openWorkspace(second).ok());
            QCOMPARE(window.tabs()->count(), 1);
            // Back again: the same tabs in the same order, the last one in front.
            QVERIFY(window.openWorkspace(first).ok());
            QCOMPARE(tabIds(window), (QList<qint64>{ids[2], ids[0]}));
            QCOMPARE(qobject_cast<kw::ui::SearchView*>(window.tabs()->currentWidget())->searchId(), ids[0]);
            window.tabs()->setCurrentIndex(1);
            QVERIFY(window.close());
        }
        // A later run restores them too, and skips a search that is gone.
        {
            auto db = kw::store::Database::open(first.toStdString());
            QVERIFY(db.ok());
            QVERIFY(db->exec("DELETE FROM searches WHERE id = " + std::to_string(ids[0])).ok());
        }
        kw::ui::MainWindow window(kw::test::dataDir() / "problems");
        QVERIFY(window.openWorkspace(first).ok());
        QCOMPARE(tabIds(window), (QList<qint64>{ids[2]}));
        QCOMPARE(window.tabs()->currentIndex(), 1);
    }
};

QTEST_MAIN(TestProblemListModel)
#include "tst_problem_list_model.moc"
