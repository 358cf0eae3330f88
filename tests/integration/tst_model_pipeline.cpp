// From a model to a faster model on the CPU (C++ backend), a test per step
// of `kernelwright-cli model extract | search | apply | ab` on one folder
// and one workspace: a small sequence model (tests/data/models/
// small_sequence.py) whose conv and layer norm compute what bundled problems
// compute, and whose module named LayerNorm does not. The steps run in
// order; each checks what the step before left.
#include "cli_runner.h"

#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

using namespace kw;

namespace {
QProcessEnvironment pythonWithTorch() {
    auto env = QProcessEnvironment::systemEnvironment();
    if (!env.contains("KW_PYTHON") && QFile::exists("/usr/bin/python3")) env.insert("KW_PYTHON", "/usr/bin/python3");
    return env;
}

QJsonObject readJson(const QString& file) {
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}
} // namespace

class TestModelPipeline : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    QString dir_, db_, model_;

    test::CliRun cli(QStringList args, int timeoutMs = 600000) {
        args.prepend(db_);
        args.prepend("--workspace");
        return test::runCli(args, timeoutMs, pythonWithTorch());
    }

  private slots:
    void initTestCase() {
        QVERIFY(tmp_.isValid());
        dir_ = tmp_.filePath("small");
        db_ = tmp_.filePath("workspace.db");
        model_ = QString::fromStdString((test::dataDir() / "models" / "small_sequence.py").string());
    }

    void extractMatchesRegionsByBehaviour() {
        const auto run = cli({"model", "extract", model_, "--out", dir_, "--top", "4", "--min-share", "0", "--steps", "3"});
        QVERIFY2(run.code == 0, qPrintable(run.err + run.out));
        QVERIFY2(run.out.contains("bundled dwconv1d_silu, matched by behaviour"), qPrintable(run.out));
        const auto model = readJson(dir_ + "/model.json");
        QMap<QString, QJsonObject> regions;
        for (const auto& r : model["regions"].toArray()) regions[r.toObject()["name"].toString()] = r.toObject();
        QCOMPARE(regions.keys(), (QStringList{"conv", "head", "norm", "scale"}));
        QCOMPARE(regions["conv"]["matched"].toString(), QStringLiteral("dwconv1d_silu"));
        QCOMPARE(regions["norm"]["matched"].toString(), QStringLiteral("layernorm"));
        // Named LayerNorm, computes something else: a torch problem of its own.
        QVERIFY(!regions["scale"].contains("matched"));
        QVERIFY2(QFile::exists(dir_ + "/small_sequence_scale/problem.json"), "the unmatched region was not imported");
        const auto norm = readJson(dir_ + "/small_sequence_norm/problem.json");
        const auto time = norm["shapes"].toObject()["time"].toArray()[0].toObject()["sizes"].toObject();
        QCOMPARE(time["M"].toInt(), 64 * 48); // the model's sizes: batch x events rows of width
        QCOMPARE(time["N"].toInt(), 32);

        const auto again = cli({"model", "extract", model_, "--out", dir_});
        QCOMPARE(again.code, 2);
        QVERIFY2(again.err.contains("holds an extraction already"), qPrintable(again.err));
    }

    void applyBeforeSearchKeepsEveryModule() {
        const auto run = cli({"model", "apply", dir_});
        QVERIFY2(run.code == 0, qPrintable(run.err + run.out));
        QVERIFY2(run.out.contains("not searched yet"), qPrintable(run.out));
        QCOMPARE(readJson(dir_ + "/kernels.json")["kernels"].toArray().size(), 0);
    }

    void searchRunsOnePerRegionAndResumes() {
        const auto run = cli({"model", "search", dir_, "--budget", "8"});
        QVERIFY2(run.code == 0, qPrintable(run.err + run.out));
        QFile lines(dir_ + "/suite-run-search.jsonl");
        QVERIFY(lines.open(QIODevice::ReadOnly));
        QMap<QString, QJsonObject> entries;
        for (const auto& line : lines.readAll().split('\n'))
            if (!line.trimmed().isEmpty()) {
                const auto e = QJsonDocument::fromJson(line).object();
                entries[e["problem"].toString()] = e;
            }
        QCOMPARE(entries.size(), 4);
        QCOMPARE(entries["small_sequence_conv"]["status"].toString(), QStringLiteral("ok"));
        QCOMPARE(entries["small_sequence_norm"]["status"].toString(), QStringLiteral("ok"));
        QVERIFY(entries["small_sequence_conv"]["search_id"].toInt() > 0);

        const auto again = cli({"model", "search", dir_, "--budget", "8"}, 120000);
        QVERIFY2(again.code == 0, qPrintable(again.err));
        QVERIFY2(!again.err.contains("[1/4]"), qPrintable(again.err)); // nothing left to run
    }

    void applySwapsTheWinnersAndChecksTheModel() {
        const auto run = cli({"model", "apply", dir_});
        QVERIFY2(run.code == 0, qPrintable(run.err + run.out));
        QVERIFY2(run.out.contains("swapped, output checked"), qPrintable(run.out));
        QVERIFY2(run.out.contains("the whole model's output matches"), qPrintable(run.out));
        const auto kernels = readJson(dir_ + "/kernels.json")["kernels"].toArray();
        QStringList swapped;
        for (const auto& k : kernels) {
            swapped << k.toObject()["region"].toString();
            QVERIFY(QFile::exists(k.toObject()["source"].toString()));
        }
        swapped.sort();
        // A region is swapped when its search beat its problem's reference.
        QVERIFY2(!swapped.isEmpty() && swapped.size() <= 2, qPrintable(swapped.join(",")));
        for (const auto& s : swapped) QVERIFY(s == "conv" || s == "norm");
    }

    void abTimesOriginalAndSwapped() {
        const auto run = cli({"model", "ab", dir_, "--rounds", "3"});
        QVERIFY2(run.code == 0, qPrintable(run.err + run.out));
        QVERIFY2(run.out.contains("interleaved rounds"), qPrintable(run.out));
        QVERIFY2(run.out.contains("\neager ") && run.out.contains("\nswapped "), qPrintable(run.out));
        QVERIFY2(run.out.contains("torch.compile: not in this PyTorch") || run.out.contains("\ncompile "), qPrintable(run.out));
        QVERIFY2(run.out.contains("region (its forward)"), qPrintable(run.out)); // the waterfall

        // The folder as a report: the A/B kept in ab.json, the checks in apply.json.
        const QString html = tmp_.filePath("model.html");
        const auto report = cli({"export", "report", dir_, "--out", html});
        QVERIFY2(report.code == 0, qPrintable(report.err));
        QFile f(html);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        QVERIFY(text.contains("end to end over eager"));
        QVERIFY(text.contains("dwconv1d_silu (by behaviour)"));
    }

    void abBeforeApplySaysWhatToRun() {
        QTemporaryDir other;
        QFile::copy(dir_ + "/model.json", other.filePath("model.json"));
        const auto run = cli({"model", "ab", other.path()});
        QCOMPARE(run.code, 2);
        QVERIFY2(run.err.contains("model apply"), qPrintable(run.err));
        // A model the check found wrong is not timed.
        QFile::copy(dir_ + "/kernels.json", other.filePath("kernels.json"));
        QFile wrong(other.filePath("apply.json"));
        QVERIFY(wrong.open(QIODevice::WriteOnly));
        wrong.write(R"({"regions": [], "model_ok": false, "model_why": "3 of 64 elements beyond rtol 0.0001"})");
        wrong.close();
        const auto refused = cli({"model", "ab", other.path()});
        QVERIFY(refused.code != 0);
        QVERIFY2(refused.err.contains("differs from the original's (3 of 64 elements"), qPrintable(refused.err));
        const auto none = cli({"model", "search", tmp_.filePath("nowhere")});
        QCOMPARE(none.code, 2);
        QVERIFY2(none.err.contains("model extract"), qPrintable(none.err));
    }
};

QTEST_GUILESS_MAIN(TestModelPipeline)
#include "tst_model_pipeline.moc"
