#include "problem/expression.h"

#include <QtTest/QtTest>

#include <limits>

using kw::problem::Expression;

class TestExpression : public QObject {
    Q_OBJECT
  private slots:
    void evaluatesArithmeticWithPrecedence() {
        auto e = Expression::parse("4*M*N + 2*(N - 1) / 2");
        QVERIFY(e.ok());
        auto v = e->evaluateInt({{"M", 3}, {"N", 5}});
        QVERIFY(v.ok());
        QCOMPARE(*v, 4LL * 3 * 5 + 4);
        QCOMPARE(e->names().size(), std::size_t{2});
    }
    void functionsAndUnaryMinus() {
        auto e = Expression::parse("max(M, 7) + min(-2, N) + ceil_div(N, 4) + N % 3");
        QVERIFY(e.ok());
        QCOMPARE(*e->evaluateInt({{"M", 3}, {"N", 10}}), 7LL - 2 + 3 + 1);
    }
    void floatingEvaluationKeepsFractions() {
        auto e = Expression::parse("N / 4 * 1.5e0");
        QVERIFY(e.ok());
        QCOMPARE(*e->evaluate({{"N", 6}}), 6.0 / 4 * 1.5);
        QCOMPARE(*e->evaluateInt({{"N", 6}}), 1LL); // integer division, then truncation
    }
    void parseErrorsSayWhere() {
        auto e = Expression::parse("M * (N + 1");
        QVERIFY(!e.ok());
        QVERIFY2(e.error().message.find("expected ')'") != std::string::npos, e.error().message.c_str());
        auto f = Expression::parse("pow(M, 2)");
        QVERIFY(!f.ok());
        QVERIFY(f.error().message.find("unknown function 'pow'") != std::string::npos);
        QVERIFY(!Expression::parse("M $ N").ok());
        QVERIFY(!Expression::parse("").ok());
    }
    void evaluationErrors() {
        auto e = Expression::parse("M / K");
        QVERIFY(e.ok());
        auto unknown = e->evaluateInt({{"M", 1}});
        QVERIFY(!unknown.ok());
        QVERIFY(unknown.error().message.find("unknown size 'K'") != std::string::npos);
        auto zero = e->evaluateInt({{"M", 1}, {"K", 0}});
        QVERIFY(!zero.ok());
        QVERIFY(zero.error().message.find("division by zero") != std::string::npos);
    }
    // Hostile expressions are errors, never traps or crashes.
    void overflowAndTrapsAreErrors() {
        auto div = Expression::parse("A / B");
        QVERIFY(div.ok());
        auto trap = div->evaluateInt({{"A", std::numeric_limits<long long>::min()}, {"B", -1}});
        QVERIFY(!trap.ok());
        QVERIFY2(trap.error().message.find("overflows") != std::string::npos, trap.error().message.c_str());
        auto mod = Expression::parse("A % B");
        QVERIFY(!mod->evaluateInt({{"A", std::numeric_limits<long long>::min()}, {"B", -1}}).ok());
        auto mul = Expression::parse("A * B * 4");
        auto big = mul->evaluateInt({{"A", 1ll << 40}, {"B", 1ll << 30}});
        QVERIFY(!big.ok());
        QVERIFY(big.error().message.find("overflows a 64-bit integer") != std::string::npos);
        auto sum = Expression::parse("A + 1");
        QVERIFY(!sum->evaluateInt({{"A", std::numeric_limits<long long>::max()}}).ok());
        auto ceil = Expression::parse("ceil_div(A, 2)");
        QVERIFY(!ceil->evaluateInt({{"A", std::numeric_limits<long long>::max()}}).ok());
    }
    void nestingAndLengthAreBounded() {
        const std::string deep = std::string(200000, '(') + "1" + std::string(200000, ')');
        auto e = Expression::parse(deep);
        QVERIFY(!e.ok());
        const std::string minus(100000, '-');
        QVERIFY(!Expression::parse(minus + "1").ok());
        std::string chain = "1";
        for (int i = 0; i < 50000; ++i) chain += "+1";
        auto c = Expression::parse(chain);
        QVERIFY(!c.ok());
        QVERIFY(c.error().message.find("longer than") != std::string::npos);
        QVERIFY(Expression::parse(std::string(50, '(') + "N" + std::string(50, ')')).ok());
    }
    // Found by tst_fuzz_expression: literals went through a double, so large
    // integers were rounded or wrapped, and "1.2.3" read as 1.2.
    void numberLiteralsAreExactOrRefused() {
        auto big = Expression::parse("9007199254740993");
        QVERIFY(big.ok());
        QCOMPARE(*big->evaluateInt({}), 9007199254740993LL);
        auto max = Expression::parse("9223372036854775807");
        QVERIFY(max.ok());
        QCOMPARE(*max->evaluateInt({}), std::numeric_limits<long long>::max());
        QCOMPARE(QString::fromStdString(max->toCpp(false)), QString("9223372036854775807LL"));
        auto past = Expression::parse("N * 18446744073709551616");
        QVERIFY(!past.ok());
        QVERIFY2(past.error().message.find("does not fit in 64 bits") != std::string::npos, past.error().message.c_str());
        QVERIFY2(past.error().message.find("column 5") != std::string::npos, past.error().message.c_str());
        auto huge = Expression::parse("1e308 * N");
        QVERIFY(huge.ok());
        QVERIFY(huge->evaluate({{"N", 2}}).ok());
        auto hugeInt = huge->evaluateInt({{"N", 2}});
        QVERIFY(!hugeInt.ok());
        QVERIFY2(hugeInt.error().message.find("does not fit in a 64-bit integer") != std::string::npos,
                 hugeInt.error().message.c_str());
        for (const char* bad : {"1.2.3", "1..2", "1e5e5", "1e", "2e+", "."}) {
            auto e = Expression::parse(bad);
            QVERIFY2(!e.ok(), bad);
            QVERIFY2(e.error().message.find("bad number") != std::string::npos, e.error().message.c_str());
        }
        QCOMPARE(*Expression::parse("1.5e0")->evaluate({}), 1.5);
        QCOMPARE(*Expression::parse("2e-1 * 10")->evaluate({}), 2.0);
    }
    void rendersCpp() {
        auto e = Expression::parse("max(M, 2) * (N + 1)");
        QVERIFY(e.ok());
        QCOMPARE(QString::fromStdString(e->toCpp(false)), QString("(std::max<long long>(M, 2LL) * (N + 1LL))"));
        QVERIFY(e->toCpp(true).find("(double)M") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestExpression)
#include "tst_expression.moc"
