#include "eval/crash_classifier.h"

#include <QtTest/QtTest>

#include <fstream>

using namespace kw::eval;

class TestCrashClassifier : public QObject {
    Q_OBJECT
  private slots:
    void classifies_data() {
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("phase");
        QTest::addColumn<QString>("stderrText");
        QTest::addColumn<QString>("status");
        QTest::addColumn<QString>("messagePart");
        QTest::newRow("segfault") << 139 << "candidate on check shape one seed 1 (call 1)"
                                  << "\nKW-FATAL signal=11 in_candidate=1 phase=x\n"
                                  << "runtime_error"
                                  << "segmentation fault";
        QTest::newRow("watchdog") << 137 << "candidate on timing shape t"
                                  << "\nKW-TIMEOUT phase=x\n"
                                  << "timeout"
                                  << "time limit";
        QTest::newRow("timeout(1)") << 137 << "candidate on check shape one seed 1 (call 1)"
                                    << ""
                                    << "timeout"
                                    << "during: candidate";
        QTest::newRow("cpu limit") << 152 << "candidate"
                                   << ""
                                   << "timeout"
                                   << "time limit";
        QTest::newRow("oom") << 139 << "candidate"
                             << "\nKW-OOM bytes=107374182400\n\nKW-FATAL signal=11 in_candidate=1\n"
                             << "oom"
                             << "107374182400 bytes";
        QTest::newRow("input write") << 86 << "candidate"
                                     << "\nKW-INPUT-WRITE arg=x phase=p\n"
                                     << "wrong_answer"
                                     << "input x";
        QTest::newRow("file size") << 153 << "candidate"
                                   << "\nKW-FATAL signal=25 in_candidate=1\n"
                                   << "runtime_error"
                                   << "file size";
        QTest::newRow("reference") << 139 << "reference on check shape one seed 1"
                                   << "\nKW-FATAL signal=11 in_candidate=0\n"
                                   << "infra_error"
                                   << "reference failed";
        QTest::newRow("the problem's fill crashes") << 139 << "building a timing shape's inputs"
                                                    << "\nKW-FATAL signal=11 in_candidate=0\n"
                                                    << "infra_error"
                                                    << "the problem's fill failed";
        QTest::newRow("reference hangs") << 137 << "reference on a timing shape"
                                         << ""
                                         << "infra_error"
                                         << "no candidate was charged";
        QTest::newRow("stalled while taking its buffers") << 137 << "candidate taking its buffers"
                                                          << ""
                                                          << "timeout"
                                                          << "time limit exceeded";
        QTest::newRow("lock wait") << 137 << "waiting for the timing lock"
                                   << ""
                                   << "infra_error"
                                   << "not in the candidate's code";
        QTest::newRow("judge killed by the candidate") << 137 << "loading the candidate"
                                                       << "\nKW-CANDIDATE-RUNNER pid=7\nKW-KILLED-EARLY\n"
                                                       << "runtime_error"
                                                       << "may not signal other processes";
        QTest::newRow("judge killed before the candidate") << 137 << "loading the reference"
                                                           << "\nKW-KILLED-EARLY\n"
                                                           << "infra_error"
                                                           << "no candidate was charged";
        QTest::newRow("abort") << 134 << "candidate on check shape one seed 2 (call 2)"
                               << ""
                               << "runtime_error"
                               << "abort";
    }
    void classifies() {
        QFETCH(int, exitCode);
        QFETCH(QString, phase);
        QFETCH(QString, stderrText);
        QFETCH(QString, status);
        QFETCH(QString, messagePart);
        const auto r = classifyCrash({exitCode, phase.toStdString(), stderrText.toStdString()});
        QCOMPARE(QString::fromStdString(statusName(r.status)), status);
        QVERIFY2(QString::fromStdString(r.message).contains(messagePart), r.message.c_str());
    }
    void readsEvidenceFromAJobDir() {
        QTemporaryDir dir;
        const std::filesystem::path job = dir.path().toStdString();
        QVERIFY(!readCrashEvidence(job));
        std::filesystem::create_directories(job / "build");
        std::ofstream(job / "build" / "harness.rc") << "139\n";
        std::ofstream(job / "build" / "phase") << "candidate on check shape one seed 1 (call 1)";
        auto e = readCrashEvidence(job);
        QVERIFY(e);
        QCOMPARE(e->exitCode, 139);
        QCOMPARE(QString::fromStdString(e->phase), QString("candidate on check shape one seed 1 (call 1)"));
    }
    // A candidate that fills its stderr: a 4 GiB run.err (sparse here) is read
    // by its ends, and the judge's marker at the end still counts.
    void hugeStderrIsReadByItsEnds() {
        QTemporaryDir dir;
        const std::filesystem::path job = dir.path().toStdString();
        std::filesystem::create_directories(job / "build");
        std::ofstream(job / "build" / "harness.rc") << "3\n";
        {
            std::ofstream err(job / "build" / "run.err", std::ios::binary);
            err << "noise";
            err.seekp((4ll << 30) - 1);
            err << "\nKW-OOM bytes=12345\n";
        }
        auto e = readCrashEvidence(job);
        QVERIFY(e);
        QVERIFY2(e->stderrText.size() < (1u << 20), std::to_string(e->stderrText.size()).c_str());
        QVERIFY(e->stderrText.find("bytes cut") != std::string::npos);
        const auto r = classifyCrash(*e);
        QCOMPARE(QString::fromStdString(statusName(r.status)), QString("oom"));
    }
};

QTEST_APPLESS_MAIN(TestCrashClassifier)
#include "tst_crash_classifier.moc"
