// suite run through the CLI on a suite of small test problems: the report's
// KernelBench metrics, a problem that does not load reported by status, and a
// run killed (SIGKILL) mid-way that continues without running again what had
// finished. Also the metrics themselves on fixed entries.
#include "eval/evaluator.h"
#include "eval/local_executor.h"
#include "eval/out_of_memory.h"
#include "store/database.h"
#include "suite/suite.h"
#include "suite/suite_runner.h"
#include "test_support.h"

#include <QtCore/QDir>
#include <QtCore/QElapsedTimer>
#include <QtCore/QProcess>
#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>
#include <QtCore/QThread>
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>

using namespace kw;
namespace fs = std::filesystem;

namespace {

struct Run {
    int exitCode = -1;
    QString out, err;
};

QStringList base(const QString& db) {
    return {"--db", db, "suite", "run"};
}

Run cli(const QStringList& args) {
    QProcess p;
    p.start(test::cliPath(), args);
    p.waitForFinished(600000);
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

int lines(const fs::path& file) {
    std::ifstream in(file);
    int n = 0;
    std::string l;
    while (std::getline(in, l))
        if (!l.empty()) ++n;
    return n;
}

} // namespace

class TestSuite : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        suite_ = fs::path(dir_.path().toStdString()) / "suite";
        fs::create_directories(suite_);
        // Four problems: three copies of saxpy under other names (each its own
        // folder) and one that does not load.
        for (const char* name : {"a_saxpy", "b_saxpy", "c_saxpy"}) {
            fs::copy(test::problemDir("saxpy"), suite_ / name, fs::copy_options::recursive);
            // Each its own reference text, so that no evaluation is served from another's cache.
            for (const auto& f : fs::directory_iterator(suite_ / name))
                if (f.path().extension() == ".cpp") std::ofstream(f.path(), std::ios::app) << "\n// " << name << "\n";
        }
        fs::copy(test::problemDir("bad_schema"), suite_ / "d_bad", fs::copy_options::recursive);
        std::ofstream(suite_ / "suite.json") << R"({"name": "tiny", "problems": ["a_saxpy", "b_saxpy", "c_saxpy", "d_bad"]})";
    }

    void aKilledRunContinuesWhereItStopped() {
        const QString db = dir_.filePath("suite.db");
        const auto runFile = suite_ / "suite-run-reference.jsonl";
        QProcess first;
        first.start(test::cliPath(), base(db) << QString::fromStdString(suite_.string()) << "--time-budget"
                                              << "0.02");
        QVERIFY(first.waitForStarted());
        QElapsedTimer t;
        t.start();
        while (lines(runFile) < 1 && t.elapsed() < 300000 && first.state() == QProcess::Running) QThread::msleep(20);
        QVERIFY2(lines(runFile) >= 1, "the first problem never finished");
        ::kill(static_cast<pid_t>(first.processId()), SIGKILL);
        first.waitForFinished(10000);
        const int before = lines(runFile);
        QVERIFY2(before < 4, "the run finished before it could be killed");

        const auto second = cli(base(db) << QString::fromStdString(suite_.string()) << "--time-budget"
                                         << "0.02"
                                         << "--json" << dir_.filePath("report.json"));
        QVERIFY2(second.exitCode == 0, qPrintable(second.out + second.err));
        QVERIFY2(!second.err.contains("a_saxpy"), qPrintable(second.err)); // finished before the kill: not run again
        QCOMPARE(lines(runFile), 4);                                       // each problem once
        const auto entries = suite::readRun(runFile);
        QCOMPARE(entries.size(), std::size_t{4});

        std::ifstream in(dir_.filePath("report.json").toStdString());
        const auto report = nlohmann::json::parse(in);
        const auto& m = report["metrics"];
        QCOMPARE(m["problems"].get<int>(), 4);
        QCOMPARE(m["correct"].get<int>(), 3);
        QCOMPARE(m["correctness_rate"].get<double>(), 0.75);
        QCOMPARE(m["over_eager"]["fast_0"].get<double>(), 0.75);
        QVERIFY(m["failures"].contains("invalid_problem"));
        QVERIFY(m.contains("geomean_speedup_eager"));
        QVERIFY2(second.out.contains("3 correct (75.0%)"), qPrintable(second.out));
        // Reference mode says how close the reference came to itself.
        QCOMPARE(m["self_agreement"]["timed"].get<int>(), 3);
        // Each has one timing shape: its entry keeps the judge's interval around its reading.
        QCOMPARE(m["self_agreement"]["with_interval"].get<int>(), 3);
        for (const auto& e : entries)
            if (e.correct())
                QVERIFY2(e.interval && e.interval->first <= *e.speedup && *e.speedup <= e.interval->second, e.problem.c_str());
        QVERIFY2(second.out.contains("its 95 % interval holds 1.00 for "), qPrintable(second.out));
        // The table's column: each reading, then its interval.
        QVERIFY2(second.out.contains(QRegularExpression(R"(\d\.\d{3}x +\d\.\d{3}-\d\.\d{3} )")), qPrintable(second.out));
        QVERIFY2(second.out.contains("the reference against itself: ") && second.out.contains(" of 3 within 1.00 +- 0.03"),
                 qPrintable(second.out));

        // A third run has nothing left; show prints the same report.
        const auto third = cli(base(db) << QString::fromStdString(suite_.string()));
        QCOMPARE(third.exitCode, 0);
        QVERIFY(!third.err.contains("[")); // no problem started
        const auto show = cli({"--db", db, "suite", "show", QString::fromStdString(suite_.string())});
        QVERIFY2(show.out.contains("4 of 4 problems run, 3 correct"), qPrintable(show.out));
    }

    // --gpus 0,1: one problem per GPU worker, both in flight before either finishes.
    void problemsSpreadOverTheGpuWorkers() {
        const auto two = fs::path(dir_.path().toStdString()) / "two";
        fs::create_directories(two);
        for (const char* name : {"e_saxpy", "f_saxpy"}) {
            fs::copy(test::problemDir("saxpy"), two / name, fs::copy_options::recursive);
            for (const auto& f : fs::directory_iterator(two / name))
                if (f.path().extension() == ".cpp") std::ofstream(f.path(), std::ios::app) << "\n// " << name << "\n";
        }
        std::ofstream(two / "suite.json") << R"({"name": "two", "problems": ["e_saxpy", "f_saxpy"]})";
        const auto run = cli(base(dir_.filePath("two.db")) << QString::fromStdString(two.string()) << "--time-budget"
                                                           << "0.02"
                                                           << "--gpus"
                                                           << "0,1");
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        const auto err = run.err.split('\n');
        int started = 0;
        for (const auto& line : err) {
            if (line.contains(": ok") || line.contains(": wrong")) break;
            if (line.startsWith("[")) ++started;
        }
        QVERIFY2(started == 2, qPrintable(run.err)); // the second started before the first finished
        QCOMPARE(lines(two / "suite-run-reference.jsonl"), 2);
        QVERIFY2(run.out.contains("2 of 2 problems run, 2 correct"), qPrintable(run.out));
    }

    // Out of memory beside another evaluation: tried once more, alone, after the
    // rest, and written to the run file once; a single worker does not retry.
    void anOutOfMemoryFailureIsRetriedAlone() {
        const auto two = fs::path(dir_.path().toStdString()) / "oom";
        fs::create_directories(two);
        fs::copy(test::problemDir("saxpy"), two / "g_saxpy", fs::copy_options::recursive);
        fs::copy(test::problemDir("starved_reference"), two / "h_starved", fs::copy_options::recursive);
        std::ofstream(two / "suite.json") << R"({"name": "oom", "problems": ["g_saxpy", "h_starved"]})";
        const auto args = base(dir_.filePath("oom.db")) << QString::fromStdString(two.string()) << "--time-budget"
                                                        << "0.02";
        const auto run = cli(QStringList(args) << "--gpus"
                                               << "0,1");
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QCOMPARE(run.err.count("h_starved: ran out of memory beside other evaluations; again alone"), 1);
        QCOMPARE(run.err.count("g_saxpy: ran out of memory"), 0);
        QCOMPARE(run.err.count("[2/2] h_starved"), 2); // started twice, counted as the second of two both times
        QVERIFY2(!run.err.contains("[3/2]"), qPrintable(run.err));
        const auto entries = suite::readRun(two / "suite-run-reference.jsonl");
        QCOMPARE(entries.size(), std::size_t{2});
        QCOMPARE(entries[1].problem, std::string("h_starved")); // the retry finished last
        QVERIFY2(!entries[1].correct() && eval::mentionsOutOfMemory(entries[1].status + " " + entries[1].message),
                 qPrintable(QString::fromStdString(entries[1].status + ": " + entries[1].message)));

        fs::remove(two / "suite-run-reference.jsonl");
        const auto single = cli(args);
        QVERIFY2(single.exitCode == 0, qPrintable(single.out + single.err));
        QVERIFY2(!single.err.contains("again alone"), qPrintable(single.err));
        QCOMPARE(lines(two / "suite-run-reference.jsonl"), 2);
    }

    // The ETA counts what this run has left: a run told to stop after two of
    // three problems says, as its second starts, about one problem's time
    // (it said two: the whole suite's rest).
    void theEtaCountsWhatThisRunHasLeft() {
        const auto three = fs::path(dir_.path().toStdString()) / "eta";
        fs::create_directories(three);
        for (const char* name : {"i_saxpy", "j_saxpy", "k_saxpy"}) {
            fs::copy(test::problemDir("saxpy"), three / name, fs::copy_options::recursive);
            for (const auto& f : fs::directory_iterator(three / name))
                if (f.path().extension() == ".cpp") std::ofstream(f.path(), std::ios::app) << "\n// " << name << "\n";
        }
        std::ofstream(three / "suite.json") << R"({"name": "eta", "problems": ["i_saxpy", "j_saxpy", "k_saxpy"]})";
        auto s = suite::loadSuite(three);
        QVERIFY2(s.ok(), s.ok() ? "" : s.error().message.c_str());
        auto db = store::Database::open(dir_.filePath("eta.db").toStdString());
        QVERIFY(db.ok());
        eval::LocalExecutorConfig config;
        config.workers = 1;
        auto executor = eval::LocalExecutor::create(config);
        QVERIFY(executor.ok());
        eval::Evaluator evaluator(**executor, &*db);
        suite::RunOptions options;
        options.eval.timeBudgetS = 0.02;
        options.maxProblems = 2;

        struct Seen : suite::RunObserver {
            std::vector<std::pair<std::chrono::steady_clock::time_point, double>> starts;
            void starting(const std::string&, int, int, double etaS) override {
                starts.emplace_back(std::chrono::steady_clock::now(), etaS);
            }
            void finished(const suite::Entry&) override {}
        } seen;
        const auto entries = suite::runSuite(*db, evaluator, *s, options, &seen);
        QVERIFY(entries.ok());
        QCOMPARE(entries->size(), std::size_t{2});
        QCOMPARE(seen.starts.size(), std::size_t{2});
        QVERIFY(seen.starts[0].second < 0); // nothing finished yet: no estimate
        // The first problem's time, from this side: the second's start is one of those away from the end.
        const double first = std::chrono::duration<double>(seen.starts[1].first - seen.starts[0].first).count();
        const double eta = seen.starts[1].second;
        QVERIFY2(eta > 0.5 * first && eta < 1.5 * first,
                 qPrintable(QStringLiteral("eta %1 s, a problem %2 s").arg(eta).arg(first)));
    }

    void metricsFollowKernelBench() {
        std::vector<suite::Entry> e(5);
        const char* names[] = {"p1", "p2", "p3", "p4", "p5"};
        for (int i = 0; i < 5; ++i) {
            e[i].problem = names[i];
            e[i].status = "ok";
        }
        e[0].speedup = 2.5;
        e[0].speedupCompile = 1.2;
        e[1].speedup = 1.2;
        e[1].speedupCompile = 0.8;
        e[2].speedup = 0.9;
        e[3].status = "wrong_answer";
        e[3].message = "output 0 differs";
        e[4].speedup = 1.6; // no torch.compile baseline (a C++ problem)
        const auto m = suite::metricsOf(e);
        QCOMPARE(m.correct, 4);
        QCOMPARE(m.fastEager.at(0), 0.8);
        QCOMPARE(m.fastEager.at(1), 0.6);   // 2.5, 1.2, 1.6 of 5
        QCOMPARE(m.fastEager.at(1.5), 0.4); // 2.5, 1.6
        QCOMPARE(m.fastEager.at(2), 0.2);
        QCOMPARE(m.fastCompile.at(1), 0.2); // only 1.2
        QCOMPARE(m.withCompile, 2);
        QVERIFY(std::abs(*m.geomeanEager - std::pow(2.5 * 1.2 * 0.9 * 1.6, 0.25)) < 1e-12);
        QCOMPARE(m.failures.at("wrong_answer").size(), std::size_t{1});

        // The same entries read as the reference against itself: only the
        // correct, timed ones count; 0.9 is the furthest from 1.00.
        e[1].speedup = 1.02;
        e[2].speedup = 0.9;
        e[4].speedup = 1.005;
        e[0].speedup = 0.995;
        const auto self = suite::selfAgreementOf(e);
        QCOMPARE(self.timed, 4);
        QCOMPARE(self.within1, 2);
        QCOMPARE(self.within3, 3);
        QCOMPARE(self.worstProblem, std::string("p3"));
        QCOMPARE(self.worst, 0.9);
        QCOMPARE(suite::toJson(self)["within_3pct"].get<int>(), 3);
        QCOMPARE(self.withInterval, 0);
        // With intervals: 0.9 [0.85, 1.02] is outside 3 % but holds 1.00 (noise); 1.02 [1.01, 1.03] does not.
        e[2].interval = std::pair{0.85, 1.02};
        e[1].interval = std::pair{1.01, 1.03};
        const auto withIntervals = suite::selfAgreementOf(e);
        QCOMPARE(withIntervals.withInterval, 2);
        QCOMPARE(withIntervals.intervalHoldsOne, 1);
        QCOMPARE(suite::toJson(withIntervals)["interval_holds_one"].get<int>(), 1);
    }

    void aTornLastLineIsSkipped() {
        const auto file = fs::path(dir_.path().toStdString()) / "torn.jsonl";
        // A kill mid-write leaves a line cut short.
        std::ofstream(file) << "{\"problem\":\"x\",\"status\":\"ok\",\"speedup\":1.5}\n{\"problem\":\"y\",\"sta";
        const auto entries = suite::readRun(file);
        QCOMPARE(entries.size(), std::size_t{1});
        QCOMPARE(entries[0].problem, std::string("x"));
    }

  private:
    QTemporaryDir dir_;
    fs::path suite_;
};

QTEST_GUILESS_MAIN(TestSuite)
#include "tst_suite.moc"
