// Profiling without running kernels: ncu CSV (captured on an H100), cachegrind
// and counter reports, roofline metrics, the diagnosis rules, the machine
// model's JSON, the profiles table, and the diagnosis in the LLM prompt.
#include "test_support.h"

#include "eval/plausibility.h"
#include "machine/machine_model.h"
#include "profile/profile_report.h"
#include "store/database.h"
#include "store/profile_store.h"
#include "synth/llm/prompt_builder.h"
#include "tree/tree_types.h"
#include "util/files.h"

#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <algorithm>

using namespace kw;
using namespace kw::profile;
using namespace kw::machine;

namespace {

std::string fixture(const std::string& rel) {
    auto t = readTextFile(test::dataDir() / rel);
    return t ? *t : std::string();
}

const NcuKernel* kernelNamed(const std::vector<NcuKernel>& ks, const std::string& prefix) {
    for (const auto& k : ks)
        if (k.name.rfind(prefix, 0) == 0) return &k;
    return nullptr;
}

std::vector<std::string> names(const std::vector<Signal>& s) {
    std::vector<std::string> n;
    for (const auto& x : s) n.push_back(x.name);
    return n;
}

bool has(const std::vector<Signal>& s, const std::string& name) {
    return std::any_of(s.begin(), s.end(), [&](const Signal& x) { return x.name == name; });
}

// The diagnosis of one ncu launch on its own.
std::vector<Signal> diagnoseOne(const NcuKernel& k) {
    std::vector<NcuKernel> one{k};
    DiagnosisInput in;
    in.ncu = &one;
    return diagnose(in);
}

// One timing shape of `seconds` moving `bytes` and doing `flops`.
eval::EvaluationResult timed(double seconds, double bytes, double flops) {
    eval::EvaluationResult r;
    r.status = eval::EvalStatus::Ok;
    eval::TimingCase t;
    t.shape = "large";
    t.bytes = bytes;
    t.flops = flops;
    t.candidate.median = seconds;
    r.timing.push_back(t);
    return r;
}

Roofs roofs() {
    return {50.0, 300.0, 1, "cpu"};
} // ridge 6 flop/B

std::vector<Signal> diagnoseTiming(double seconds, double bytes, double flops) {
    ProfileRequest req;
    req.roofs = roofs();
    return buildProfile(timed(seconds, bytes, flops), req).diagnosis;
}

} // namespace

class TestProfile : public QObject {
    Q_OBJECT
  private slots:
    void ncuRawPage() {
        auto ks = parseNcuCsv(fixture("ncu/ncu_raw.csv"));
        QVERIFY2(ks, ks ? "" : ks.error().message.c_str());
        QCOMPARE(ks->size(), std::size_t(3));
        const auto* copy = kernelNamed(*ks, "streamCopy");
        const auto* fma = kernelNamed(*ks, "fmaLoop");
        const auto* tiny = kernelNamed(*ks, "tinyScale");
        QVERIFY(copy && fma && tiny);
        QCOMPARE(copy->dramPct, 84.99);
        QCOMPARE(copy->durationNs, 747648.0);
        QCOMPARE(fma->smPct, 93.72);
        QCOMPARE(tiny->durationNs, 2720.0);
        QCOMPARE(tiny->achievedOccupancyPct, 2.83);
        QCOMPARE(copy->gridSize, 1056.0);
        QCOMPARE(copy->registersPerThread, 16.0);
        QVERIFY(!copy->stalls.empty());
        QCOMPARE(copy->stalls.front().first, std::string("long_scoreboard"));
        QCOMPARE(copy->stalls.front().second, 330.0);
        for (const auto& s : fma->stalls) QVERIFY(s.first != "selected");
    }

    void ncuDetailsPage() {
        auto ks = parseNcuCsv(fixture("ncu/ncu_details.csv"));
        QVERIFY2(ks, ks ? "" : ks.error().message.c_str());
        QCOMPARE(ks->size(), std::size_t(3));
        const auto* copy = kernelNamed(*ks, "streamCopy");
        const auto* tiny = kernelNamed(*ks, "tinyScale");
        QVERIFY(copy && tiny);
        QCOMPARE(copy->dramPct, 85.55);
        QCOMPARE(copy->durationNs, 742688.0);
        QCOMPARE(copy->achievedOccupancyPct, 96.73);
        QCOMPARE(tiny->gridSize, 1.0);
        QCOMPARE(tiny->achievedOccupancyPct, 3.12);
    }

    void ncuDiagnosis() {
        auto ks = parseNcuCsv(fixture("ncu/ncu_raw.csv"));
        QVERIFY(ks);
        const auto copy = diagnoseOne(*kernelNamed(*ks, "streamCopy"));
        QVERIFY(has(copy, "memory_bound"));
        QVERIFY(!has(copy, "compute_bound"));
        QVERIFY2(copy.front().evidence.find("85%") != std::string::npos, copy.front().evidence.c_str());
        const auto fma = diagnoseOne(*kernelNamed(*ks, "fmaLoop"));
        QVERIFY(has(fma, "compute_bound"));
        QVERIFY(has(fma, "near_roofline"));
        QVERIFY(!has(fma, "memory_bound"));
        const auto tiny = diagnoseOne(*kernelNamed(*ks, "tinyScale"));
        QVERIFY(has(tiny, "low_occupancy"));
        QVERIFY(has(tiny, "launch_overhead"));
        QVERIFY(!has(tiny, "memory_bound"));
    }

    // Access-quality metrics (the raw page's l1tex counters and waves per SM):
    // a synthetic capture with one kernel of each kind, until an H100 capture
    // of tests/gpu/ncu_fixture.cu holds them too.
    void ncuAccessQualitySignals() {
        const std::string csv =
            "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__throughput.avg.pct_of_peak_sustained_elapsed\","
            "\"sm__throughput.avg.pct_of_peak_sustained_elapsed\",\"launch__registers_per_thread\","
            "\"launch__waves_per_multiprocessor\",\"l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum\","
            "\"l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum\",\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum\","
            "\"l1tex__data_pipe_lsu_wavefronts_mem_shared.sum\",\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\","
            "\"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\"\n"
            "\"\",\"\",\"us\",\"%\",\"%\",\"register/thread\",\"\",\"byte\",\"byte\",\"\",\"\",\"sector\",\"\"\n"
            "\"0\",\"spills(float*)\",\"120\",\"30\",\"35\",\"255\",\"8\",\"1048576\",\"524288\",\"0\",\"0\",\"4000\",\"1000\"\n"
            "\"1\",\"transpose(float*)\",\"80\",\"45\",\"50\",\"32\",\"6\",\"0\",\"0\",\"31000\",\"33000\",\"4000\",\"1000\"\n"
            "\"2\",\"gather(float*)\",\"200\",\"70\",\"20\",\"24\",\"10\",\"0\",\"0\",\"0\",\"0\",\"32000\",\"1000\"\n"
            "\"3\",\"fewBlocks(float*)\",\"60\",\"10\",\"12\",\"32\",\"0.4\",\"0\",\"0\",\"0\",\"0\",\"4000\",\"1000\"\n"
            "\"4\",\"lastWave(float*)\",\"60\",\"50\",\"40\",\"32\",\"1.2\",\"0\",\"0\",\"0\",\"0\",\"4000\",\"1000\"\n";
        auto ks = parseNcuCsv(csv);
        QVERIFY2(ks, ks ? "" : ks.error().message.c_str());
        QCOMPARE(ks->size(), std::size_t(5));
        QCOMPARE((*ks)[0].localBytes, 1572864.0);
        QCOMPARE((*ks)[2].globalSectorsPerRequest, 32.0);
        const auto spills = diagnoseOne((*ks)[0]);
        QVERIFY(has(spills, "register_spills") && !has(spills, "uncoalesced") && !has(spills, "bank_conflicts"));
        const auto transpose = diagnoseOne((*ks)[1]);
        QVERIFY(has(transpose, "bank_conflicts") && !has(transpose, "register_spills"));
        const auto gather = diagnoseOne((*ks)[2]);
        QVERIFY(has(gather, "uncoalesced") && has(gather, "memory_bound"));
        QVERIFY(!has(gather, "tail_effect"));
        const auto few = diagnoseOne((*ks)[3]);
        QVERIFY(has(few, "tail_effect"));
        const auto last = diagnoseOne((*ks)[4]);
        QVERIFY(has(last, "tail_effect"));
        // The H100 capture (no such counters) raises none of them.
        auto captured = parseNcuCsv(fixture("ncu/ncu_raw.csv"));
        QVERIFY(captured);
        for (const auto& k : *captured)
            for (const char* name : {"register_spills", "bank_conflicts", "uncoalesced"}) QVERIFY(!has(diagnoseOne(k), name));
    }

    // Captured by the torch judge's ncu pass on an H100 (ncu 2025.3, its raw page
    // with every device attribute column): the RMSNorm backward and MBDT seeds.
    void ncuJudgeCaptures() {
        auto bwd = parseNcuCsv(fixture("ncu/h100-judge/gpu_rmsnorm_bwd_ncu.csv"));
        QVERIFY2(bwd, bwd ? "" : bwd.error().message.c_str());
        QCOMPARE(bwd->size(), std::size_t(2));
        const auto* dx = kernelNamed(*bwd, "_rms_bwd_dx_kernel");
        const auto* dw = kernelNamed(*bwd, "_dw_reduce_kernel");
        QVERIFY(dx && dw);
        QVERIFY(dx->durationNs > 140e3 && dx->durationNs < 170e3);
        QVERIFY(dx->dramPct > 70 && dx->l2Pct > 0 && dx->l2HitPct >= 0 && dx->l1HitPct >= 0);
        QCOMPARE(dx->occupancyLimiter(), std::string("registers"));
        QCOMPARE(dx->globalSectorsPerRequest, 16.0); // 128-bit loads, contiguous
        QVERIFY(dw->achievedOccupancyPct < 10 && dw->wavesPerSm < 0.1);
        const auto main = diagnoseOne(*dx);
        QVERIFY(has(main, "memory_bound"));
        QVERIFY2(!has(main, "uncoalesced"), "16 sectors per request is a coalesced 128-bit load");
        const auto small = diagnoseOne(*dw);
        QVERIFY(has(small, "low_occupancy") && has(small, "tail_effect") && has(small, "bank_conflicts"));
        for (const auto& sig : small)
            if (sig.name == "low_occupancy")
                QVERIFY2(sig.evidence.find("limited by registers") != std::string::npos, sig.evidence.c_str());

        auto mbdt = parseNcuCsv(fixture("ncu/h100-judge/gpu_mbdt_ncu.csv"));
        QVERIFY2(mbdt, mbdt ? "" : mbdt.error().message.c_str());
        QCOMPARE(mbdt->size(), std::size_t(1));
        const auto both = diagnoseOne(mbdt->front());
        QVERIFY(has(both, "memory_bound") && has(both, "compute_bound") && !has(both, "latency_bound"));
    }

    // The judge's per-kernel breakdown of one call, and what it says.
    void kernelBreakdown() {
        auto one = parseBreakdown(fixture("ncu/h100-judge/gpu_softmax_breakdown.json"));
        QVERIFY2(one, one ? "" : one.error().message.c_str());
        QCOMPARE(one->launches, 1);
        QCOMPARE(one->entries.size(), std::size_t(1));
        QCOMPARE(one->entries[0].name, std::string("_row_softmax_fwd_kernel"));
        QVERIFY(one->deviceUs > 150 && one->deviceUs < 200);
        auto two = parseBreakdown(fixture("ncu/h100-judge/gpu_rmsnorm_bwd_breakdown.json"));
        QVERIFY(two);
        QCOMPARE(two->launches, 2);
        QVERIFY(two->share(two->entries[0]) > 0.9);

        auto diagnoseBreakdown = [](const KernelBreakdown& b, double callSeconds) {
            DiagnosisInput in;
            in.breakdown = &b;
            in.breakdownCallSeconds = callSeconds;
            return diagnose(in);
        };
        // One dominant kernel, timed near its device time: nothing to say.
        QVERIFY(!has(diagnoseBreakdown(*one, 190e-6), "launch_overhead"));
        QVERIFY(!has(diagnoseBreakdown(*two, 170e-6), "launch_overhead"));
        // The same call timed at 4x its device time: launches dominate.
        QVERIFY(has(diagnoseBreakdown(*two, 4 * two->deviceUs * 1e-6), "launch_overhead"));
        // Many small launches (eager code): fuse them.
        KernelBreakdown many;
        many.shape = "prod";
        for (int i = 0; i < 6; ++i) many.entries.push_back({"k" + std::to_string(i), i == 5 ? "copy" : "kernel", 1, 3.0});
        many.launches = 6;
        many.deviceUs = 18;
        const auto fuse = diagnoseBreakdown(many, 0);
        QVERIFY(has(fuse, "launch_overhead"));
        QVERIFY2(fuse[0].evidence.find("6 launches") != std::string::npos &&
                     fuse[0].evidence.find("1 of them copies") != std::string::npos,
                 fuse[0].evidence.c_str());
        // The cuda judge's, from CUPTI in the candidate's runner (an H200): symbols read as C++.
        auto cupti = parseBreakdown(fixture("ncu/h200-judge/cuda_rmsnorm_fwd_breakdown.json"));
        QVERIFY2(cupti, cupti ? "" : cupti.error().message.c_str());
        QCOMPARE(cupti->source, std::string("cupti"));
        QCOMPARE(cupti->launches, 1);
        QCOMPARE(cupti->entries[0].name, std::string("rmsnorm_rows(float const*, float const*, float*, long, float)"));
        auto odd =
            parseBreakdown("{\"kernels\": [{\"name\": \"_Znot a symbol\", \"us\": 1}, {\"name\": \"_Z3fooi\", \"us\": 2}]}");
        QVERIFY(odd);
        QCOMPARE(odd->entries[0].name, std::string("foo(int)"));
        QCOMPARE(odd->entries[1].name, std::string("_Znot a symbol"));
        // Malformed files say what is wrong.
        QVERIFY(!parseBreakdown("not json"));
        QVERIFY(!parseBreakdown("{\"kernels\": [{\"name\": \"k\", \"us\": -1}]}"));
        QVERIFY(!parseBreakdown("{\"kernels\": 3}"));
        // Through buildProfile: the report carries the breakdown and its JSON round-trips.
        auto r = timed(4 * two->deviceUs * 1e-6, 1e6, 1e6);
        r.timing[0].shape = "prod";
        ProfileRequest req;
        req.jobFiles["breakdown.json"] = fixture("ncu/h100-judge/gpu_rmsnorm_bwd_breakdown.json");
        const auto rep = buildProfile(r, req);
        QVERIFY(rep.breakdown);
        QVERIFY(has(rep.diagnosis, "launch_overhead"));
        const auto back = breakdownFromJson(toJson(rep)["breakdown"]);
        QVERIFY(back && back->launches == 2 && back->entries.size() == 2);
        QVERIFY(!rep.provenance); // no source given: nothing to attribute
    }

    // Whose kernels a call ran: the candidate's own (defined in its source)
    // against library kernels, by device time.
    void provenanceByDeviceTime() {
        QCOMPARE(kernelBaseName("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>(int, float)"),
                 std::string("vectorized_elementwise_kernel"));
        QCOMPARE(kernelBaseName("rmsnorm_rows(float const*, float const*, float*, long, float)"), std::string("rmsnorm_rows"));
        QCOMPARE(kernelBaseName("_row_softmax_fwd_kernel"), std::string("_row_softmax_fwd_kernel"));
        QCOMPARE(kernelBaseName("void fused<256>(float*)"), std::string("fused"));
        // The Triton seed of rmsnorm_bwd (H100): both kernels its own.
        const auto seed = *parseBreakdown(fixture("ncu/h100-judge/gpu_rmsnorm_bwd_breakdown.json"));
        const std::string tritonSource =
            "@triton.jit\ndef _rms_bwd_dx_kernel(X, W):\n    pass\n@triton.jit\ndef _dw_reduce_kernel(P):\n    pass\n";
        const auto own = provenanceOf(seed, tritonSource);
        QCOMPARE(own.ownShare(), 1.0);
        QCOMPARE(own.own.size(), std::size_t(2));
        // A library conv with the candidate's fused epilogue: cuDNN and ATen
        // kernels are the library's even when the source names an op alike.
        KernelBreakdown mixed;
        mixed.entries = {
            {"sm90_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nchw", "kernel", 1, 300.0},
            {"fused_bias_relu(float const*, float*, long)", "kernel", 1, 100.0},
            {"void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>(int, float)", "kernel", 1, 10.0},
            {"Memcpy DtoD (Device -> Device)", "copy", 1, 5.0}};
        const std::string cudaSource =
            "__global__ void fused_bias_relu(const float* x, float* y, long n) {}\n// calls F.conv2d, then "
            "vectorized_elementwise_kernel style\n";
        const auto p = provenanceOf(mixed, cudaSource);
        QCOMPARE(p.ownUs, 100.0);
        QCOMPARE(p.libraryUs, 310.0);
        QCOMPARE(p.transferUs, 5.0);
        QVERIFY(std::abs(p.ownShare() - 100.0 / 410.0) < 1e-12);
        QVERIFY2(p.summary().find("own kernels 24.4 %") != std::string::npos &&
                     p.summary().find("fused_bias_relu") != std::string::npos,
                 p.summary().c_str());
        // Stored and read back; buildProfile attributes when it has the source.
        const auto back = provenanceFromJson(toJson(p));
        QVERIFY(back && back->ownUs == 100.0 && back->own == p.own && back->libraries == p.libraries);
        QVERIFY(!provenanceFromJson(nlohmann::json::parse("{\"own_us\": \"x\"}")));
        ProfileRequest req;
        req.jobFiles["breakdown.json"] = fixture("ncu/h100-judge/gpu_rmsnorm_bwd_breakdown.json");
        req.candidateSource = tritonSource;
        const auto rep = buildProfile(timed(200e-6, 1e6, 1e6), req);
        QVERIFY(rep.provenance && rep.provenance->ownShare() == 1.0);
        QCOMPARE(toJson(rep)["provenance"]["own_share"].get<double>(), 1.0);
    }

    // The candidate's runner's own account of a timed call: on an H200 the
    // Triton rmsnorm seed took 119 us a set to launch against 83 us of device
    // time a set after the first (tests/data/ncu/h200-judge: the judge's result.json, each sample
    // list cut to four). The host bounds it, which the breakdown alone (one
    // launch, timed near its device time) cannot say.
    void aRunnerSlowerToLaunchThanTheDeviceIsLaunchBound() {
        auto r = eval::parseResultJson(fixture("ncu/h200-judge/gpu_rmsnorm_fwd_result.json"));
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        ProfileRequest req;
        req.jobFiles["breakdown.json"] = R"({"schema": 1, "source": "torch.profiler", "shape": "prod", "launches": 1,
            "device_us": 83.0, "kernels": [{"name": "_rms_fwd_kernel", "kind": "kernel", "calls": 1, "us": 83.0}]})";
        const auto rep = buildProfile(*r, req);
        const auto it =
            std::find_if(rep.diagnosis.begin(), rep.diagnosis.end(), [](const Signal& s) { return s.name == "launch_overhead"; });
        QVERIFY(it != rep.diagnosis.end());
        QCOMPARE(it->source, std::string("judge"));
        QVERIFY2(it->evidence.find("takes 118.8 us a call to launch it") != std::string::npos &&
                     it->evidence.find("against 82.9 us of device time") != std::string::npos,
                 it->evidence.c_str());
        // The same runner launching faster than its device time: nothing from the judge.
        auto quick = *r;
        quick.timing[0].clock["call_parts"]["candidate"]["runner_told"][1] = 16 * 80e-6;
        QVERIFY(!has(buildProfile(quick, req).diagnosis, "launch_overhead"));
        // An account that is not six non-negative numbers says nothing.
        quick.timing[0].clock["call_parts"]["candidate"]["runner_told"] = {1, -2, 3};
        QVERIFY(!has(buildProfile(quick, req).diagnosis, "launch_overhead"));
    }

    void ncuBadInput() {
        auto none = parseNcuCsv("==PROF== Connected\nno kernels profiled\n");
        QVERIFY(!none);
        QVERIFY(none.error().message.find("--csv") != std::string::npos);
        auto headerOnly = parseNcuCsv("\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n\"\",\"\",\"ns\"\n");
        QVERIFY(!headerOnly);
        QVERIFY(headerOnly.error().message.find("no kernel") != std::string::npos);
    }

    void cachegrindCountsOnlyTheCandidate() {
        const std::string out = "desc: I1 cache: 32768 B, 64 B, 8-way associative\n"
                                "desc: LL cache: 33554432 B, 64 B, 16-way associative\n"
                                "cmd: ./build/harness profile once\n"
                                "events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw\n"
                                "fl=???\n"
                                "fn=saxpy\n"
                                "0 1000 1 1 400 100 50 200 60 40\n"
                                "fl=/usr/lib/gcc/x86_64-linux-gnu/12/include/avxintrin.h\n"
                                "fn=saxpy\n"
                                "12 500 0 0 100\n"
                                "fn=helper(float const*, int)\n"
                                "0 20 0 0 5 1 0 0 0 0\n"
                                "fl=harness_main.cpp\n"
                                "fn=kw_build_case\n"
                                "0 99999 0 0 5000 800 700 4000 3000 2000\n"
                                "summary: 101519 1 1 5505 901 750 4200 3060 2040\n";
        const std::string symbols =
            "0000000000001100 T saxpy\n0000000000001200 t helper(float const*, int)\n                 U malloc\n";
        auto r = parseCachegrind(out, symbols);
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QCOMPARE(r->count("Ir"), 1520.0); // 1000 + 500 (inlined header code) + 20, not the harness
        QCOMPARE(r->count("Dr"), 505.0);
        QCOMPARE(r->llMisses(), 90.0);
        QCOMPARE(r->program.at("Ir"), 101519.0);
        QCOMPARE(r->functions.front().first, std::string("saxpy"));
        QVERIFY(r->llDescription.find("33554432") != std::string::npos);
        QVERIFY(!parseCachegrind("events: Ir\nfn=saxpy\n0 5\n", symbols)); // no summary: valgrind did not finish
        QVERIFY(!parseCachegrind(out, ""));                                // no symbols
        auto garbage = parseCachegrind("events: Ir\nfn=saxpy\n0 x5\nsummary: 1\n", symbols);
        QVERIFY(!garbage);
    }

    void counterReport() {
        auto r = parseCounterReport(R"({"available":true,"reason":"","calls":10,"threads":2,"seconds_per_call":0.001,
            "per_call":{"cycles":2000000,"instructions":3000000,"cache_references":1000,"cache_misses":250,"task_clock_ns":1800000},
            "missing":{"branches":"perf_event_open: No such file or directory"}})");
        QVERIFY(r);
        QCOMPARE(r->ipc(), 1.5);
        QCOMPARE(r->cacheMissRate(), 0.25);
        QCOMPARE(r->coresBusy(), 1.8);
        QCOMPARE(r->missing.size(), std::size_t(1));
        QVERIFY(!parseCounterReport("not json"));
    }

    void rooflineMetricsAndRules() {
        // 64 MB in 1.6 ms: 40 GB/s of a 50 GB/s roof, far left of the ridge.
        auto mem = diagnoseTiming(1.6e-3, 64e6, 16e6);
        QVERIFY2(has(mem, "memory_bound"), names(mem).empty() ? "none" : names(mem)[0].c_str());
        QVERIFY(!has(mem, "compute_bound"));
        QVERIFY(!has(mem, "near_roofline"));
        // 1 GFLOP in 4 ms: 250 of 300 GFLOP/s, right of the ridge.
        auto cmp = diagnoseTiming(4e-3, 8e6, 1e9);
        QVERIFY(has(cmp, "compute_bound"));
        QVERIFY(!has(cmp, "memory_bound"));
        // Neither roof: 10% of bandwidth.
        auto lat = diagnoseTiming(12.8e-3, 64e6, 16e6);
        QVERIFY(has(lat, "latency_bound"));
        QVERIFY(!has(lat, "memory_bound"));
        // 95% of the memory floor is near the roofline.
        auto near = diagnoseTiming(1.347e-3, 64e6, 0);
        QVERIFY(has(near, "near_roofline"));
        QVERIFY(has(near, "memory_bound"));
        // A call of a few microseconds is dominated by fixed costs.
        auto tiny = diagnoseTiming(3e-6, 1e3, 1e3);
        QVERIFY(has(tiny, "launch_overhead"));

        RooflineMetrics m = rooflineMetrics(timed(2e-3, 100e6, 50e6), roofs());
        QCOMPARE(m.ridge, 6.0);
        QCOMPARE(m.total.gbs, 50.0);
        QCOMPARE(m.total.gflops, 25.0);
        QCOMPARE(m.total.intensity, 0.5);
        QVERIFY(m.total.memorySide);
        QCOMPARE(m.total.rooflineFraction, 1.0);
    }

    void instructionCountsRevealScalarCode() {
        CachegrindReport scalar;
        scalar.candidate["Ir"] = 4e6; // 4 instructions per element of 1M elements
        DiagnosisInput in;
        in.cachegrind = &scalar;
        in.profiledBytes = 4e6;
        in.profiledFlops = 2e6;
        QVERIFY(has(diagnose(in), "low_vectorization"));
        CachegrindReport vector;
        vector.candidate["Ir"] = 2e5;
        in.cachegrind = &vector;
        QVERIFY(!has(diagnose(in), "low_vectorization"));
    }

    void wrongResultsAreNotProfiled() {
        auto r = timed(1e-3, 1e6, 1e6);
        r.status = eval::EvalStatus::WrongAnswer;
        ProfileRequest req;
        req.roofs = roofs();
        const auto p = buildProfile(r, req);
        QVERIFY(p.diagnosis.empty());
        QVERIFY(!p.roofline);
        QVERIFY(!p.notes.empty());
    }

    void jobNotesBecomeReportNotes() {
        ProfileRequest req;
        req.level = eval::ProfileLevel::Cachegrind;
        req.roofs = roofs();
        req.jobFiles["unavailable-cachegrind.txt"] = "valgrind is not installed\n";
        const auto p = buildProfile(timed(1e-3, 1e6, 1e6), req);
        QVERIFY(std::find(p.notes.begin(), p.notes.end(), "cachegrind: not available: valgrind is not installed") !=
                p.notes.end());
    }

    void coresUsedByACandidate() {
        QCOMPARE(coresUsed("void f() {}", R"({"THREADS":"2"})", 4), 2);
        QCOMPARE(coresUsed("void f() {}", R"({"THREADS":"8"})", 4), 4);
        QCOMPARE(coresUsed("#pragma omp parallel for\nvoid f() {}", "{}", 4), 4);
        QCOMPARE(coresUsed("void f() {}", "{}", 4), 1);
    }

    void machineModelJson() {
        MachineModel m;
        m.host = "box";
        m.cores = 4;
        m.isa = "avx2";
        m.bandwidth = {{"L1", 16384, 300, 1100}, {"DRAM", 1 << 28, 20, 60}};
        m.dramProbes1 = {19, 20, 21};
        m.vectorGflops1 = 100;
        m.vectorGflopsAll = 400;
        auto back = machineFromJson(toJson(m));
        QVERIFY(back);
        QCOMPARE(back->dramGBs(1), 20.0);
        QCOMPARE(back->dramGBs(4), 60.0);
        QCOMPARE(back->ridgeIntensity(1), 5.0);
        QVERIFY(std::abs(back->dramProbeCv() - 0.05) < 1e-9);
        QVERIFY(back->memoryBound(1e9, 1e9, 1));
        auto old = toJson(m);
        old["schema"] = 0;
        auto bad = machineFromJson(old);
        QVERIFY(!bad);
        QVERIFY(bad.error().message.find("machine probe") != std::string::npos);
    }

    // On a GPU the floor is the bytes at the GPU's measured copy bandwidth,
    // of the GPU the judge says it ran on.
    void gpuResultsUnderTheCopyFloorAreFlagged() {
        MachineModel m;
        GpuModel slow, fast;
        slow.name = "NVIDIA A10";
        slow.copyGBs = 500;
        fast.name = "NVIDIA H100 80GB HBM3";
        fast.copyGBs = 3000;
        m.gpus = {slow, fast};
        eval::EvaluationResult r;
        r.status = eval::EvalStatus::Ok;
        r.env = {{"gpu", "NVIDIA H100 80GB HBM3 (sm_90)"}, {"host", "gpu-box"}};
        eval::TimingCase t;
        t.shape = "prod";
        t.bytes = 3e9; // 1 ms at 3000 GB/s
        t.candidate.median = 0.9e-3;
        r.timing.push_back(t);
        QVERIFY(!flagBelowGpuFloor(r, m)); // within the margin of the H100's floor (the A10's would flag it)
        r.timing[0].candidate.median = 0.5e-3;
        QVERIFY(flagBelowGpuFloor(r, m));
        QVERIFY(r.implausibleSpeedup);
        QVERIFY2(r.message.find("3000 GB/s measured on NVIDIA H100") != std::string::npos, r.message.c_str());
        eval::EvaluationResult unmeasured;
        unmeasured.status = eval::EvalStatus::Ok;
        unmeasured.timing = r.timing;
        QVERIFY(!flagBelowGpuFloor(unmeasured, MachineModel{})); // no GPU measured: nothing to judge by
    }

    // A lookup operator's floor is its lookups at the L2 gather rate when that
    // takes longer than its bytes (MapId on the H100: 2^24 lookups, 403 MB).
    void lookupsBoundTheGpuFloor() {
        GpuModel h100;
        h100.name = "NVIDIA H100 80GB HBM3";
        h100.copyGBs = 2995.5;
        h100.l2GatherGps = 101.61;
        const double bytes = 8.0 * (1 << 20) + 16.0 * (1 << 24), lookups = 1 << 24;
        QCOMPARE(gpuFloorSeconds(h100, bytes, 0), bytes / 2995.5e9);
        QCOMPARE(gpuFloorSeconds(h100, bytes, lookups), lookups / 101.61e9); // 165 us, not 92
        QVERIFY(gpuFloorSeconds(h100, bytes, lookups) > 1.7 * gpuFloorSeconds(h100, bytes, 0));
        GpuModel unprobed = h100;
        unprobed.l2GatherGps = 0; // a probe from before the gather rate: the bytes alone
        QCOMPARE(gpuFloorSeconds(unprobed, bytes, lookups), bytes / 2995.5e9);

        MachineModel m;
        m.gpus = {h100};
        eval::EvaluationResult r;
        r.status = eval::EvalStatus::Ok;
        r.env = {{"gpu", "NVIDIA H100 80GB HBM3"}};
        eval::TimingCase t;
        t.shape = "t1m_q16m";
        t.bytes = bytes;
        t.gathers = lookups;
        t.candidate.median = 110e-6; // above the bytes' floor, under 0.8x the lookups'
        r.timing.push_back(t);
        QVERIFY(flagBelowGpuFloor(r, m));
        QVERIFY2(r.message.find("lookups at 102 G/s") != std::string::npos, r.message.c_str());
        r.timing[0].candidate.median = 150e-6;
        r.message.clear();
        QVERIFY(!flagBelowGpuFloor(r, m));

        // The roofline's floor and the side that sets it.
        const auto metrics = rooflineMetrics(r, gpuRoofs(h100));
        QCOMPARE(metrics.total.floorSeconds, lookups / 101.61e9);
        QVERIFY(metrics.total.lookupSide);
        QCOMPARE(metrics.total.gathers, lookups);
    }

    // Faster than the machine can move the bytes: flagged, and no best until pinned.
    void resultsUnderTheFloorAreFlagged() {
        MachineModel m;
        m.cores = 4;
        m.bandwidth = {{"DRAM", 1 << 28, 20, 50}};
        m.vectorGflops1 = 100;
        m.vectorGflopsAll = 400;
        eval::EvaluationResult r;
        r.status = eval::EvalStatus::Ok;
        r.speedup = 40;
        r.message = "correct; 40x the reference";
        eval::TimingCase t;
        t.shape = "prod";
        t.bytes = 1e9; // 20 ms at 50 GB/s
        t.flops = 1e6;
        t.candidate.median = 0.021;
        r.timing.push_back(t);
        QVERIFY(!flagBelowFloor(r, m)); // just above the floor: plausible
        QVERIFY(!r.implausibleSpeedup);
        r.timing[0].candidate.median = 0.005; // 4x under it
        QVERIFY(flagBelowFloor(r, m));
        QVERIFY(r.implausibleSpeedup);
        QVERIFY2(r.message.find("under this machine's floor") != std::string::npos, r.message.c_str());
        QVERIFY(r.message.find("review before trusting") != std::string::npos);

        tree::Node honest, flagged;
        honest.status = flagged.status = eval::EvalStatus::Ok;
        honest.speedup = 3;
        flagged.speedup = 40;
        flagged.flagged = true;
        QCOMPARE(flagged.fitness(), 0.0);
        QCOMPARE(honest.fitness(), 3.0);
        flagged.pinned = true; // a person reviewed it
        QCOMPARE(flagged.fitness(), 40.0);
    }
    void gpuProbeFromTheH100() {
        auto gpus = parseGpuProbe(fixture("machine/h100_gpu_probe.json"));
        QVERIFY2(gpus, gpus ? "" : gpus.error().message.c_str());
        QCOMPARE(gpus->size(), std::size_t(1));
        const auto& g = gpus->front();
        QVERIFY(g.name.find("H100") != std::string::npos);
        QCOMPARE(g.smCount, 132);
        QCOMPARE(g.l2Bytes, std::size_t(52428800));
        QVERIFY(g.copyGBs > 1000 && g.bf16MatrixTflops > 100);
        QCOMPARE(g.l2GatherGps, 101.61);
        MachineModel withGpu;
        withGpu.host = "h";
        withGpu.gpus = {g};
        auto back = machineFromJson(toJson(withGpu));
        QVERIFY(back);
        QCOMPARE(back->gpus.front().l2GatherGps, 101.61);
        QVERIFY(!parseGpuProbe("{\"gpus\":[]}"));
        QVERIFY(!parseGpuProbe("[1,2]"));
    }

    void profilesAreStoredPerEvaluation() {
        QTemporaryDir dir;
        auto db = store::Database::open(dir.filePath("ws.db").toStdString());
        QVERIFY(db);
        QCOMPARE(db->schemaVersion(), store::Database::newestSchemaVersion());
        auto ins =
            db->exec("INSERT INTO evaluations (id, cache_key, problem, problem_hash, candidate_hash, params, status, result) "
                     "VALUES (7, 'k', 'p', 'h', 'c', '{}', 'ok', '{}')");
        QVERIFY2(ins.ok(), ins.ok() ? "" : ins.error().message.c_str());
        store::ProfileStore ps(*db);
        QVERIFY(ps.save({0, 7, "roofline", R"({"signals":[]})", {"memory_bound"}, "box", ""}));
        QVERIFY(ps.save({0, 7, "cachegrind", R"({"signals":[]})", {"memory_bound", "low_vectorization"}, "box", ""}));
        QVERIFY(ps.save({0, 7, "roofline", R"({"signals":[1]})", {"near_roofline"}, "box", ""})); // replaces
        auto all = ps.all(7);
        QVERIFY(all);
        QCOMPARE(all->size(), std::size_t(2));
        auto latest = ps.latest(7);
        QVERIFY(latest && *latest);
        QCOMPARE((*latest)->level, std::string("cachegrind"));
        QCOMPARE((*latest)->diagnosis.size(), std::size_t(2));
        QCOMPARE(all->front().diagnosis, std::vector<std::string>{"near_roofline"});
        auto none = ps.latest(8);
        QVERIFY(none && !*none);
    }

    void promptCarriesTheDiagnosis() {
        problem::ProblemSpec p;
        p.name = "x";
        p.function = "f";
        synth::llm::PromptInput in;
        in.problem = &p;
        in.source = "void f() {}";
        in.diagnosis = {{"memory_bound", "91% of DRAM bandwidth"}};
        const auto prompt = synth::llm::buildPrompt(in, 100000);
        QVERIFY(prompt.user.find("Diagnosis") != std::string::npos);
        QVERIFY(prompt.user.find("memory_bound: 91% of DRAM bandwidth") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestProfile)
#include "tst_profile.moc"
