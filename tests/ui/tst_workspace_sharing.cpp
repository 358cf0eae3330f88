// The workbench, the CLI and a search process on one workspace, as the README
// teaches: the workbench (this process) opens file dialogs in the workspace's
// folder while kernelwright-cli runs beside it (`search list`, `search start`,
// steering). A dialog that opened the database to guess its type dropped this
// process's SQLite locks, and the next CLI command, taking the workspace for
// unused, removed its write-ahead log under the workbench ("database disk
// image is malformed", "No searches"). The checks are on what a user would
// meet and on its cause: the locks this process holds (/proc/locks) and the
// identity of the files SQLite keeps beside the database.
#include "charts/progress_plot.h"
#include "cli_runner.h"
#include "models/search_list_model.h"
#include "search/steering.h"
#include "store/workspace_files.h"
#include "test_support.h"
#include "tree/tree_canvas.h"
#include "widgets/search_view.h"
#include "windows/main_window.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtCore/QTimer>
#include <QtGui/QAction>
#include <QtTest/QSignalSpy>
#include <QtTest/QtTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QFileDialog>
#include <QtWidgets/QInputDialog>
#include <QtWidgets/QLabel>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QTabWidget>
#include <QtWidgets/QTextBrowser>
#include <QtWidgets/QToolButton>

#include <sys/stat.h>
#include <unistd.h>

#include <functional>

using namespace kw;

namespace {

QString saxpy() {
    return QString::fromStdString(test::problemDir("saxpy").string());
}

QString rmsnorm() { // a space of 108 configurations: a search of it runs for minutes
    return QString::fromStdString((test::bundledProblemsDir() / "cpu" / "rmsnorm_fwd").string());
}

quint64 inodeOf(const QString& file) {
    struct stat st {};
    return ::stat(file.toLocal8Bit().constData(), &st) == 0 ? static_cast<quint64>(st.st_ino) : 0;
}

// The POSIX locks this process holds on file, as the kernel lists them:
// "1: POSIX  ADVISORY  READ 4242 fe:01:1234 128 128".
int locksHeld(const QString& file) {
    const quint64 inode = inodeOf(file);
    QFile locks(QStringLiteral("/proc/locks"));
    if (!inode || !locks.open(QIODevice::ReadOnly)) return -1;
    const QString pid = QString::number(::getpid());
    int held = 0;
    for (const auto& line : QString::fromLatin1(locks.readAll()).split(QLatin1Char('\n'))) {
        const auto f = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (f.size() > 5 && f[0] != QStringLiteral("->") && f[4] == pid &&
            f[5].section(QLatin1Char(':'), 2).toULongLong() == inode)
            ++held;
    }
    return held;
}

// Triggers action (which opens a file dialog and waits for it), lets the
// dialog list its folder and fetch its icons for a while, then cancels it.
bool browseWith(QAction* action) {
    bool seen = false;
    std::function<void()> poll = [&] {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        if (!dialog) {
            QTimer::singleShot(50, poll);
            return;
        }
        seen = true;
        QTimer::singleShot(2000, dialog, &QDialog::reject);
    };
    QTimer::singleShot(0, poll);
    action->trigger();
    return seen;
}

QAction* actionNamed(QObject* root, const QString& text) {
    for (auto* a : root->findChildren<QAction*>())
        if (a->text() == text) return a;
    return nullptr;
}

} // namespace

class TestWorkspaceSharing : public QObject {
    Q_OBJECT
  private:
    QTemporaryDir dir_;
    QString db() const { return dir_.filePath(QStringLiteral("ws.db")); }

    void verifyFilesKept(quint64 wal, quint64 shm, const char* after) {
        QVERIFY2(inodeOf(db() + "-wal") == wal,
                 qPrintable(QStringLiteral("the write-ahead log was removed or replaced after %1").arg(after)));
        QVERIFY2(inodeOf(db() + "-shm") == shm,
                 qPrintable(QStringLiteral("the shared-memory index was removed or replaced after %1").arg(after)));
    }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        // Dialogs that start in the current folder (exports, a manual child) list the workspace's, as from a terminal in it.
        QVERIFY(QDir::setCurrent(dir_.path()));
    }

    void fileDialogsCliAndASearchShareTheWorkspace() {
        // The workspace, with a finished search, written by a first CLI process.
        auto first = test::runCli(
            {"--db", db(), "search", "start", "--problem", saxpy(), "--budget", "2", "--workers", "1", "--time-budget", "0.05"});
        QVERIFY2(first.code == 0, qPrintable(first.err));

        ui::MainWindow window(test::dataDir() / "problems");
        window.show();
        QVERIFY(window.openWorkspace(db()).ok());
        QTRY_COMPARE_WITH_TIMEOUT(window.searchModel()->rowCount(), 1, 10000);
        QVERIFY2(locksHeld(db()) > 0, "the workbench holds no lock on its open workspace");
        const quint64 wal = inodeOf(db() + "-wal"), shm = inodeOf(db() + "-shm");
        QVERIFY(wal && shm);

        // File › Open Workspace… lists the workspace's folder.
        auto* open = actionNamed(&window, QStringLiteral("&Open Workspace…"));
        if (!open) open = actionNamed(&window, QStringLiteral("Open Workspace…"));
        QVERIFY(open);
        QVERIFY(browseWith(open));
        QVERIFY2(locksHeld(db()) > 0, "opening a file dialog in the workspace's folder dropped the workbench's locks");

        // A second process: `search list` leaves the files the workbench reads through.
        auto list = test::runCli({"--db", db(), "search", "list"});
        QVERIFY2(list.code == 0, qPrintable(list.err));
        verifyFilesKept(wal, shm, "search list");

        // A third process runs a search; the workbench sees it start, and the
        // CLI (a second process) pauses it, so that it runs on while the rest
        // happens whatever this host's speed.
        QProcess search;
        search.setProcessChannelMode(QProcess::MergedChannels);
        search.start(test::cliPath(), {"--db", db(), "search", "start", "--problem", rmsnorm(), "--budget", "60", "--workers",
                                       "1", "--time-budget", "0.05"});
        QVERIFY(search.waitForStarted());
        QTRY_COMPARE_WITH_TIMEOUT(window.searchModel()->rowCount(), 2, 60000);
        const qint64 id = window.searchModel()->searchAt(0).id;
        auto pause = test::runCli({"--db", db(), "search", "pause", QString::number(id)});
        QVERIFY2(pause.code == 0, qPrintable(pause.err));
        auto* view = window.openSearch(id);
        QVERIFY(view);
        QTRY_VERIFY_WITH_TIMEOUT(view->canvas()->layout().size() >= 1, 60000);

        // While it runs: Export › HTML report… lists the folder too.
        auto* report = actionNamed(view, QStringLiteral("HTML report…"));
        QVERIFY(report);
        QVERIFY(browseWith(report));
        QVERIFY2(locksHeld(db()) > 0, "Export › HTML report… dropped the workbench's locks");
        list = test::runCli({"--db", db(), "search", "list"});
        QVERIFY2(list.code == 0, qPrintable(list.err));
        QVERIFY2(list.out.contains(QStringLiteral("running")) || list.out.contains(QStringLiteral("paused")),
                 qPrintable(list.out));
        verifyFilesKept(wal, shm, "search list beside a running search");

        // The workbench steers it (the same API as the CLI): it stops.
        QVERIFY(view->steer(search::SteeringCommand::stop()));
        QVERIFY2(search.waitForFinished(120000), "the search did not stop when the workbench steered it");
        QVERIFY2(search.exitCode() == 0, search.readAll().constData());

        // The workbench still reads the workspace as it is: the search's end, with no stale or failed read.
        QTRY_VERIFY_WITH_TIMEOUT(window.searchModel()->searchAt(0).status != QStringLiteral("running"), 10000);
        QCOMPARE(window.searchModel()->rowCount(), 2);
        const QString message = window.statusBar()->currentMessage();
        QVERIFY2(!message.contains(QStringLiteral("malformed")) && !message.contains(QStringLiteral("no longer followed")),
                 qPrintable(message));
        verifyFilesKept(wal, shm, "the search ended");
        QVERIFY(locksHeld(db()) > 0);

        // The Steering tab: the CLI's pause and the workbench's stop, who posted each and what it did.
        auto* steering = view->findChild<QTextBrowser*>(QStringLiteral("steeringTimeline"));
        QVERIFY(steering);
        QTRY_VERIFY_WITH_TIMEOUT(steering->toPlainText().contains(QStringLiteral("stop")), 20000);
        const QString timeline = steering->toPlainText();
        QVERIFY2(timeline.contains(QStringLiteral("pause")) && timeline.contains(QStringLiteral("cli")) &&
                     timeline.contains(QStringLiteral("workbench")),
                 qPrintable(timeline));
        // And marked on the Progress plot where each took effect: the pause
        // before the stop, after no more evaluations than the search made.
        auto* plot = view->findChild<ui::ProgressPlot*>();
        QVERIFY(plot);
        QTRY_COMPARE_WITH_TIMEOUT(plot->series().steeringLabels, (QStringList{"pause", "stop"}), 5000);
        const auto& marks = plot->series();
        QVERIFY(marks.steeringMinutes[0] <= marks.steeringMinutes[1]);
        QVERIFY(marks.steeringEvals[0] <= marks.steeringEvals[1]);
        QVERIFY(marks.steeringEvals[1] <= marks.evals.size());
        if (const char* dir = std::getenv("KW_SCREENSHOT_DIR")) {
            for (auto* tabs : view->findChildren<QTabWidget*>())
                if (const int i = tabs->indexOf(steering); i >= 0) tabs->setCurrentIndex(i);
            view->resize(1280, 800);
            QApplication::processEvents();
            view->grab().save(QString::fromUtf8(dir) + "/steering_timeline.png");
            for (auto* tabs : view->findChildren<QTabWidget*>())
                if (const int i = tabs->indexOf(plot->parentWidget()); i >= 0) tabs->setCurrentIndex(i);
            QApplication::processEvents();
            plot->replot();
            view->grab().save(QString::fromUtf8(dir) + "/progress_steering_marks.png");
        }

        // The ended search goes on from the workbench: Budget… gives it two more
        // evaluations, run in this process, followed in the same tab.
        auto* summary = view->findChild<QLabel*>(QStringLiteral("searchSummary"));
        QTRY_VERIFY_WITH_TIMEOUT(summary->text().contains(QStringLiteral("ended")), 10000);
        const qint64 done = window.searchModel()->searchAt(0).evaluations;
        QTimer::singleShot(0, [&] {
            if (auto* input = qobject_cast<QInputDialog*>(QApplication::activeModalWidget())) {
                input->setIntValue(static_cast<int>(done + 2));
                input->accept();
            }
        });
        bool clicked = false;
        for (auto* b : view->findChildren<QToolButton*>())
            if (b->text() == QStringLiteral("Budget…") && b->isEnabled()) {
                b->click();
                clicked = true;
            }
        QVERIFY2(clicked, "Budget… is closed on an ended search");
        QTRY_VERIFY_WITH_TIMEOUT(window.searchModel()->searchAt(0).evaluations == done + 2 &&
                                     window.searchModel()->searchAt(0).status == QStringLiteral("finished"),
                                 180000);
        QTRY_VERIFY_WITH_TIMEOUT(summary->text().contains(QStringLiteral("of %1 evaluations").arg(done + 2)), 10000);
    }

    // Defence in depth: a process outside Kernelwright that checkpoints the
    // workspace and removes its log and index (as SQLite's last connection
    // does, and as did the CLI before every connection kept them) leaves the
    // workbench reading a stale index. It notices, closes every connection
    // it holds, opens the workspace again and says so in one line.
    void reopensWhenAnotherProcessRemovesTheLog() {
        const QString ws = dir_.filePath(QStringLiteral("removed.db"));
        auto first = test::runCli(
            {"--db", ws, "search", "start", "--problem", saxpy(), "--budget", "1", "--workers", "1", "--time-budget", "0.05"});
        QVERIFY2(first.code == 0, qPrintable(first.err));
        ui::MainWindow window(test::dataDir() / "problems");
        QVERIFY(window.openWorkspace(ws).ok());
        QTRY_COMPARE_WITH_TIMEOUT(window.searchModel()->rowCount(), 1, 10000);
        QVERIFY(window.openSearch(window.searchModel()->searchAt(0).id));

        QProcess outside; // Python's sqlite3: a checkpoint, then the files removed as if nobody used them
        outside.start(QStringLiteral("python3"),
                      {"-c",
                       "import os, sqlite3, sys\n"
                       "c = sqlite3.connect(sys.argv[1]); c.execute('PRAGMA wal_checkpoint(TRUNCATE)').fetchall(); c.close()\n"
                       "for s in ('-wal', '-shm'):\n"
                       "    if os.path.exists(sys.argv[1] + s): os.remove(sys.argv[1] + s)\n",
                       ws});
        QVERIFY(outside.waitForFinished(30000));
        QVERIFY2(outside.exitCode() == 0, outside.readAllStandardError().constData());
        QVERIFY(!QFile::exists(ws + "-wal"));

        auto second = test::runCli(
            {"--db", ws, "search", "start", "--problem", saxpy(), "--budget", "1", "--workers", "1", "--time-budget", "0.05"});
        QVERIFY2(second.code == 0, qPrintable(second.err));
        QTRY_VERIFY_WITH_TIMEOUT(window.statusBar()->currentMessage().contains(QStringLiteral("reopened")), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(window.searchModel()->rowCount(), 2, 10000);
        QCOMPARE(window.tabs()->count(), 2); // the search's tab came back
        QVERIFY(locksHeld(ws) > 0);
    }

    // A file picker given the workspace refuses its files, and an export
    // never writes over it: both would drop the locks or replace the database.
    void theWorkspacesFilesAreRecognised() {
        const auto base = std::filesystem::path(db().toStdString());
        QVERIFY(store::isWorkspaceFile(base, base));
        QVERIFY(store::isWorkspaceFile(std::filesystem::path(dir_.path().toStdString()) / "." / "ws.db-wal", base));
        QVERIFY(store::isWorkspaceFile("ws.db-shm", base)); // relative to the current folder, which is the workspace's
        QVERIFY(!store::isWorkspaceFile(dir_.filePath(QStringLiteral("report.html")).toStdString(), base));
        auto out = test::runCli({"--db", db(), "export", "report", "1", "--out", db()});
        QCOMPARE(out.code, 2);
        QVERIFY2(out.err.contains(QStringLiteral("workspace's own database")), qPrintable(out.err));
        auto list = test::runCli({"--db", db(), "search", "list"});
        QVERIFY2(list.code == 0, qPrintable(list.err)); // the database is whole
    }
};

QTEST_MAIN(TestWorkspaceSharing)
#include "tst_workspace_sharing.moc"
