#include "eval/evaluation_result.h"
#include "util/format.h"

#include <QtTest/QtTest>

#include <cmath>

using namespace kw::eval;

class TestEvaluationResult : public QObject {
    Q_OBJECT
  private slots:
    // Kernel times keep three digits and never turn into e-notation; a
    // suite's or a search's ETA reads as minutes and hours.
    void secondsAndDurationsReadAsPeopleSayThem() {
        QCOMPARE(kw::formatSeconds(90.2e-6), std::string("90.2 us"));
        QCOMPARE(kw::formatSeconds(1.5e-3), std::string("1.5 ms"));
        QCOMPARE(kw::formatSeconds(12.34), std::string("12.3 s"));
        QCOMPARE(kw::formatSeconds(1012.0), std::string("1012 s"));
        QCOMPARE(kw::formatDuration(44.6), std::string("45 s"));
        QCOMPARE(kw::formatDuration(200.0), std::string("3 min 20 s"));
        QCOMPARE(kw::formatDuration(1010.0), std::string("17 min"));
        QCOMPARE(kw::formatDuration(3599.6), std::string("1 h 00 min"));
        QCOMPARE(kw::formatDuration(7500.0), std::string("2 h 05 min"));
        QCOMPARE(kw::formatDuration(-1.0), std::string("-"));
        QCOMPARE(kw::formatDuration(std::nan("")), std::string("-"));
    }
    void parsesHarnessOutput() {
        const char* text = R"({"schema":1,"status":"wrong_answer","message":"m","speedup":null,"implausible_speedup":false,
          "build_log":"","checks":[{"shape":"one","sizes":{"N":1},"seed":2,"output":"y","passed":false,"kind":"mismatch",
          "elements":1,"mismatches":1,"unwritten":0,"nondeterministic":0,"max_abs_error":"nan","max_rel_error":0.5,
          "first_mismatch":{"index":0,"expected":1.5,"actual":"inf"}}],
          "timing":[{"shape":"t","sizes":{"N":8},"bytes":96,"flops":16,"warmup":2,"reps":10,"speedup":1.5,"batch":8,
          "speedup_interval":[1.25,1.75],"reps_planned":7,"device_room_bytes":17179869184,"empty_call_seconds":4.5e-4,"call_parts":{"candidate":{"answer":2e-3,"runner_told":[1,2,3,4,5,6]}},
          "candidate":{"name":"candidate","median":1e-3,"p10":9e-4,"p90":2e-3,"mean":1e-3,"cv":0.1,"min":8e-4,"max":3e-3,"samples":[1e-3]},
          "baselines":[{"name":"reference","median":1.5e-3,"samples":[]}]}],"phase_seconds":{"check":0.1},"env":{"host":"h"}})";
        auto r = parseResultJson(text);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(r->status, EvalStatus::WrongAnswer);
        QVERIFY(!r->speedup);
        QCOMPARE(r->checks.size(), std::size_t{1});
        QVERIFY(std::isnan(r->checks[0].maxAbsError));
        QVERIFY(std::isinf(r->checks[0].firstActual));
        QCOMPARE(*r->checks[0].firstIndex, 0LL);
        QCOMPARE(r->timing[0].baselines[0].median, 1.5e-3);
        // Round trip keeps what matters.
        auto again = parseResultJson(toJson(*r).dump());
        QVERIFY(again.ok());
        QCOMPARE(again->checks[0].kind, std::string("mismatch"));
        QCOMPARE(again->timing[0].speedup, 1.5);
        QVERIFY(std::isnan(again->checks[0].maxAbsError));
        // The judge's account of its clock is carried as written (the workspace keeps it).
        QCOMPARE(again->timing[0].clock["batch"].get<int>(), 8);
        QCOMPARE(again->timing[0].clock["empty_call_seconds"].get<double>(), 4.5e-4);
        QCOMPARE(again->timing[0].clock["call_parts"]["candidate"]["runner_told"][5].get<int>(), 6);
        QVERIFY(!again->timing[0].clock.contains("shape"));
        QCOMPARE(again->timing[0].clock["reps_planned"].get<int>(), 7);
        QCOMPARE(again->timing[0].clock["device_room_bytes"].get<std::int64_t>(), std::int64_t{17179869184});
        // The speedup's interval where the judge gives one; none read as {0, 0} and are not written.
        QCOMPARE(again->timing[0].speedupInterval, (std::pair<double, double>{1.25, 1.75}));
        auto without = *again;
        without.timing[0].speedupInterval = {0, 0};
        QVERIFY(!toJson(without)["timing"][0].contains("speedup_interval"));
        QCOMPARE(parseResultJson(toJson(without).dump())->timing[0].speedupInterval, (std::pair<double, double>{0, 0}));
    }
    // The speedup over the best baseline takes, per shape, the fastest
    // baseline: a candidate that is only torch.compile scores about 1 there
    // even when it beats the eager reference.
    void speedupOverTheBestBaseline() {
        const std::string text = R"({"status":"ok","speedup":2.0,"timing":[
          {"shape":"a","speedup":2.0,"speedups":{"reference":2.0,"torch.compile":1.02},
           "candidate":{"name":"candidate","median":1e-3},
           "baselines":[{"name":"reference","median":2e-3},{"name":"torch.compile","median":1.1e-3}]},
          {"shape":"b","speedup":2.0,
           "candidate":{"name":"candidate","median":1e-3},
           "baselines":[{"name":"reference","median":2e-3},{"name":"torch.compile","median":0.98e-3}]}]})";
        auto r = parseResultJson(text);
        QVERIFY(r.ok());
        // Paired ratios where the judge gives them, medians otherwise.
        QCOMPARE(r->timing[0].speedupOver("torch.compile"), 1.02);
        QVERIFY(std::abs(r->timing[1].speedupOver("torch.compile") - 0.98) < 1e-9);
        QCOMPARE(r->timing[1].speedupOver("reference"), 2.0);
        const auto best = r->speedupOverBestBaseline();
        QVERIFY(best.has_value());
        QVERIFY(std::abs(*best - std::sqrt(1.02 * 0.98)) < 1e-9);
        QCOMPARE(r->bestBaselineName(), std::string("torch.compile"));
        // It survives the round trip through the store's JSON.
        auto again = parseResultJson(toJson(*r).dump());
        QVERIFY(again.ok());
        QVERIFY(std::abs(*again->speedupOverBestBaseline() - *best) < 1e-12);
        QVERIFY(!parseResultJson(R"({"status":"ok"})")->speedupOverBestBaseline());
    }
    void rejectsMalformedResults() {
        QVERIFY(!parseResultJson("").ok());
        QVERIFY(!parseResultJson("{\"status\": \"great\"}").ok());
        QVERIFY(!parseResultJson("[1,2]").ok());
        QVERIFY(!parseResultJson("{\"status\":\"ok\",\"checks\":[{\"seed\":\"x\"}]}").ok());
    }
    void statusNamesRoundTrip() {
        for (auto s : {EvalStatus::Ok, EvalStatus::CompileError, EvalStatus::RuntimeError, EvalStatus::Timeout,
                       EvalStatus::WrongAnswer, EvalStatus::Oom, EvalStatus::SandboxViolation, EvalStatus::InfraError})
            QCOMPARE(*parseStatus(statusName(s)), s);
        QVERIFY(!parseStatus("fine"));
    }
};

QTEST_APPLESS_MAIN(TestEvaluationResult)
#include "tst_evaluation_result.moc"
