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

    // Python candidates share the harness's interpreter: patching what it
    // uses, side streams and the reference's own op are refused too.
    void flagsEachPythonRule_data() {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("rule");
        QTest::newRow("subprocess") << "import subprocess" << "processes";
        QTest::newRow("os.system") << "os.system('nvidia-smi -r')" << "processes";
        QTest::newRow("ctypes") << "lib = ctypes.CDLL('libcuda.so')" << "native-loading";
        QTest::newRow("gc") << "refs = gc.get_objects()" << "introspection";
        QTest::newRow("frames") << "f = sys._getframe(1)" << "introspection";
        QTest::newRow("patch sync") << "torch.cuda.synchronize = lambda: None" << "monkey-patching";
        QTest::newRow("patch event") << "    torch.cuda.Event.elapsed_time = fake" << "monkey-patching";
        QTest::newRow("setattr") << "setattr(torch, 'allclose', lambda *a: True)" << "monkey-patching";
        QTest::newRow("open") << "open('result.json', 'w').write('{}')" << "files";
        QTest::newRow("environ") << "os.environ['X'] = '1'" << "environment";
        QTest::newRow("exit") << "sys.exit(0)" << "exit";
        QTest::newRow("stream") << "s = torch.cuda.Stream()" << "streams";
        QTest::newRow("thread") << "import threading" << "threads";
        QTest::newRow("sleep") << "time.sleep(1)" << "timers-signals";
        QTest::newRow("reference op") << "return torch.softmax(x, dim=-1)" << "reference-op";
    }
    void flagsEachPythonRule() {
        QFETCH(QString, code);
        QFETCH(QString, rule);
        const auto v = checkPythonRules("import torch\n" + code.toStdString() + "\n", {"torch.softmax"});
        QVERIFY2(!v.empty(), qPrintable(code));
        QCOMPARE(QString::fromStdString(v.front().rule), rule);
        QCOMPARE(v.front().line, 2);
    }
    void honestPythonPasses() {
        const char* src = R"(# never torch.softmax here, nor open( or subprocess
import torch
import triton
import triton.language as tl
from ks_params import BLOCK, NUM_WARPS  # BLOCK: elements per program

@triton.jit
def _kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, x * 2.0, mask=offs < n)

class ModelNew(torch.nn.Module):
    def forward(self, x):
        y = torch.empty_like(x, dtype=torch.float32)
        if x.dtype == torch.float32:
            n = x.numel()
            _kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK, num_warps=NUM_WARPS)
        return y
)";
        const auto v = checkPythonRules(src, {"torch.softmax"});
        QVERIFY2(v.empty(), v.empty() ? "" : describeViolations(v).c_str());
    }
};

QTEST_APPLESS_MAIN(TestStaticRules)
#include "tst_static_rules.moc"
