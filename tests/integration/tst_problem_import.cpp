// problem import on KernelBench-format files written for these tests
// (tests/data/import/): sizes as expressions and chained assignments, tuple
// outputs, non-tensor inputs, init inputs, integer and boolean tensors give
// the expected problem.json (which then loads); a reference that raises, a
// syntax error, a missing get_init_inputs and inputs that fail to build give
// the expected error; a folder imports as a suite. The references run on the
// CPU (python3 with Debian's python3-torch).
#include "test_support.h"

#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <fstream>

using nlohmann::json;

namespace {

struct Run {
    int exitCode = -1;
    QString out, err;
};

Run cli(const QStringList& args) {
    QProcess p;
    auto env = QProcessEnvironment::systemEnvironment();
    // Debian's python3 has python3-torch (packaging/bootstrap.sh); another
    // python3 earlier on PATH may not.
    if (!env.contains("KW_PYTHON") && QFile::exists("/usr/bin/python3")) env.insert("KW_PYTHON", "/usr/bin/python3");
    p.setProcessEnvironment(env);
    p.start(kw::test::cliPath(), args);
    p.waitForFinished(300000);
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

QString file(const char* name) {
    return QString::fromUtf8(std::getenv("KW_TEST_DATA_DIR")) + "/import/" + name;
}

json readJson(const QString& path) {
    std::ifstream in(path.toStdString());
    return json::parse(in, nullptr, false);
}

// One fixture imported into its own folder: the run, and the problem.json it
// wrote (a discarded JSON value when it wrote none).
struct Imported {
    Run run;
    json problem;
};

Imported importFixture(const char* fixture, const QString& out, const QStringList& extra = {}) {
    Imported i{cli(QStringList{"problem", "import", file(fixture), "--out", out} + extra), {}};
    i.problem = readJson(out + "/problem.json");
    return i;
}

// Whether some check shape of problem `p` has sizes for which `pred` holds.
template <typename Pred> bool anyCheckShape(const json& p, Pred pred) {
    for (const auto& c : p["shapes"]["check"])
        if (pred(c["sizes"])) return true;
    return false;
}

bool has(const json& list, const std::string& v) {
    for (const auto& x : list)
        if (x == v) return true;
    return false;
}

} // namespace

class TestProblemImport : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        const auto probe = cli({"problem", "import", file("raises.py"), "--out", dir_.filePath("probe")});
        QVERIFY2(!probe.err.contains("PyTorch is not installed"), "python3-torch is missing: packaging/bootstrap.sh installs it");
    }

    void expressionsAndChainedAssignments() {
        const QString out = dir_.filePath("expressions");
        const auto [run, p] = importFixture("expressions.py", out);
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QCOMPARE(p["backend"].get<std::string>(), std::string("torch"));
        for (const char* s : {"batch_size", "in_features", "width", "out_features", "seq", "depth"})
            QVERIFY2(has(p["sizes"], s), s);
        QVERIFY(!has(p["sizes"], "lo"));                                        // -1: a value the reference uses, never a size
        QCOMPARE(p["imported"]["varied"], json({"batch_size", "in_features"})); // they size the input tensor
        QVERIFY(has(p["imported"]["fixed"], "width"));
        const auto time = p["shapes"]["time"][0]["sizes"];
        QCOMPARE(time["out_features"].get<int>(), 96 * 2 + (96 / 3) % 5);
        QCOMPARE(time["seq"].get<int>(), 16);
        QVERIFY(p["shapes"]["check"].size() >= 3);
        for (const auto& c : p["shapes"]["check"]) {
            QCOMPARE(c["sizes"].size(), p["sizes"].size());                                  // every size set
            QCOMPARE(c["sizes"]["seq"].get<int>(), c["sizes"]["batch_size"].get<int>() / 4); // derived sizes follow
            QCOMPARE(c["sizes"]["width"].get<int>(), 96);                                    // fixed ones stay
        }
        // KernelBench's rules: nothing forbidden unless asked; the reference's ops are recorded.
        QVERIFY(!p.contains("forbidden"));
        QVERIFY(has(p["imported"]["reference_ops"], "torch.linear") && has(p["imported"]["reference_ops"], "torch.gelu"));
        QVERIFY2(run.out.contains("policy         library"), qPrintable(run.out));
        QVERIFY(p["tolerance"].contains("f32"));
        QVERIFY(p["description"].get<std::string>().find("GELU") != std::string::npos); // the Model's docstring
        QVERIFY2(run.out.contains("sizes varied   batch_size, in_features"), qPrintable(run.out));
        const auto check = cli({"problem", "check", out});
        QVERIFY2(check.exitCode == 0, qPrintable(check.out + check.err));
    }

    void tupleOutputsAndMixedInputs() {
        const QString out = dir_.filePath("mixed");
        const auto [run, p] = importFixture("mixed_inputs.py", out, {"--name", "mixed", "--forbid-reference-ops"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QCOMPARE(p["name"].get<std::string>(), std::string("mixed"));
        QCOMPARE(p["imported"]["varied"], json({"cols", "picks", "rows"})); // randint's size, not its range
        QVERIFY(has(p["imported"]["fixed"], "k"));
        // values f32 32x50, ids i64 32x10, mask bool 32x10; outputs f32 [32] and i64 32x3.
        QCOMPARE(p["bytes"].get<std::string>(), std::to_string(32 * 50 * 4 + 32 * 10 * 8 + 32 * 10 + 32 * 4 + 32 * 3 * 8));
        for (const char* op : {"torch.topk", "torch.sum"}) QVERIFY2(has(p["forbidden"], op), op);
        // Arithmetic is every kernel's; indexing and selecting are helpers a kernel of the operator needs.
        for (const char* op : {"torch.mul", "torch.add", "torch.gather", "torch.where"}) QVERIFY2(!has(p["forbidden"], op), op);
        QVERIFY(p["tolerance"].contains("f32") && !p["tolerance"].contains("i64"));
        // Shapes where topk's k exceeds the picks are tried and not kept, with why.
        QVERIFY2(run.out.contains("not kept") && run.out.contains("selected index k out of range"), qPrintable(run.out));
        QCOMPARE(cli({"problem", "check", out}).exitCode, 0);
    }

    // GroupNorm's channels must stay a multiple of its groups: the shapes
    // that change every size at once fail, and the importer still finds
    // smaller check shapes (the sizes divided evenly, then each size alone
    // at edge values) rather than checking at the file's sizes only.
    void boundSizesStillGetSmallCheckShapes() {
        const QString out = dir_.filePath("bound");
        const auto [run, p] = importFixture("bound_sizes.py", out);
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        const auto& check = p["shapes"]["check"];
        QVERIFY2(check.size() >= 4, qPrintable(QString::fromStdString(check.dump())));
        bool batchOne = false, oddSide = false;
        for (const auto& c : check) {
            QVERIFY(c["name"] != "file");
            const auto& s = c["sizes"];
            QCOMPARE(s["channels"].get<int>() % s["groups"].get<int>(), 0);
            QVERIFY(s["batch_size"].get<int>() * s["channels"].get<int>() < 16 * 64); // smaller than the file's
            batchOne = batchOne || s["batch_size"].get<int>() == 1;
            oddSide = oddSide || s["height"].get<int>() % 2 == 1;
        }
        QVERIFY(batchOne && oddSide);
        QVERIFY2(!run.out.contains("no smaller shape ran"), qPrintable(run.out));
        QCOMPARE(cli({"problem", "check", out}).exitCode, 0);
    }

    // A size inside a module-level tuple that get_inputs reads varies too: the
    // tuple is computed again from the shape's sizes (here and in the judge).
    void sizesInsideShapeTuplesVary() {
        const QString out = dir_.filePath("tuples");
        const auto [run, p] = importFixture("shape_tuples.py", out);
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QVERIFY2(!run.out.contains("stay at the file's values"), qPrintable(run.out));
        const auto shapes = QString::fromStdString(p["shapes"]["check"].dump());
        QVERIFY2(anyCheckShape(p, [](const json& s) { return s["batch_size"] == 1; }), qPrintable(shapes));
        QVERIFY2(anyCheckShape(p, [](const json& s) { return s["height"].get<int>() % 2 == 1; }), qPrintable(shapes));
        // bytes at the time shape: the input, the parameters and the output of the file's own sizes
        const double input = 8.0 * 3 * 32 * 32 * 4, output = 8.0 * 16 * 32 * 32 * 4, params = (16.0 * 3 * 9 + 16 + 16) * 4;
        QCOMPARE(p["bytes"].get<std::string>(), std::to_string(static_cast<long long>(input + output + params)));
        QCOMPARE(cli({"problem", "check", out}).exitCode, 0);
    }

    // Inputs built by a helper function get_inputs calls with the module's
    // sizes vary like direct ones; a size that only bounds random lengths
    // (max_len: randint's high) stays at the file's value.
    void sizesThroughAHelperFunctionVary() {
        const QString out = dir_.filePath("helper");
        const auto [run, p] = importFixture("jagged_helper.py", out);
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QVERIFY2(has(p["imported"]["varied"], "batch_size") && has(p["imported"]["varied"], "dim"),
                 qPrintable(QString::fromStdString(p["imported"].dump())));
        QVERIFY(has(p["imported"]["fixed"], "max_len"));
        QVERIFY2(p["shapes"]["check"].size() > 1, qPrintable(QString::fromStdString(p["shapes"].dump())));
        QVERIFY(anyCheckShape(p, [](const json& s) { return s["batch_size"] != 1024; }));
        QCOMPARE(cli({"problem", "check", out}).exitCode, 0);
    }

    // A model that runs only on its file's image size and channels: nothing
    // smaller runs with every size changed, so each size alone is tried from
    // the file's own values, and a batch of 1 runs.
    void aBatchOfOneWhenNothingElseShrinks() {
        const QString out = dir_.filePath("fixed_image");
        const auto [run, problem] = importFixture("fixed_image.py", out);
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QVERIFY2(!run.out.contains("no smaller shape ran"), qPrintable(run.out));
        const auto shapes = QString::fromStdString(problem["shapes"]["check"].dump());
        QVERIFY2(!anyCheckShape(problem, [](const json& s) { return s["input_channels"] != 3 || s["height"] != 32; }),
                 qPrintable(shapes));
        QVERIFY2(anyCheckShape(problem, [](const json& s) { return s["batch_size"] == 1; }), qPrintable(shapes));
    }

    // The last assignment of a size wins, unpacking included.
    void theLastAssignmentOfASizeWins() {
        const QString out = dir_.filePath("reassigned");
        const auto [run, problem] = importFixture("reassigned_sizes.py", out);
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        const auto& time = problem["shapes"]["time"][0]["sizes"];
        QCOMPARE(time["height"].get<int>(), 12);
        QCOMPARE(time["width"].get<int>(), 12);
        // input and output, then BatchNorm's weight, bias, running mean and variance, and its int64 step count
        QCOMPARE(problem["bytes"].get<std::string>(), std::to_string(2 * 4 * 8 * 12 * 12 * 4 + 4 * 8 * 4 + 8));
    }

    // A forward that draws random numbers cannot be checked against itself:
    // refused, saying where to draw them instead; --allow-random imports it
    // (each compared call then starts from one generator state), and the
    // draws are never forbidden.
    void randomDrawsInTheForwardAreRefusedUnlessAllowed() {
        const auto refused = cli({"problem", "import", file("random_in_forward.py"), "--out", dir_.filePath("random-refused")});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("Model.forward draws random numbers (torch.randn)") &&
                     refused.err.contains("--allow-random"),
                 qPrintable(refused.err));
        QVERIFY(!QFile::exists(dir_.filePath("random-refused") + "/problem.json"));
        const QString out = dir_.filePath("random");
        const auto [run, problem] = importFixture("random_in_forward.py", out, {"--allow-random", "--forbid-reference-ops"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QVERIFY(!has(problem["forbidden"], "torch.randn"));
        QVERIFY(has(problem["forbidden"], "torch.tanh"));
        QVERIFY2(run.out.contains("draws random numbers in its forward (torch.randn)"), qPrintable(run.out));
    }

    // A sum whose order is not fixed (index_add_): the tolerance covers the
    // reference's own deviation (float64, two runs) at the time shape, far
    // below the answers' size, and says how it was set.
    void toleranceFromTheReferencesOwnSpread() {
        const QString out = dir_.filePath("scatter");
        const auto [run, p] = importFixture("scatter_sum.py", out);
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        const double atol = p["tolerance"]["f32"]["atol"].get<double>();
        QVERIFY2(atol > 1e-5 && atol < 1e-2,
                 qPrintable(QString::number(atol))); // wider than f32's default, far below sums of ~26
        QVERIFY2(run.out.contains("tolerance      f32 atol") && run.out.contains("the reference's own deviation"),
                 qPrintable(run.out));
        QVERIFY(p["imported"]["tolerance_basis"].get<std::string>().find("at shape file") != std::string::npos);
    }

    void filesThatAreNotImportable_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("message");
        QTest::newRow("raises") << "raises.py"
                                << "the reference (Model.forward) raised ValueError: this reference is broken";
        QTest::newRow("syntax") << "syntax_error.py"
                                << "syntax_error.py:3: not valid Python";
        QTest::newRow("no get_init_inputs") << "no_init_inputs.py"
                                            << "defines no get_init_inputs";
        QTest::newRow("inputs fail") << "inputs_fail.py"
                                     << "get_inputs() raised NameError";
        QTest::newRow("needs a package") << "needs_a_package.py"
                                         << "install the package 'kw_no_such_package' for";
        QTest::newRow("missing file") << "nothing_here.py"
                                      << "no such file";
    }
    void filesThatAreNotImportable() {
        QFETCH(QString, name);
        QFETCH(QString, message);
        const QString out = dir_.filePath("bad-" + name);
        const auto run = cli({"problem", "import", file(name.toUtf8().constData()), "--out", out});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
        QVERIFY(!QFile::exists(out + "/problem.json"));
    }

    void nothingIsOverwritten() {
        const QString out = dir_.filePath("twice");
        QCOMPARE(cli({"problem", "import", file("expressions.py"), "--out", out}).exitCode, 0);
        const auto again = cli({"problem", "import", file("mixed_inputs.py"), "--out", out});
        QCOMPARE(again.exitCode, 1);
        QVERIFY2(again.err.contains("exists: import into a new folder"), qPrintable(again.err));
        QCOMPARE(readJson(out + "/problem.json")["name"].get<std::string>(), std::string("expressions"));
    }

    void aFolderImportsAsASuite() {
        const QString out = dir_.filePath("suite");
        const auto run = cli({"problem", "import", QString::fromUtf8(std::getenv("KW_TEST_DATA_DIR")) + "/import", "--out", out});
        QCOMPARE(run.exitCode, 1); // some files are not importable, on purpose
        const auto suite = readJson(out + "/suite.json");
        QCOMPARE(suite["name"].get<std::string>(), std::string("import"));
        QCOMPARE(suite["problems"], json({"bound_sizes", "expressions", "fixed_image", "jagged_helper", "mixed_inputs",
                                          "reassigned_sizes", "scatter_sum", "shape_tuples"}));
        QCOMPARE(suite["not_imported"].size(), std::size_t{6}); // random_in_forward among them: no --allow-random
        for (const auto& f : suite["not_imported"]) QVERIFY(!f["error"].get<std::string>().empty());
        QVERIFY2(run.out.contains("suite import: 8 of 14 files imported"), qPrintable(run.out));
        QCOMPARE(cli({"problem", "check", out + "/mixed_inputs"}).exitCode, 0);

        // Again into the same folder (as after a stopped import): what was
        // imported from unchanged files is kept, the rest is tried again.
        const QString before = QString::fromStdString(readJson(out + "/expressions/problem.json").dump());
        const auto again =
            cli({"problem", "import", QString::fromUtf8(std::getenv("KW_TEST_DATA_DIR")) + "/import", "--out", out});
        QCOMPARE(again.exitCode, 1);
        QCOMPARE(again.out.count("imported before, from the same file: kept"), 8);
        QVERIFY2(again.out.contains("suite import: 8 of 14 files imported"), qPrintable(again.out));
        QCOMPARE(readJson(out + "/suite.json"), suite);
        QCOMPARE(QString::fromStdString(readJson(out + "/expressions/problem.json").dump()), before);
        // A problem whose file changed since is not the file's import any more.
        QFile ref(out + "/expressions/reference.py");
        QVERIFY(ref.open(QIODevice::Append));
        ref.write("# edited\n");
        ref.close();
        const auto changed =
            cli({"problem", "import", QString::fromUtf8(std::getenv("KW_TEST_DATA_DIR")) + "/import", "--out", out});
        QCOMPARE(changed.out.count("imported before, from the same file: kept"), 7);
        QVERIFY2(changed.err.contains("expressions/problem.json exists"), qPrintable(changed.err));
    }

  private:
    QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(TestProblemImport)
#include "tst_problem_import.moc"
