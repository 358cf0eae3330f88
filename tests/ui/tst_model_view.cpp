// The Model tab: a pipeline folder (model.json, the search run, apply.json,
// ab.json, written here as the CLI's steps write them) shown as the regions
// table, the before/after bars and the A/B table; a folder whose later
// steps have not run shows what there is and says what to run; a region's
// row opens its search. The tab is saved as a picture into
// KW_SCREENSHOT_DIR.
#include "charts/model_regions_plot.h"
#include "widgets/model_view.h"

#include <QtCore/QTemporaryDir>
#include <QtTest/QSignalSpy>
#include <QtTest/QtTest>
#include <QtWidgets/QLabel>
#include <QtWidgets/QTableWidget>

#include <fstream>

using namespace kw;

namespace {

void write(const QString& file, const char* text) {
    std::ofstream(file.toStdString()) << text;
}

const char* kModel = R"({"ok": true, "model_name": "ranker", "device": "cpu", "step_s": 0.341, "regions": [
  {"name": "conv", "kind": "CausalDwConvSilu", "share": 0.44, "time_s": 0.15, "problem": "ranker_conv", "matched": "dwconv1d_silu"},
  {"name": "attend", "kind": "AttentionPool", "share": 0.15, "time_s": 0.05, "problem": "ranker_attend"},
  {"name": "buckets", "kind": "FeatureBuckets", "share": 0.13, "time_s": 0.045, "problem": "ranker_buckets", "matched": "mbdt"},
  {"name": "odd", "kind": "Odd", "share": 0.02, "time_s": 0.007, "skipped": "its problem did not import: no tensor inputs"}]})";

const char* kRun = R"({"problem": "ranker_conv", "status": "ok", "speedup": 9.7, "wall_s": 30, "search_id": 3}
{"problem": "ranker_attend", "status": "no_correct_kernel", "message": "no CUDA device", "wall_s": 2, "search_id": 1}
{"problem": "ranker_buckets", "status": "ok", "speedup": 10.3, "wall_s": 20, "search_id": 2}
)";

const char* kApply = R"({"regions": [
  {"region": "conv", "problem": "ranker_conv", "search": 3, "node": 7, "kernel_speedup": 9.7, "swapped": true, "ok": true, "why": ""},
  {"region": "attend", "problem": "ranker_attend", "search": 1, "swapped": false, "ok": false, "why": "its search found no correct kernel"},
  {"region": "buckets", "problem": "ranker_buckets", "search": 2, "node": 4, "kernel_speedup": 10.3, "swapped": true, "ok": true, "why": ""}],
 "model_ok": true, "tolerance": 0.0001})";

const char* kAb = R"({"ok": true, "device": "cpu", "rounds": 15, "steps_per_round": 1, "variants": [
  {"variant": "eager", "median_s": 0.341, "speedup": 1.0, "interval": [1.0, 1.0], "over": "eager"},
  {"variant": "swapped", "median_s": 0.200, "speedup": 1.66, "interval": [1.59, 1.71], "over": "eager"},
  {"variant": "only conv", "median_s": 0.247, "speedup": 1.36, "interval": [1.34, 1.38], "over": "eager"},
  {"variant": "only buckets", "median_s": 0.302, "speedup": 1.15, "interval": [1.11, 1.16], "over": "eager"}],
 "regions": [{"name": "conv", "before_s": 0.168, "after_s": 0.081}, {"name": "attend", "before_s": 0.022, "after_s": 0.022},
             {"name": "buckets", "before_s": 0.052, "after_s": 0.006}], "notes": []})";

QString cell(QTableWidget* t, int row, int column) {
    return t->item(row, column) ? t->item(row, column)->text() : QString();
}

} // namespace

class TestModelView : public QObject {
    Q_OBJECT
  private slots:
    void aFolderWithEveryStep() {
        QTemporaryDir dir;
        write(dir.filePath("model.json"), kModel);
        write(dir.filePath("suite-run-search.jsonl"), kRun);
        write(dir.filePath("apply.json"), kApply);
        write(dir.filePath("ab.json"), kAb);
        auto folder = model::readModelFolder(dir.path().toStdString());
        QVERIFY2(folder, folder ? "" : folder.error().message.c_str());
        ui::ModelView view(std::move(*folder));
        view.resize(1200, 760);
        auto* regions = view.regionsTable();
        QCOMPARE(regions->rowCount(), 4);
        QCOMPARE(cell(regions, 0, 0), QStringLiteral("conv"));
        QVERIFY(cell(regions, 0, 4).contains("dwconv1d_silu (by behaviour)"));
        QVERIFY(cell(regions, 0, 5).contains("9.70x alone"));
        QCOMPARE(cell(regions, 0, 6), QStringLiteral("swapped, output checked"));
        QCOMPARE(cell(regions, 1, 4), QStringLiteral("its own problem"));
        QCOMPARE(cell(regions, 1, 6), QStringLiteral("kept"));
        QCOMPARE(cell(regions, 3, 3), QStringLiteral("-"));
        QCOMPARE(cell(regions, 3, 4), QStringLiteral("skipped"));
        QVERIFY(view.summary().contains("2 matched to bundled problems by behaviour, 2 swapped"));
        QVERIFY2(view.summary().contains("1.66x") && view.summary().contains("1.59-1.71"), qPrintable(view.summary()));
        QCOMPARE(view.abTable()->rowCount(), 4);
        QCOMPARE(cell(view.abTable(), 1, 0), QStringLiteral("swapped"));
        QCOMPARE(cell(view.abTable(), 1, 3), QStringLiteral("1.590-1.710"));
        QCOMPARE(view.plot()->regionsDrawn(), 3);
        QVERIFY(view.plot()->afterDrawn());

        // A region's row opens its search; a skipped one has none to open.
        QSignalSpy opened(&view, &ui::ModelView::problemActivated);
        emit regions->cellActivated(2, 0);
        QCOMPARE(opened.count(), 1);
        QCOMPARE(opened.at(0).at(0).toString(), QStringLiteral("ranker_buckets"));
        QCOMPARE(opened.at(0).at(1).toLongLong(), 2);
        emit regions->cellActivated(3, 0);
        QCOMPARE(opened.count(), 1);

        if (const char* shots = std::getenv("KW_SCREENSHOT_DIR")) {
            view.show();
            QVERIFY(QTest::qWaitForWindowExposed(&view));
            QVERIFY(view.grab().save(QString::fromUtf8(shots) + "/model-tab.png"));
        }
    }

    void aFolderJustExtractedSaysWhatToRun() {
        QTemporaryDir dir;
        write(dir.filePath("model.json"), kModel);
        auto folder = model::readModelFolder(dir.path().toStdString());
        QVERIFY(folder);
        ui::ModelView view(std::move(*folder));
        QCOMPARE(view.regionsTable()->rowCount(), 4);
        QCOMPARE(cell(view.regionsTable(), 0, 5), QStringLiteral("not searched"));
        QCOMPARE(cell(view.regionsTable(), 0, 6), QStringLiteral("not applied"));
        QVERIFY2(view.summary().contains("Not timed A/B yet (kernelwright-cli model ab"), qPrintable(view.summary()));
        QCOMPARE(view.abTable()->rowCount(), 0);
        QCOMPARE(view.plot()->regionsDrawn(), 4); // the profile's times
        QVERIFY(!view.plot()->afterDrawn());

        // The steps run from the CLI meanwhile: Reload shows them.
        write(dir.filePath("ab.json"), kAb);
        view.reload();
        QCOMPARE(view.abTable()->rowCount(), 4);
        QVERIFY(view.plot()->afterDrawn());

        // A torn file reads as a step not run, not as an error for the rest.
        write(dir.filePath("ab.json"), "{\"variants\": [");
        view.reload();
        QCOMPARE(view.abTable()->rowCount(), 0);
        QCOMPARE(view.regionsTable()->rowCount(), 4);
    }

    void notAPipelineFolderIsTold() {
        QTemporaryDir dir;
        auto folder = model::readModelFolder(dir.path().toStdString());
        QVERIFY(!folder);
        QVERIFY2(folder.error().message.find("model extract") != std::string::npos, folder.error().message.c_str());
    }
};

QTEST_MAIN(TestModelView)
#include "tst_model_view.moc"
