// A model's pipeline folder as HTML (report/model_report): the regions with
// their problems, searches and checks, each region before and after as
// inline SVG, the A/B table; names are escaped; a folder whose A/B has not
// run says what to run.
#include "report/model_report.h"

#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <fstream>

using namespace kw;

namespace {
void write(const QString& file, const char* text) {
    std::ofstream(file.toStdString()) << text;
}

int count(const std::string& text, const std::string& what) {
    int n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}
} // namespace

class TestModelReport : public QObject {
    Q_OBJECT
  private slots:
    void everyStepOfTheFolder() {
        QTemporaryDir dir;
        write(dir.filePath("model.json"), R"({"model_name": "ranker", "device": "cuda", "step_s": 0.0115, "regions": [
          {"name": "buckets", "kind": "FeatureBuckets", "share": 0.76, "time_s": 0.008, "problem": "ranker_buckets", "matched": "gpu_mbdt"},
          {"name": "<b>attend", "kind": "AttentionPool", "share": 0.05, "time_s": 0.0005, "problem": "ranker_attend"}]})");
        write(dir.filePath("suite-run-search.jsonl"),
              "{\"problem\": \"ranker_buckets\", \"status\": \"ok\", \"speedup\": 1.53, \"search_id\": 1}\n");
        write(dir.filePath("apply.json"), R"({"regions": [{"region": "buckets", "problem": "ranker_buckets", "search": 1,
          "kernel_speedup": 1.53, "swapped": true, "ok": true}], "model_ok": true, "tolerance": 1e-4})");
        write(dir.filePath("ab.json"), R"({"device": "cuda", "rounds": 10, "steps_per_round": 28, "variants": [
          {"variant": "eager", "median_s": 0.0077, "speedup": 1.0, "interval": [1, 1], "over": "eager"},
          {"variant": "swapped", "median_s": 0.0031, "speedup": 2.48, "interval": [2.4, 2.6], "over": "eager"},
          {"variant": "swapped vs compile", "median_s": 0.0031, "speedup": 1.37, "interval": [1.3, 1.45], "over": "compile"},
          {"variant": "only attend", "median_s": 0.0079, "speedup": 0.97, "interval": [0.95, 0.98], "over": "eager",
           "kernel_speedup": 1.4, "slower_in_model": true}],
          "regions": [{"name": "buckets", "before_s": 0.005, "after_s": 0.0004}, {"name": "<b>attend", "before_s": 0.0005, "after_s": 0.0005}]})");
        auto folder = model::readModelFolder(dir.path().toStdString());
        QVERIFY(folder);
        const auto html = report::modelReportHtml(*folder);
        QVERIFY(html.rfind("<!DOCTYPE html>", 0) == 0);
        QVERIFY(html.find("end to end over eager: 2.48x") != std::string::npos);
        QVERIFY(html.find("end to end over torch.compile: 1.37x") != std::string::npos);
        QVERIFY(html.find("gpu_mbdt (by behaviour)") != std::string::npos);
        QVERIFY(html.find("1 · 1.53x alone") != std::string::npos);
        QVERIFY(html.find("swapped, output checked") != std::string::npos);
        QVERIFY(html.find("&lt;b&gt;attend") != std::string::npos);
        QVERIFY(html.find("<b>attend") == std::string::npos);
        QCOMPARE(count(html, "<rect "), 4); // two regions, before and after
        QVERIFY(html.find("<script") == std::string::npos);
        // Faster alone, slower in the model: flagged where the A/B shows it.
        QVERIFY(html.find("<b>slower in the model</b>, though 1.40x alone") != std::string::npos);
    }

    void aFolderNotTimedYetSaysSo() {
        QTemporaryDir dir;
        write(dir.filePath("model.json"), R"({"model_name": "m", "device": "cpu", "step_s": 0.1, "regions": [
          {"name": "norm", "kind": "LayerNorm", "share": 0.5, "time_s": 0.05, "problem": "m_norm", "matched": "layernorm"}]})");
        auto folder = model::readModelFolder(dir.path().toStdString());
        QVERIFY(folder);
        const auto html = report::modelSectionHtml(*folder);
        QVERIFY(html.find("not timed A/B yet (kernelwright-cli model ab") != std::string::npos);
        QVERIFY(html.find("not applied") != std::string::npos);
        QCOMPARE(count(html, "<rect "), 1); // the profile's time only
    }
};

QTEST_GUILESS_MAIN(TestModelReport)
#include "tst_model_report.moc"
