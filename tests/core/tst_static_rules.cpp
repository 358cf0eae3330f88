#include "eval/static_rules.h"

#include <QtTest/QtTest>

using namespace ks::eval;

class TestStaticRules : public QObject {
    Q_OBJECT
private slots:
    void flagsEachRule_data() {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("rule");
        QTest::newRow("dlsym") << "void* p = dlsym(h, \"ref\");" << "dynamic-loading";
        QTest::newRow("fork") << "pid_t p = fork ();" << "processes";
        QTest::newRow("system") << "system(\"rm -rf /\");" << "processes";
        QTest::newRow("socket") << "#include <sys/socket.h>" << "network";
        QTest::newRow("asm") << "asm volatile(\"nop\");" << "raw-syscalls";
        QTest::newRow("proc") << "const char* p = \"/proc/self/maps\";" << "process-internals";
        QTest::newRow("thread") << "std::thread t(work);" << "threads";
        QTest::newRow("chrono") << "auto t = std::chrono::steady_clock::now();" << "timers-signals";
        QTest::newRow("fopen") << "FILE* f = fopen(\"x\", \"w\");" << "files";
        QTest::newRow("getenv") << "const char* h = getenv(\"HOME\");" << "environment";
        QTest::newRow("exit") << "exit(0);" << "exit";
    }
    void flagsEachRule() {
        QFETCH(QString, code);
        QFETCH(QString, rule);
        const auto v = checkStaticRules("void k() {\n" + code.toStdString() + "\n}\n");
        QVERIFY2(!v.empty(), qPrintable(code));
        QCOMPARE(QString::fromStdString(v.front().rule), rule);
        QCOMPARE(v.front().line, 2);
    }
    void ignoresCommentsAndHonestCode() {
        const char* src = R"(// never fork() or open a socket( here
/* dlopen would be cheating */
#include <immintrin.h>
#include <omp.h>
void k(const float* x, float* y, long n) {
    #pragma omp parallel for
    for (long i = 0; i < n; ++i) y[i] = x[i] * 2.0f; // not exit(1)
    __m256 v = _mm256_setzero_ps(); (void)v;
}
)";
        const auto v = checkStaticRules(src);
        QVERIFY2(v.empty(), v.empty() ? "" : describeViolations(v).c_str());
    }
    void messageNamesLineAndReason() {
        const auto v = checkStaticRules("int a;\nint b = fork();\n");
        const auto text = describeViolations(v);
        QVERIFY(text.find("line 2 [processes]") != std::string::npos);
        QVERIFY(text.find("a kernel does not start processes") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestStaticRules)
#include "tst_static_rules.moc"
