#include "eval/static_rules.h"

#include "test_support.h"

#include <QtTest/QtTest>

#include <fstream>
#include <sstream>

using namespace kw::eval;

class TestStaticRules : public QObject {
    Q_OBJECT
  private slots:
    void flagsEachRule_data() {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("rule");
        QTest::newRow("dlsym") << "void* p = dlsym(h, \"ref\");"
                               << "dynamic-loading";
        QTest::newRow("fork") << "pid_t p = fork ();"
                              << "processes";
        QTest::newRow("system") << "system(\"rm -rf /\");"
                                << "processes";
        QTest::newRow("socket") << "#include <sys/socket.h>"
                                << "network";
        QTest::newRow("asm") << "asm volatile(\"nop\");"
                             << "raw-syscalls";
        QTest::newRow("proc") << "const char* p = \"/proc/self/maps\";"
                              << "process-internals";
        QTest::newRow("thread") << "std::thread t(work);"
                                << "threads";
        QTest::newRow("chrono") << "auto t = std::chrono::steady_clock::now();"
                                << "timers-signals";
        QTest::newRow("fopen") << "FILE* f = fopen(\"x\", \"w\");"
                               << "files";
        QTest::newRow("getenv") << "const char* h = getenv(\"HOME\");"
                                << "environment";
        QTest::newRow("exit") << "exit(0);"
                              << "exit";
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
    // Parsed, not matched line by line: the ways around a line regex.
    void flagsWhatRegexesMissed_data() {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("rule");
        QTest::newRow("address of fork") << "auto f = &fork; f();"
                                         << "processes";
        QTest::newRow("alias of system") << "int (*run)(const char*) = system;"
                                         << "processes";
        QTest::newRow("using namespace std") << "using namespace std; thread t(work);"
                                             << "threads";
        QTest::newRow("quoted include") << "#include \"sys/socket.h\""
                                        << "network";
        QTest::newRow("harness include") << "#include \"harness_problem.inc\""
                                         << "includes";
        QTest::newRow("path include") << "#include </proc/self/environ>"
                                      << "includes";
        QTest::newRow("asm __volatile__") << "asm __volatile__(\"nop\");"
                                          << "raw-syscalls";
        QTest::newRow("__asm__") << "__asm__(\"syscall\");"
                                 << "raw-syscalls";
        QTest::newRow("token pasting") << "#define CAT(a, b) a##b"
                                       << "token-pasting";
        QTest::newRow("continued line") << "int x = for\\\nk();"
                                        << "processes";
        QTest::newRow("raw string path") << "const char* p = R\"(/proc/self/mem)\";"
                                         << "process-internals";
        QTest::newRow("result file") << "const char* p = \"result.json\";"
                                     << "files";
        QTest::newRow("std::chrono alias") << "namespace c = std::chrono;"
                                           << "timers-signals";
        QTest::newRow("global ::write") << "::write(1, p, 4);"
                                        << "output-streams";
    }
    void flagsWhatRegexesMissed() {
        QFETCH(QString, code);
        QFETCH(QString, rule);
        const auto v = checkStaticRules("void k() {\n" + code.toStdString() + "\n}\n");
        QVERIFY2(!v.empty(), qPrintable(code));
        QCOMPARE(QString::fromStdString(v.front().rule), rule);
    }
    // Common words are the library's only when used as its functions.
    void commonWordsAsVariablesPass() {
        const auto v = checkStaticRules(
            "void k(float* y, long n) {\n  long time = 0, wait = 1; float signal = 2;\n"
            "  for (long i = 0; i < n; ++i) y[i] = signal * (time + wait);\n  out.write(y, n); file->open(3);\n}\n");
        QVERIFY2(v.empty(), v.empty() ? "" : describeViolations(v).c_str());
    }
    // Hostile text never breaks the checker: a 200 KB line, unterminated
    // comments, strings and raw strings, a megabyte and more.
    void hostileSourcesAreHandled() {
        std::string longLine = "void k() { int a = 0" + std::string();
        for (int i = 0; i < 40000; ++i) longLine += " + 1";
        longLine += "; fork(); }\n";
        auto v = checkStaticRules(longLine);
        QVERIFY(!v.empty());
        QCOMPARE(v.front().rule, std::string("processes"));
        QVERIFY(v.front().excerpt.size() <= 160);
        for (const char* broken : {"/* never closed", "const char* s = \"never closed", "auto r = R\"x(never closed", "#", "'",
                                   "R\"", "#include", "#include <", "\\", "##########"})
            (void)checkStaticRules(broken);
        const std::string huge(2u << 20, ' ');
        v = checkStaticRules(huge);
        QCOMPARE(v.size(), std::size_t{1});
        QCOMPARE(v.front().rule, std::string("size"));
        QVERIFY(describeViolations(v).find("1 MiB") != std::string::npos);
        // Python sources: too large, too deep or not Python is one clear violation, never a crash.
        v = checkPythonRules("x = 1" + std::string(2u << 20, ' ') + "\n", {});
        QCOMPARE(v.size(), std::size_t{1});
        QCOMPARE(v.front().rule, std::string("size"));
        v = checkPythonRules("x = " + std::string(200000, '(') + "1" + std::string(200000, ')') + "\n", {});
        QCOMPARE(v.size(), std::size_t{1});
        QCOMPARE(v.front().rule, std::string("syntax"));
        v = checkPythonRules("def f(:\n", {});
        QCOMPARE(v.size(), std::size_t{1});
        QCOMPARE(v.front().rule, std::string("syntax"));
        QCOMPARE(v.front().line, 1);
        QVERIFY(checkPythonRules(std::string("x = '\xff\xfe'\n\x80\n"), {}).size() >= 1);
    }
    // Every source the project ships passes: seeds, references, baselines.
    void bundledSourcesPass() {
        int checked = 0;
        for (const auto& root : {kw::test::bundledProblemsDir(), kw::test::dataDir() / "problems"}) {
            std::error_code ec;
            for (auto it = std::filesystem::recursive_directory_iterator(root, ec);
                 it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
                const auto ext = it->path().extension();
                if (ext != ".cpp" && ext != ".cu") continue;
                std::ifstream in(it->path());
                std::stringstream text;
                text << in.rdbuf();
                const auto v = ext == ".cu" ? checkCudaRules(text.str(), {}) : checkStaticRules(text.str());
                QVERIFY2(v.empty(), (it->path().string() + ": " + describeViolations(v)).c_str());
                ++checked;
            }
        }
        QVERIFY(checked > 20);
    }
    void messageNamesLineAndReason() {
        const auto v = checkStaticRules("int a;\nint b = fork();\n");
        const auto text = describeViolations(v);
        QVERIFY(text.find("line 2 [processes]") != std::string::npos);
        QVERIFY(text.find("a kernel does not start processes") != std::string::npos);
    }

    // A source made of violations is checked in linear time and answered
    // with a bounded message: the first 50, then how many more.
    void manyViolationsGetABoundedReport() {
        std::string cpp, py = "import torch\n";
        for (int i = 0; i < 20000; ++i) cpp += "void f" + std::to_string(i) + "() { asm(\"nop\"); system(\"x\"); }\n";
        for (int i = 0; i < 20000; ++i) py += "exec('x')\n";
        for (const auto& v : {checkStaticRules(cpp), checkPythonRules(py, {})}) {
            QCOMPARE(v.size(), std::size_t(51));
            QCOMPARE(v.back().rule, std::string("more"));
            QVERIFY2(v.back().why.find("more violations") != std::string::npos, v.back().why.c_str());
            QVERIFY(describeViolations(v).size() < 20000);
        }
    }

    // Python candidates: a pass over the syntax tree, so aliases, computed
    // names and comments neither hide a construct nor invent one.
    void flagsEachPythonRule_data() {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("rule");
        QTest::newRow("subprocess") << "import subprocess"
                                    << "imports";
        // os is build plumbing (the environment, a build folder's path); the
        // rest of it reaches processes, signals and files.
        QTest::newRow("os.system") << "import os as o\no.system('ls')"
                                   << "imports";
        QTest::newRow("os.kill") << "import os\nos.kill(os.getppid(), 9)"
                                 << "imports";
        QTest::newRow("os.setsid") << "from os import setsid"
                                   << "imports";
        QTest::newRow("os.fork") << "import os\npid = os.fork()"
                                 << "imports";
        QTest::newRow("os.open") << "import os\nfd = os.open('result.json', 1)"
                                 << "imports";
        // sys, tempfile and logging: streams, a temporary folder, a logger;
        // not the interpreter's modules, frames and hooks, nor log files.
        QTest::newRow("sys.modules") << "import sys\njudge = sys.modules['torch_judge']"
                                     << "imports";
        QTest::newRow("sys._getframe by alias") << "import sys as s\nf = s._getframe(2)"
                                                << "imports";
        QTest::newRow("from sys import settrace") << "from sys import settrace"
                                                  << "imports";
        QTest::newRow("logging to a file") << "import logging\nlogging.basicConfig(filename='result.json')"
                                           << "files";
        QTest::newRow("logging.FileHandler") << "import logging\nh = logging.FileHandler('result.json')"
                                             << "imports";
        QTest::newRow("from os") << "from os import system"
                                 << "imports";
        QTest::newRow("ctypes") << "import ctypes"
                                << "imports";
        QTest::newRow("gc") << "import gc"
                            << "imports";
        QTest::newRow("inspect") << "import inspect"
                                 << "imports";
        QTest::newRow("threading") << "import threading"
                                   << "imports";
        QTest::newRow("multiprocessing") << "import multiprocessing"
                                         << "imports";
        QTest::newRow("importlib") << "import importlib"
                                   << "imports";
        QTest::newRow("statistics") << "import statistics"
                                    << "imports";
        QTest::newRow("relative") << "from . import reference"
                                  << "imports";
        QTest::newRow("star") << "from torch import *"
                              << "imports";
        QTest::newRow("torch.sys") << "m = torch.sys.modules"
                                   << "imports";
        QTest::newRow("private torch") << "torch.cuda._sleep(10)"
                                       << "imports";
        QTest::newRow("torch._C") << "f = torch._C._cuda_synchronize"
                                  << "imports";
        QTest::newRow("eval") << "g = eval('__imp' + 'ort__')"
                              << "dunder";
        QTest::newRow("exec") << "exec('x = 1')"
                              << "dynamic-code";
        QTest::newRow("compile builtin") << "c = compile('1', 'f', 'eval')"
                                         << "dynamic-code";
        QTest::newRow("__import__") << "m = __import__('os')"
                                    << "dunder";
        QTest::newRow("the subclasses of object") << "s = ().__class__.__bases__[0].__subclasses__()"
                                                  << "dunder";
        QTest::newRow("dunder attribute") << "g = ModelNew.forward.__globals__"
                                          << "dunder";
        QTest::newRow("dunder via getattr") << "g = getattr(f, '__globals__')"
                                            << "dunder";
        QTest::newRow("computed getattr") << "f = getattr(torch, 'comp' + 'ile')"
                                          << "dynamic-attribute";
        QTest::newRow("computed setattr") << "setattr(torch.cuda, name, f)"
                                          << "dynamic-attribute";
        QTest::newRow("literal setattr") << "setattr(torch.cuda, 'synchronize', f)"
                                         << "monkey-patching";
        QTest::newRow("patch sync") << "torch.cuda.synchronize = lambda: None"
                                    << "monkey-patching";
        QTest::newRow("patch alias") << "tc = 1\nimport torch.cuda as tc2\ntc2.synchronize = None"
                                     << "monkey-patching";
        QTest::newRow("patch event") << "torch.cuda.Event.elapsed_time = fake"
                                     << "monkey-patching";
        // A module under a local name is the module; attributes reached by a string are refused.
        QTest::newRow("patch a local alias") << "t = torch.cuda\nt.synchronize = lambda: None"
                                             << "monkey-patching";
        QTest::newRow("reach through a local alias") << "t = torch\nm = t.sys.modules"
                                                     << "imports";
        QTest::newRow("os under a local name") << "import os\no = os\no.kill(1, 9)"
                                               << "imports";
        QTest::newRow("attrgetter") << "import operator\nf = operator.attrgetter('cuda.synchronize')(torch)"
                                    << "dynamic-attribute";
        QTest::newRow("reduce over getattr") << "import functools\nf = functools.reduce(getattr, ['cuda', 'synchronize'], torch)"
                                             << "dynamic-attribute";
        QTest::newRow("del") << "del torch.allclose"
                             << "monkey-patching";
        QTest::newRow("input") << "n = int(input())"
                               << "files";
        QTest::newRow("a main block run by rebinding __name__")
            << "__name__ = '__main__'\nif __name__ == '__main__':\n    import subprocess"
            << "imports";
        QTest::newRow("exit") << "exit(0)"
                              << "exit";
        QTest::newRow("globals") << "g = globals()"
                                 << "introspection";
        QTest::newRow("torch.compile") << "f = torch.compile(m)"
                                       << "compiler";
        QTest::newRow("compile alias") << "from torch import compile as c"
                                       << "compiler";
        QTest::newRow("dynamo") << "import torch._dynamo"
                                << "compiler";
        QTest::newRow("inductor") << "import torch._inductor.config as cfg"
                                  << "compiler";
        QTest::newRow("torch.ops") << "y = torch.ops.aten._softmax(x, -1, False)"
                                   << "imports";
        QTest::newRow("reference op") << "y = torch.softmax(x, dim=-1)"
                                      << "reference-op";
        QTest::newRow("in place") << "x.softmax_(-1)"
                                  << "reference-op";
        QTest::newRow("as a value") << "f = torch.softmax\ny = f(x, -1)"
                                    << "reference-op";
        // A module is resolved to what it runs: built in __init__, called in forward.
        QTest::newRow("module attribute called")
            << "class ModelNew(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
               "        self.norm = torch.nn.Softmax(dim=-1)\n    def forward(self, x):\n        return self.norm(x)"
            << "reference-op";
        QTest::newRow("module built and run") << "y = torch.nn.Softmax(dim=1)(x)"
                                              << "reference-op";
        // A CPU fallback is dead code on the GPU only when it is guarded by
        // where the inputs are: a tensor the candidate made, or an input it
        // moved, could be anywhere.
        QTest::newRow("guard on a made tensor")
            << "def forward(x):\n    if not torch.zeros(1).is_cuda:\n        return torch.softmax(x, -1)\n    return x"
            << "reference-op";
        QTest::newRow("guard on a moved input")
            << "def forward(x):\n    x = x.cpu()\n    if not x.is_cuda:\n        return torch.softmax(x, -1)\n    return x"
            << "reference-op";
        QTest::newRow("the op on the GPU branch")
            << "def forward(x):\n    if x.is_cuda:\n        return torch.softmax(x, -1)\n    return x"
            << "reference-op";
        QTest::newRow("as a method") << "y = x.float().softmax(-1)"
                                     << "reference-op";
        QTest::newRow("functional alias") << "import torch.nn.functional as G\ny = G.softmax(x, -1)"
                                          << "reference-op";
        QTest::newRow("from import") << "from torch.nn.functional import softmax as sm"
                                     << "reference-op";
        QTest::newRow("special") << "y = torch.special.softmax(x, -1)"
                                 << "reference-op";
        QTest::newRow("literal getattr op") << "y = getattr(torch, 'softmax')(x, -1)"
                                            << "reference-op";
        // The judge gives every kernel timed together the same room on the device.
        QTest::newRow("memory fraction") << "torch.cuda.set_per_process_memory_fraction(1.0)"
                                         << "device-memory";
        QTest::newRow("memory fraction, module") << "from torch.cuda import memory as m\nm.set_per_process_memory_fraction(1.0)"
                                                 << "device-memory";
        QTest::newRow("allocator swap") << "torch.cuda.memory.change_current_allocator(a)"
                                        << "device-memory";
    }
    void flagsEachPythonRule() {
        QFETCH(QString, code);
        QFETCH(QString, rule);
        const auto v = checkPythonRules("import torch\n" + code.toStdString() + "\n", {"torch.softmax"});
        QVERIFY2(!v.empty(), qPrintable(code));
        bool seen = false;
        for (const auto& one : v) seen = seen || QString::fromStdString(one.rule) == rule;
        QVERIFY2(seen, qPrintable(code + ": " + QString::fromStdString(describeViolations(v))));
        QVERIFY(v.front().line >= 2);
    }
    void honestPythonPasses() {
        const char* src = R"(# never torch.softmax here, nor open( or subprocess
import torch
import triton
import triton.language as tl
from kw_params import BLOCK, NUM_WARPS  # BLOCK: elements per program
from kw_launch import launcher  # the harness's direct launcher

@triton.jit
def _kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, x * 2.0 + tl.sum(x, axis=0), mask=offs < n)

_CUDA = r"""
__global__ void twice(const float* __restrict__ x, float* y, long n) { }
"""
from torch.utils.cpp_extension import load_inline

class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.side = torch.cuda.Stream()

    def forward(self, x):
        y = torch.empty_like(x, dtype=torch.float32)
        if x.dtype == torch.float32:
            n = x.numel()
            with torch.cuda.stream(self.side):
                _kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK, num_warps=NUM_WARPS)
            torch.cuda.current_stream().wait_stream(self.side)
        return y

if __name__ == "__main__":
    pass
)";
        // Side streams and inline CUDA are a kernel's business (the judge covers
        // every stream); tl.sum inside a Triton kernel is not torch.sum.
        const auto v = checkPythonRules(src, {"torch.softmax", "torch.sum"});
        QVERIFY2(v.empty(), v.empty() ? "" : describeViolations(v).c_str());
    }

    // Kernels as real models write them: the rules read what a name refers
    // to, not how it is spelt, and leave build plumbing alone.
    void honestModelStylesPass_data() {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QStringList>("forbidden");
        QTest::newRow("own functions named like the op")
            << "class ModelNew(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
               "        self.sigmoid_cuda = ext.sigmoid_cuda\n    def forward(self, x):\n"
               "        return self.sigmoid_cuda(x) + max_cuda.max_dim(x, 1)[0]"
            << QStringList{"torch.sigmoid", "torch.max"};
        QTest::newRow("an extension's function with the op's own name")
            << "from torch.utils.cpp_extension import load_inline\n"
               "softmax_ext = load_inline(name='s', cpp_sources='', cuda_sources='', functions=['softmax'])\n"
               "class ModelNew(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
               "        self.ext = load_inline(name='t', cpp_sources='', functions=['softmax'])\n"
               "    def forward(self, x):\n        return softmax_ext.softmax(x) + self.ext.softmax(x)"
            << QStringList{"torch.softmax"};
        QTest::newRow("torch.maximum is not torch.max")
            << "y = torch.maximum(a, b).clamp_min(0.0)" << QStringList{"torch.max", "torch.clamp"};
        QTest::newRow("a module kept for its parameters")
            << "import torch.nn as nn\nclass ModelNew(nn.Module):\n    def __init__(self, c):\n        super().__init__()\n"
               "        self.group_norm = nn.GroupNorm(8, c)\n        self.linear = nn.Linear(c, c)\n"
               "        self.clamp_min = 0.5\n    def forward(self, x):\n"
               "        return fused(x, self.linear.weight, self.group_norm.weight, self.group_norm.bias, self.clamp_min)"
            << QStringList{"nn.GroupNorm", "F.group_norm", "torch.nn.functional.linear", "torch.clamp"};
        QTest::newRow("a library conv, its epilogue fused")
            << "import torch.nn.functional as F\nclass ModelNew(torch.nn.Module):\n    def forward(self, x, w):\n"
               "        return fused_bias_relu(F.conv2d(x, w))"
            << QStringList{"torch.relu", "F.relu"};
        QTest::newRow("CPU fallbacks") << "class ModelNew(torch.nn.Module):\n    def forward(self, x):\n"
                                          "        if not x.is_cuda:\n            return torch.softmax(x, -1)\n"
                                          "        if x.device.type == 'cpu' or not torch.cuda.is_available():\n"
                                          "            return torch.softmax(x, -1)\n"
                                          "        if x.device.type == 'cuda':\n            return own(x)\n"
                                          "        else:\n            return torch.softmax(x, -1)"
                                       << QStringList{"torch.softmax"};
        QTest::newRow("sys, a temporary build folder, a logger, the module's own path")
            << "import sys, tempfile, logging, os\nlogger = logging.getLogger(__name__)\n"
               "logging.basicConfig(level=logging.INFO)\nbuild = tempfile.mkdtemp()\n"
               "here = os.path.dirname(os.path.abspath(__file__))\nif sys.version_info < (3, 8):\n"
               "    print('old Python', file=sys.stderr)\nsys.path.insert(0, build)\nlogger.info('built in %s', build)"
            << QStringList{"torch.softmax"};
        QTest::newRow("build plumbing")
            << "import os, time, warnings\nos.environ['TORCH_CUDA_ARCH_LIST'] = '9.0'\n"
               "os.environ.setdefault('MAX_JOBS', '4')\nbuild = os.path.join(os.path.dirname(os.path.abspath('k.cu')), 'build')\n"
               "os.makedirs(build, exist_ok=True)\nstarted = time.perf_counter()\nwarnings.filterwarnings('ignore')\n"
               "torch.backends.cudnn.benchmark = True\ntorch.backends.cuda.matmul.allow_tf32 = False\n"
               "fan_in, _ = torch.nn.init._calculate_fan_in_and_fan_out(w)"
            << QStringList{"torch.softmax"};
        // The judge keeps what a kernel writes in the kernel's own folder
        // (torch_landlock); a host that cannot is tested in tests/python.
        QTest::newRow("a lazily built extension in a global, its .cu written next to the module")
            << "import os, pathlib\nfrom torch.utils.cpp_extension import load\n_ext = None\n"
               "def ext():\n    global _ext\n    if _ext is None:\n"
               "        build = pathlib.Path(__file__).resolve().parent / 'build'\n        build.mkdir(exist_ok=True)\n"
               "        src = os.path.join(str(build), 'softmax.cu')\n        with open(src, 'w') as f:\n            "
               "f.write(CUDA)\n"
               "        _ext = load(name='softmax_ext', sources=[src], build_directory=str(build))\n    return _ext\n"
               "class ModelNew(torch.nn.Module):\n    def forward(self, x):\n        return ext().softmax(x)"
            << QStringList{"torch.softmax"};
        QTest::newRow("module metadata, versions and plain helpers")
            << "import contextlib, textwrap, hashlib, copy\n__all__ = ['ModelNew']\n"
               "SRC = textwrap.dedent('    __global__ void k() {}')\n"
               "NAME = 'ext_' + hashlib.sha1(SRC.encode()).hexdigest()[:8]\n"
               "if torch.__version__ < '2.0':\n    raise RuntimeError(type(SRC).__name__ + ' needs torch 2')\n"
               "with contextlib.nullcontext():\n    pass"
            << QStringList{"torch.softmax"};
        QTest::newRow("a model's own test block")
            << "class ModelNew(torch.nn.Module):\n    def forward(self, x):\n        return own(x)\n"
               "if __name__ == '__main__':\n    import time\n    x = torch.randn(8, 8, device='cuda')\n"
               "    torch.testing.assert_close(ModelNew()(x), torch.softmax(x, -1))\n    print('ok')"
            << QStringList{"torch.softmax"};
    }
    void honestModelStylesPass() {
        QFETCH(QString, code);
        QFETCH(QStringList, forbidden);
        std::vector<std::string> f;
        for (const auto& e : forbidden) f.push_back(e.toStdString());
        const auto v = checkPythonRules("import torch\n" + code.toStdString() + "\n", f);
        QVERIFY2(v.empty(), v.empty() ? "" : describeViolations(v).c_str());
    }
};

QTEST_APPLESS_MAIN(TestStaticRules)
#include "tst_static_rules.moc"
