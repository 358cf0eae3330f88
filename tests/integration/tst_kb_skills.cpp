// The skill round trip through the CLI: a search finishes, its skill is
// distilled (no model configured: a structured summary), waits for review
// unseen by retrieval, is approved, and is then retrieved for a similar
// problem; and a new search of the problem starts from the earlier best.
#include "test_support.h"

#include <QtCore/QFile>
#include <QtCore/QProcess>
#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

using namespace kw;

class TestKbSkills : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        db_ = dir_.path() + "/ws.db";
    }

    void searchDistillApproveRetrieve() {
        auto run = cli({"search", "start", "--problem", QString::fromStdString(test::problemDir("saxpy").string()), "--budget",
                        "4", "--workers", "1", "--time-budget", "0.05"});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        run = cli({"kb", "distill", "1"});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        QVERIFY(run.out.contains("skill-saxpy-s1"));
        QVERIFY(run.out.contains("structured summary"));

        // A similar problem of the same operator family, in its own words.
        const QStringList query{"kb", "search", "SAXPY variant: y = alpha * x + z over N fp32 values", "--platform", "x86-64"};
        run = cli(query);
        QCOMPARE(run.code, 0);
        QVERIFY2(!run.out.contains("skill-saxpy-s1"), "a pending skill is not retrieved by default");
        QVERIFY(cli({"kb", "skills", "list"}).out.contains("pending"));
        run = cli({"kb", "skills", "approve", "skill-saxpy-s1"});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        run = cli(query);
        QVERIFY2(run.out.contains("skill-saxpy-s1"), qPrintable(run.out));
        QVERIFY(run.out.contains("approved skill"));
        const auto shown = cli({"kb", "show", "skill-saxpy-s1"});
        QVERIFY(shown.out.contains("## Winning path"));
        // Steps name nodes by their number in the search (#N), as every view does.
        QVERIFY2(shown.out.contains("(seed, node #1)"), qPrintable(shown.out));
        QVERIFY(shown.out.contains("status: approved"));
        QCOMPARE(cli({"kb", "skills", "approve", "no-such-skill"}).code, 2);
    }

    void newSearchStartsFromHistory() {
        const auto run = cli({"search", "start", "--problem", QString::fromStdString(test::problemDir("saxpy").string()),
                              "--budget", "2", "--workers", "1", "--check-only", "--seed-from-history"});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        // Search 1's best joins the seeds (or already is one, when the plain seed won).
        QVERIFY2(run.out.contains(
                     QRegularExpression("seeded from history: (1 best kernel\\(s\\) of earlier searches of saxpy added|0 best "
                                        "kernel\\(s\\) of earlier searches of saxpy added, 1 already among the seeds)")),
                 qPrintable(run.out));
    }

    // --distill is the search's config (distill_skill), so a search started
    // in the workbench distills alike; a resumed one keeps it.
    void aSearchWithDistillWritesItsSkillWhenItEnds() {
        const auto run = cli({"search", "start", "--problem", QString::fromStdString(test::problemDir("saxpy").string()),
                              "--budget", "3", "--workers", "1", "--time-budget", "0.05", "--distill"});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        const QRegularExpression written("skill (skill-saxpy-s\\d+) written to (\\S+) \\(pending");
        const auto match = written.match(run.out);
        QVERIFY2(match.hasMatch(), qPrintable(run.out + run.err));
        QVERIFY(QFile::exists(match.captured(2)));
        const auto shown = cli({"search", "show", match.captured(1).mid(QStringLiteral("skill-saxpy-s").size())});
        QVERIFY2(shown.out.contains("\"distill_skill\":true"), qPrintable(shown.out));
    }

  private:
    struct Out {
        int code = -1;
        QString out, err;
    };
    Out cli(QStringList args) {
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_DATA_HOME", dir_.path() + "/data"); // the user KB (skills) of this test only
        p.setProcessEnvironment(env);
        args.prepend(db_);
        args.prepend("--db");
        p.start(test::cliPath(), args);
        p.waitForFinished(300000);
        return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
    }

    QTemporaryDir dir_;
    QString db_;
};

QTEST_GUILESS_MAIN(TestKbSkills)
#include "tst_kb_skills.moc"
