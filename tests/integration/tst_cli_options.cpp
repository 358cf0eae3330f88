// Every numeric option of every verb (the CLI's command table) refuses a
// malformed value the same way: one line on stderr that names the option and
// what it expects, exit code 2, nothing done; and every value in range is let
// through to the verb.
#include "cli_runner.h"
#include "command_table.h"
#include "option_types.h"

#include <QtTest/QtTest>

#include <set>

using namespace kw;

class TestCliOptions : public QObject {
    Q_OBJECT
  private slots:
    void theTableIsConsistent() {
        std::set<std::string> offered;
        for (const auto& v : cli::verbTable())
            for (const auto& o : v.valued) {
                QVERIFY2(!v.flags.count(o), (v.name + " --" + o + " is both a flag and valued").c_str());
                if (cli::findNumericOption(v.name, o)) offered.insert(o);
            }
        // No numeric type describes an option no verb takes (a typo there would check nothing).
        for (const auto& o : cli::numericOptions()) QVERIFY2(offered.count(o.name), o.name);
        QVERIFY(offered.size() >= 20);
    }

    void malformedNumbersExitTwoWithOneLine_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("option");
        const QStringList bad{"abc", "", "1x", "nan", "inf", "1e999", "--", "0x10", " 1"};
        int rows = 0;
        for (const auto& v : cli::verbTable())
            for (const auto& o : v.valued) {
                const auto* typed = cli::findNumericOption(v.name, o);
                if (!typed) continue;
                std::vector<QString> values(bad.begin(), bad.end());
                if (typed->kind != cli::NumericOption::Kind::Number) values.push_back("2.5");
                if (typed->min >= 0) values.push_back("-1");
                for (const auto& value : values) {
                    const QString name = QString::fromStdString(v.name + " --" + o + " '") + value + "'";
                    QTest::newRow(qPrintable(name))
                        << QStringList{QString::fromStdString(v.name), QString::fromStdString("--" + o + "=") + value}
                        << QString::fromStdString(o);
                    ++rows;
                }
            }
        QVERIFY(rows > 200);
    }
    void malformedNumbersExitTwoWithOneLine() {
        QFETCH(QStringList, args);
        QFETCH(QString, option);
        const auto run = test::runCli(args, 30000);
        QCOMPARE(run.code, 2);
        QVERIFY2(run.out.isEmpty(), qPrintable(run.out));
        const QString err = run.err.trimmed();
        QVERIFY2(!err.contains('\n'), qPrintable(err));
        QVERIFY2(err.contains("--" + option + " expects"), qPrintable(err));
    }

    // Values in range pass the parser (what the verb does next is its own business).
    void goodNumbersPass() {
        for (const auto& o : cli::numericOptions()) {
            const double v = o.kind == cli::NumericOption::Kind::Number ? (o.minExclusive ? o.min + 0.5 : o.min) : o.min;
            char text[64];
            std::snprintf(text, sizeof text, o.kind == cli::NumericOption::Kind::Number ? "%.17g" : "%.0f",
                          std::min(v, o.max > 0 ? o.max : v));
            QVERIFY2(cli::checkNumericOption(o, text).empty(), (std::string(o.name) + " " + text).c_str());
        }
        const auto* seed = cli::findNumericOption("bench", "seed");
        QVERIFY(seed);
        QVERIFY(cli::checkNumericOption(*seed, "18446744073709551615").empty());
        QVERIFY(!cli::checkNumericOption(*seed, "18446744073709551616").empty());
        // eval --seed names a seed kernel, not a number.
        QVERIFY(!cli::findNumericOption("eval", "seed"));
    }
};

QTEST_GUILESS_MAIN(TestCliOptions)
#include "tst_cli_options.moc"
