#include "problem/tunable_params.h"

#include <QtTest/QtTest>

using namespace kw::problem;

namespace {
const char* kSource = R"(
// A seed kernel.
// @kw-param BLOCK: 64 | 128 | 256 = 128
// @kw-param UNROLL: 1..8
//   @kw-param PREFETCH: bool = true
// @kw-param LAYOUT: enum(row, col) = col
void kernel() {}
)";
}

class TestTunableParams : public QObject {
    Q_OBJECT
  private slots:
    void parsesEveryDomainKind() {
        auto space = parseParamDeclarations(kSource, "seed.cpp");
        QVERIFY2(space.ok(), space.ok() ? "" : space.error().message.c_str());
        QCOMPARE(space->params.size(), std::size_t{4});
        QCOMPARE(space->find("BLOCK")->describe(), std::string("64 | 128 | 256"));
        QCOMPARE(space->find("UNROLL")->defaultValue, std::string("1"));
        QCOMPARE(space->find("UNROLL")->cardinality(), std::size_t{8});
        QCOMPARE(space->find("PREFETCH")->defaultValue, std::string("true"));
        QCOMPARE(space->find("LAYOUT")->values(), (std::vector<std::string>{"row", "col"}));
        QCOMPARE(space->size(), std::uint64_t{3 * 8 * 2 * 2});
        QCOMPARE(space->find("BLOCK")->line, 3);
    }
    void completesAndRejects() {
        auto space = parseParamDeclarations(kSource, "seed.cpp");
        QVERIFY(space.ok());
        auto a = space->complete({{"BLOCK", "256"}});
        QVERIFY(a.ok());
        QCOMPARE(a->at("BLOCK"), std::string("256"));
        QCOMPARE(a->at("LAYOUT"), std::string("col"));
        auto outside = space->complete({{"UNROLL", "9"}});
        QVERIFY(!outside.ok());
        QVERIFY(outside.error().message.find("outside its domain 1..8") != std::string::npos);
        auto unknown = space->complete({{"TILE", "4"}});
        QVERIFY(!unknown.ok());
        QVERIFY(unknown.error().message.find("declares: BLOCK, UNROLL, PREFETCH, LAYOUT") != std::string::npos);
    }
    void definesForTheCompiler() {
        auto space = parseParamDeclarations(kSource, "seed.cpp");
        QVERIFY(space.ok());
        const auto defs = paramDefines(*space, space->defaults());
        const std::vector<std::string> expected{"-DBLOCK=128", "-DLAYOUT=1", "-DLAYOUT_col=1", "-DPREFETCH=1", "-DUNROLL=1"};
        QCOMPARE(defs, expected);
    }
    void declarationErrorsNameFileAndLine() {
        auto bad = parseParamDeclarations("\n// @kw-param X: 1 | two\n", "k.cpp");
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().message.rfind("k.cpp:2:", 0) == 0, bad.error().message.c_str());
        QVERIFY(!parseParamDeclarations("// @kw-param X: 5..1\n", "k.cpp").ok());
        QVERIFY(!parseParamDeclarations("// @kw-param X: 1 | 2 = 3\n", "k.cpp").ok());
        QVERIFY(!parseParamDeclarations("// @kw-param 9X: bool\n", "k.cpp").ok());
        QVERIFY(!parseParamDeclarations("// @kw-param X: bool\n// @kw-param X: bool\n", "k.cpp").ok());
        QVERIFY(parseParamDeclarations("int main() {}\n", "k.cpp")->params.empty());
    }
};

QTEST_APPLESS_MAIN(TestTunableParams)
#include "tst_tunable_params.moc"
