// Every command of kernelwright-cli answers --help with its usage on standard
// output and exit code 0 (the man page is made of these texts), and the
// top-level help names every command that answers.
#include "cli_runner.h"
#include "tree/tree_types.h"

#include <QtTest/QtTest>

using namespace kw;

class TestCliHelp : public QObject {
    Q_OBJECT
  private slots:
    void everyCommandHasHelp_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        QTest::newRow("top") << QStringList{"--help"} << "usage: kernelwright-cli";
        QTest::newRow("help word") << QStringList{"help"} << "usage: kernelwright-cli";
        for (const char* command :
             {"problem", "suite", "eval", "search", "bench", "llm", "kb", "machine", "profile", "export", "model"})
            QTest::newRow(command) << QStringList{command, "--help"} << QString("kernelwright-cli ") + command;
        // A verb followed by --help still gets its command's usage, not an action.
        QTest::newRow("search start") << QStringList{"search", "start", "--help"} << "kernelwright-cli search";
        QTest::newRow("export best") << QStringList{"export", "best", "--help"} << "kernelwright-cli export best";
        QTest::newRow("export trajectories") << QStringList{"export", "trajectories", "--help"} << "--min-speedup";
    }
    void everyCommandHasHelp() {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        const auto run = test::runCli(args, 30000);
        QCOMPARE(run.code, 0);
        QVERIFY2(run.out.contains(expected), qPrintable(run.out + run.err));
        QVERIFY2(run.err.isEmpty(), qPrintable(run.err));
    }

    void topLevelHelpListsEveryCommand() {
        const auto run = test::runCli({"--help"}, 30000);
        for (const char* command :
             {"problem", "suite", "eval", "search", "bench", "llm", "kb", "machine", "profile", "export", "model"})
            QVERIFY2(run.out.contains(QString("\n  ") + command + " "), command);
    }

    // The choices in search's help are the engine's name tables, each once
    // and in the table's order: a policy, memory mode or synthesizer added to
    // core/tree is offered without a second list to keep.
    void searchHelpOffersTheEnginesNames() {
        const auto run = test::runCli({"search", "--help"}, 30000);
        const auto joined = [](const std::vector<std::string>& names) {
            QStringList list;
            for (const auto& n : names) list << QString::fromStdString(n);
            return list.join('|');
        };
        QVERIFY2(run.out.contains("[--policy " + joined(tree::policyNames()) + "]"), qPrintable(run.out));
        QVERIFY2(run.out.contains("[--memory " + joined(tree::memoryModeNames()) + "]"), qPrintable(run.out));
        QVERIFY2(run.out.contains("[--synth " + joined(tree::synthModeNames()) + "]"), qPrintable(run.out));
        QVERIFY2(!run.out.contains('{'), qPrintable(run.out)); // no placeholder left
        for (const auto& name : tree::policyNames()) QVERIFY(tree::parsePolicy(name));
    }

    void misuseIsAUsageError() {
        QCOMPARE(test::runCli({"export"}, 30000).code, 2);
        QCOMPARE(test::runCli({"export", "everything"}, 30000).code, 2);
        QCOMPARE(test::runCli({"export", "trajectories", "1"}, 30000).code, 2); // no --format
        QCOMPARE(test::runCli({"export", "best", "1"}, 30000).code, 2);         // no --out
        QCOMPARE(test::runCli({"no-such-command"}, 30000).code, 2);
    }

    // A command's options without its verb: the line that was meant, to copy.
    void aMissingVerbIsNamed() {
        const auto search = test::runCli({"search", "--problem", "saxpy", "--budget", "4"}, 30000);
        QCOMPARE(search.code, 2);
        QVERIFY2(search.err.startsWith("search: which command? To start a search with these options: "
                                       "kernelwright-cli search start --problem saxpy --budget 4\n"),
                 qPrintable(search.err));
        const auto suite = test::runCli({"suite", "/tmp/level1"}, 30000);
        QCOMPARE(suite.code, 2);
        QVERIFY2(suite.err.startsWith("suite: run or show? kernelwright-cli suite run /tmp/level1"), qPrintable(suite.err));
        const auto unknown = test::runCli({"suite", "walk", "/tmp/level1"}, 30000);
        QCOMPARE(unknown.code, 2);
        QVERIFY2(unknown.err.startsWith("suite: unknown command 'walk' (run or show)"), qPrintable(unknown.err));
        QVERIFY(test::runCli({"search"}, 30000).err.startsWith("usage: kernelwright-cli search")); // nothing given: the usage
    }
};

QTEST_GUILESS_MAIN(TestCliHelp)
#include "tst_cli_help.moc"
