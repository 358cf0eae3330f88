// A search's node exported as one file that runs outside Kernelwright: a torch
// candidate's tunable params replace its import of kw_params, and the
// harness's launcher (kw_launch), which a candidate may import, goes inline.
// The file must still parse as Python.
#include "report/standalone_kernel.h"
#include "store/database.h"
#include "store/search_store.h"
#include "store_records.h"

#include <QtCore/QProcess>
#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

using namespace kw;

class TestStandaloneKernel : public QObject {
    Q_OBJECT
  private slots:
    void aTorchNodeCarriesItsParamsAndTheLauncher() {
        QTemporaryDir dir;
        auto db = store::Database::open(dir.path().toStdString() + "/ws.db");
        QVERIFY(db.ok());
        store::SearchStore s(*db);
        auto search = test::searchRecord("gpu_copy", "finished", "/problems/gpu_copy");
        auto id = s.createSearch(search);
        QVERIFY(id.ok());
        search.id = *id;
        const std::string source = "# @kw-param BLOCK: 64 | 128 = 64\n"
                                   "import torch\n"
                                   "from kw_params import BLOCK\n"
                                   "from kw_launch import launcher\n"
                                   "\n"
                                   "class ModelNew(torch.nn.Module):\n"
                                   "    def forward(self, x):\n"
                                   "        return x.clone() if BLOCK and launcher else x\n";
        QVERIFY(s.putSource("h1", source).ok());
        store::NodeRecord n;
        n.searchId = search.id;
        n.origin = "seed";
        n.sourceName = "triton";
        n.sourceHash = "h1";
        n.paramsJson = R"({"BLOCK": "128"})";
        n.state = "done";
        auto node = s.insertNode(n);
        QVERIFY(node.ok());

        auto text = report::standaloneKernel(*db, search.id, *node);
        QVERIFY2(text.ok(), text.ok() ? "" : text.error().message.c_str());
        const QString t = QString::fromStdString(*text);
        QVERIFY2(t.contains("BLOCK = 128\n"), qPrintable(t));
        // No import of either is left (the launcher's docstring shows one, indented).
        QVERIFY2(!t.contains(QRegularExpression("^from kw_(params|launch) import", QRegularExpression::MultilineOption)),
                 qPrintable(t));
        QVERIFY2(t.contains("class launcher"), qPrintable(t));
        QVERIFY(t.indexOf("class launcher") < t.indexOf("class ModelNew"));

        QProcess python;
        python.start(QStringLiteral("python3"), {"-c", "import ast, sys; ast.parse(sys.stdin.read())"});
        python.write(text->data(), static_cast<qint64>(text->size()));
        python.closeWriteChannel();
        QVERIFY2(python.waitForFinished(30000), "python3 is missing: packaging/bootstrap.sh installs it");
        QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
    }
};

QTEST_GUILESS_MAIN(TestStandaloneKernel)
#include "tst_standalone_kernel.moc"
