// The workbench against real processes: a search run by kernelsmith-cli is
// followed live in a SearchView while a watchdog measures how long the UI
// thread ever goes without serving its event loop; then the real
// `kernelsmith` app saves screenshots of the window and every inspector tab
// (into the build folder, to be looked at).
#include "cli_runner.h"
#include "store/database.h"
#include "store/search_store.h"
#include "tree/tree_canvas.h"
#include "widgets/search_view.h"

#include <QtCore/QDir>
#include <QtCore/QElapsedTimer>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtCore/QTimer>
#include <QtGui/QImage>
#include <QtTest/QtTest>

using namespace ks;

namespace {

QString saxpy() { return QString::fromStdString(test::problemDir("saxpy").string()); }

} // namespace

class TestWorkbenchLive : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString db() const { return dir_.filePath(QStringLiteral("ws.db")); }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void followsALiveCliSearchWithoutBlocking() {
        // The workspace and the search exist before the CLI runs it, so the view opens at once.
        QProcess cli;
        cli.setProcessChannelMode(QProcess::MergedChannels);
        cli.start(test::cliPath(), {"--db", db(), "search", "start", "--problem", saxpy(), "--budget", "10", "--workers", "1", "--time-budget", "0.05"});
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
        connect(&watchdog, &QTimer::timeout, this, [&] {
            worstGapMs = std::max(worstGapMs, tick.restart());
        });
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

    void screenshotsOfTheWindowAndEveryTab() {
        const QString gui = qEnvironmentVariable("KS_GUI");
        const QString out = qEnvironmentVariable("KS_SCREENSHOT_DIR");
        QVERIFY2(!gui.isEmpty() && !out.isEmpty(), "KS_GUI and KS_SCREENSHOT_DIR come from CTest");
        QDir().mkpath(out);
        auto ro = store::Database::open(db().toStdString(), store::Database::Mode::ReadOnly);
        QVERIFY(ro);
        auto searches = store::SearchStore(*ro).listSearches();
        QVERIFY(searches && !searches->empty());
        const auto& s = searches->front();
        QVERIFY(s.bestNode);
        const QStringList tabs{"Node", "Code", "Diff", "Evaluation", "Profile", "LLM", "Progress"};
        for (const QString& tab : QStringList{QString()} + tabs) {
            const QString file = QDir(out).filePath(tab.isEmpty() ? QStringLiteral("window.png") : QStringLiteral("inspector-%1.png").arg(tab.toLower()));
            QFile::remove(file);
            QStringList args{"--workspace", db(), "--search", QString::number(s.id), "--screenshot", file};
            if (!tab.isEmpty()) args << "--node" << QString::number(*s.bestNode) << "--inspector-tab" << tab;
            QProcess app;
            app.start(gui, args);
            QVERIFY(app.waitForFinished(60000));
            QCOMPARE(app.exitCode(), 0);
            QImage image(file);
            QVERIFY2(!image.isNull(), qPrintable(file));
            QVERIFY(image.width() >= 800 && image.height() >= 500);
            qInfo("saved %s", qPrintable(file));
        }
    }
};

QTEST_MAIN(TestWorkbenchLive)
#include "tst_workbench_live.moc"
