// `model profile`: a whole model (KernelBench's format) run under PyTorch's
// profiler in a Python of its own, on the CPU here (python3 with Debian's
// python3-torch): its regions (leaf modules) and ops as tables and JSON; a
// file that is not a model, a model that fails, and a profiler answer that
// is malformed each get a message that says what to fix.
#include "cli_runner.h"
#include "model/model_profile.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <fstream>

using namespace kw;

namespace {
QProcessEnvironment pythonWithTorch() {
    auto env = QProcessEnvironment::systemEnvironment();
    // Debian's python3 has python3-torch (packaging/bootstrap.sh); another
    // python3 earlier on PATH may not.
    if (!env.contains("KW_PYTHON") && QFile::exists("/usr/bin/python3")) env.insert("KW_PYTHON", "/usr/bin/python3");
    return env;
}

QString ranker() {
    return QString::fromStdString((test::dataDir() / "models" / "tiny_ranker.py").string());
}
} // namespace

class TestModelProfile : public QObject {
    Q_OBJECT
  private slots:
    void theRegionsAndOpsOfAModel() {
        const auto run = test::runCli({"model", "profile", ranker(), "--steps", "3", "--json"}, 300000, pythonWithTorch());
        QVERIFY2(run.code == 0, qPrintable(run.err));
        const auto j = run.json().object();
        QCOMPARE(j["device"].toString(), QStringLiteral("cpu"));
        QVERIFY(j["step_s"].toDouble() > 0);
        QStringList regions;
        double shares = 0;
        for (const auto& r : j["regions"].toArray()) {
            regions << r.toObject()["name"].toString();
            shares += r.toObject()["share"].toDouble();
            QVERIFY(r.toObject()["bytes"].toDouble() > 0);
        }
        regions.sort();
        QCOMPARE(regions, (QStringList{"act", "down", "mix", "norm", "up"}));
        QVERIFY2(shares > 0.3 && shares <= 1.05, qPrintable(QString::number(shares)));
        bool addmm = false;
        for (const auto& o : j["ops"].toArray()) addmm |= o.toObject()["name"].toString() == QStringLiteral("aten::addmm");
        QVERIFY(addmm);

        const auto table = test::runCli({"model", "profile", ranker(), "--steps", "2", "--top", "3"}, 300000, pythonWithTorch());
        QVERIFY2(table.code == 0, qPrintable(table.err));
        QVERIFY2(table.out.contains("a step takes") && table.out.contains("region") && table.out.contains("op (own time)"),
                 qPrintable(table.out));
    }

    void whatIsNotAModelIsTold() {
        QTemporaryDir dir;
        const auto write = [&](const char* name, const char* text) {
            std::ofstream(dir.filePath(name).toStdString()) << text;
            return dir.filePath(name);
        };
        const auto missing = test::runCli({"model", "profile", dir.filePath("nothing.py")}, 60000, pythonWithTorch());
        QCOMPARE(missing.code, 2);
        QVERIFY2(missing.err.contains("no such file"), qPrintable(missing.err));

        const auto noModel = write("no_model.py", "import torch\n\ndef get_inputs():\n    return [torch.ones(2)]\n");
        const auto lacks = test::runCli({"model", "profile", noModel}, 120000, pythonWithTorch());
        QCOMPARE(lacks.code, 2);
        QVERIFY2(lacks.err.contains("has no Model"), qPrintable(lacks.err));

        const auto fails =
            write("fails.py", "import torch\nfrom torch import nn\n\nclass Model(nn.Module):\n"
                              "    def forward(self, x):\n        raise RuntimeError('shape mismatch in layer 3')\n\n"
                              "def get_inputs():\n    return [torch.ones(2)]\n");
        const auto failed = test::runCli({"model", "profile", fails}, 120000, pythonWithTorch());
        QCOMPARE(failed.code, 2);
        QVERIFY2(failed.err.contains("the model did not run") && failed.err.contains("shape mismatch in layer 3"),
                 qPrintable(failed.err));

        QCOMPARE(test::runCli({"model", "profile"}, 60000).code, 2);
        QCOMPARE(test::runCli({"model", "profile", ranker(), "--steps", "0"}, 60000).code, 2);
    }

    void theProfilersAnswerIsParsedOrRefused() {
        auto ok = model::parseModelProfile(
            R"({"ok": true, "device": "cuda", "steps": 4, "step_s": 0.002, "ops": [{"name": "aten::mm", "calls": 3,)"
            R"( "time_s": 0.001, "share": 0.5, "shapes": ["[8, 8]"]}], "regions": [{"name": "proj", "kind": "Linear",)"
            R"( "calls": 1, "time_s": 0.0015, "share": 0.75, "bytes": 4096}]})");
        QVERIFY(ok.ok());
        QCOMPARE(ok->device, std::string("cuda"));
        QCOMPARE(ok->ops.at(0).calls, 3);
        QCOMPARE(ok->regions.at(0).bytes, std::int64_t{4096});
        QVERIFY(!model::parseModelProfile("not json").ok());
        QVERIFY(!model::parseModelProfile(R"({"ok": true, "ops": [{"calls": 1}]})").ok()); // an op without a name
        auto refused = model::parseModelProfile(R"({"ok": false, "error": "m.py has no Model"})");
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().message, std::string("m.py has no Model"));
    }
};

QTEST_GUILESS_MAIN(TestModelProfile)
#include "tst_model_profile.moc"
