// The adversarial corpus (tests/data/cheats/cpp): every dishonest candidate
// goes through the real judge, executor and sandbox, once with the static
// rules and once without them. Without the rules, the process boundary, the
// seccomp filter and the judge alone must give the status the file names on
// its first line; with them, any rejection will do. No cheat may ever come
// back correct and faster than the reference.
#include "eval_fixture.h"

#include <QtTest/QtTest>

#include <regex>

using namespace kw;

namespace {
struct Cheat {
    std::string name;
    std::string source;
    std::string
        expect; // a status, "a|b" (either), or "ok-but-slow": correct, at its honest speed (it does the work several times over)
};

std::vector<Cheat> corpus() {
    std::vector<Cheat> cheats;
    const auto dir = test::dataDir() / "cheats" / "cpp";
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".cpp") continue;
        auto text = readTextFile(entry.path());
        std::smatch m;
        const std::regex expect("^// expect: ([a-z_|-]+)");
        if (!text || !std::regex_search(*text, m, expect)) continue;
        cheats.push_back({entry.path().stem().string(), *text, m[1]});
    }
    std::sort(cheats.begin(), cheats.end(), [](const Cheat& a, const Cheat& b) { return a.name < b.name; });
    return cheats;
}
} // namespace

class TestCheats : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        auto spec = problem::loadProblem(test::problemDir("saxpy"));
        QVERIFY2(spec.ok(), spec.ok() ? "" : spec.error().message.c_str());
        saxpy_ = *spec;
        QVERIFY(fixture_.ready());
        options_.useCache = false;
        options_.timeBudgetS = 0.2;
        options_.minReps = 10;
        cheats_ = corpus();
        QVERIFY2(cheats_.size() >= 32, "the corpus is smaller than the categories it covers");
    }

    void theJudgeAloneRejectsEveryCheat() { runAll(false); }
    void theStaticRulesRejectWhatTheyCan() { runAll(true); }

    // A kernel fitted to the fill's range: right on every value the fill
    // draws, wrong on the operator's declared domain. The bundled softmax's
    // seed, which subtracts each row's maximum, stays correct there.
    void aKernelFittedToTheFillFailsOnItsDomain() {
        auto softmax = problem::loadProblem(test::bundledProblemsDir() / "cpu" / "softmax");
        QVERIFY2(softmax.ok(), softmax.ok() ? "" : softmax.error().message.c_str());
        const std::string fitted = R"(#include <cmath>
#include <cstdint>
extern "C" void softmax(const float* x, float* y, int64_t M, int64_t N) {
    for (int64_t m = 0; m < M; ++m) {
        double sum = 0;
        for (int64_t n = 0; n < N; ++n) sum += y[m * N + n] = std::exp(x[m * N + n] - 95.0f); // the fill's bound, not the row's max
        for (int64_t n = 0; n < N; ++n) y[m * N + n] = static_cast<float>(y[m * N + n] / sum);
    }
}
)";
        eval::EvalOptions options = options_;
        options.checkOnly = true;
        const auto judge = [&](const eval::Candidate& c) {
            auto job = fixture_.evaluator().prepare(*softmax, c, options);
            eval::JobOutcome outcome;
            if (job.ok() && !job->finished) outcome = fixture_.executor().submit(job->request).get();
            return job.ok() ? fixture_.evaluator().finish(*softmax, *job, outcome) : eval::EvaluationResult{};
        };
        const auto cheat = judge(eval::Candidate{"fitted", fitted, {}});
        QCOMPARE(eval::statusName(cheat.status), std::string("wrong_answer"));
        QVERIFY2(cheat.message.find("beyond the fill's range") != std::string::npos, cheat.message.c_str());
        QVERIFY2(cheat.message.find("(wide inputs)") != std::string::npos && cheat.message.find("seed 0") == std::string::npos,
                 cheat.message.c_str());
        const auto seed = judge(eval::Candidate{"vectorized", softmax->seeds.at(0).text, {}});
        QVERIFY2(seed.correct(), seed.message.c_str());
    }

    // No two input sets share values: a kernel that keeps an index or a
    // value -> answer memo from one call has nothing to replay in another.
    // This candidate is right, and answers wrong on purpose the moment a row
    // of borders (sorted: rows used to change places only) or of x (sampled
    // from the borders: its multiset used to stay) comes back in a set of
    // its own (another address), so it is correct only if every set is new.
    void everyInputSetHasValuesOfItsOwn() {
        auto mbdt = problem::loadProblem(test::bundledProblemsDir() / "cpu" / "mbdt");
        QVERIFY2(mbdt.ok(), mbdt.ok() ? "" : mbdt.error().message.c_str());
        const std::string detector = R"(#include <cstdint>
#include <cstring>
#include <unordered_map>
namespace {
std::unordered_map<uint64_t, const void*> seen; // a row's contents -> the set it was seen in
bool repeats(const float* row, int64_t n, const void* set) {
    uint64_t h = 1469598103934665603ull;
    for (int64_t i = 0; i < n; ++i) {
        uint32_t bits;
        std::memcpy(&bits, row + i, 4);
        h = (h ^ bits) * 1099511628211ull;
    }
    auto [it, fresh] = seen.emplace(h, set);
    return !fresh && it->second != set;
}
}
extern "C" void mbdt(const float* x, const float* borders, int64_t* out, int64_t F, int64_t B, int64_t NB) {
    bool again = false;
    for (int64_t f = 0; f < F; ++f) {
        if (NB > 2) again |= repeats(borders + f * NB, NB, borders);
        if (B > 2) again |= repeats(x + f * B, B, x);
    }
    for (int64_t f = 0; f < F; ++f)
        for (int64_t b = 0; b < B; ++b) {
            const float v = x[f * B + b];
            int64_t lo = 0, hi = NB;
            while (lo < hi) {
                const int64_t mid = (lo + hi) / 2;
                if (borders[f * NB + mid] < v) lo = mid + 1; else hi = mid;
            }
            out[f * B + b] = f * (NB + 1) + lo;
        }
    if (again) out[0] = -1;
}
)";
        eval::EvalOptions options = options_;
        options.timeBudgetS = 0.3;
        auto job = fixture_.evaluator().prepare(*mbdt, eval::Candidate{"detector", detector, {}}, options);
        QVERIFY(job.ok());
        eval::JobOutcome outcome;
        if (!job->finished) outcome = fixture_.executor().submit(job->request).get();
        const auto r = fixture_.evaluator().finish(*mbdt, *job, outcome);
        QVERIFY2(r.correct(), r.message.c_str());
        QVERIFY2(r.speedup.has_value(), "timed, so sets were drawn for the rounds");
    }

    // The job's tasks are one budget: a candidate that parks threads until
    // none can be made leaves the baseline's runner unable to start. That
    // is the candidate's doing (runtime_error), not the host's.
    void aCandidateThatHoardsTheJobsTasksIsCharged() {
        auto sgemm = problem::loadProblem(test::bundledProblemsDir() / "cpu" / "sgemm");
        QVERIFY2(sgemm.ok(), sgemm.ok() ? "" : sgemm.error().message.c_str());
        const std::string hoarder = R"(#include <cstdint>
#include <pthread.h>
#include <unistd.h>
namespace {
void* park(void*) {
    for (;;) pause();
}
struct Hoard {
    Hoard() {
        pthread_attr_t a;
        pthread_attr_init(&a);
        pthread_attr_setstacksize(&a, 64 << 10);
        for (int i = 0; i < 100000; ++i) {
            pthread_t t;
            if (pthread_create(&t, &a, park, nullptr) != 0) break;
        }
    }
} hoard;
}
extern "C" void sgemm(const float* A, const float* B, float* C, int64_t M, int64_t N, int64_t K) {
    for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
            float s = 0;
            for (int64_t k = 0; k < K; ++k) s += A[i * K + k] * B[k * N + j];
            C[i * N + j] = s;
        }
}
)";
        eval::EvalOptions options = options_;
        options.timeBudgetS = 0.2;
        options.staticRules = false; // they refuse pthread_create by name: the judge alone must charge it
        auto job = fixture_.evaluator().prepare(*sgemm, eval::Candidate{"hoarder", hoarder, {}}, options);
        QVERIFY(job.ok());
        eval::JobOutcome outcome;
        if (!job->finished) outcome = fixture_.executor().submit(job->request).get();
        const auto r = fixture_.evaluator().finish(*sgemm, *job, outcome);
        QVERIFY2(eval::statusName(r.status) != "infra_error" && !r.correct(),
                 (eval::statusName(r.status) + ": " + r.message).c_str());
        QVERIFY2(r.message.find("the candidate held") != std::string::npos, r.message.c_str());
    }

    // Outputs are one memfd per runner: nothing a runner does to its output
    // pages reaches the reference's or a baseline's. The judge reads every
    // timed runner's memory map (sgemm: the reference, OpenBLAS, the
    // candidate) and says what it found; an honest kernel stays accepted.
    void eachRunnerWritesOutputsOfItsOwn() {
        auto sgemm = problem::loadProblem(test::bundledProblemsDir() / "cpu" / "sgemm");
        QVERIFY2(sgemm.ok(), sgemm.ok() ? "" : sgemm.error().message.c_str());
        const std::string honest = "#include <cstdint>\n"
                                   "extern \"C\" void sgemm(const float* A, const float* B, float* C, int64_t M, int64_t N, "
                                   "int64_t K) {\n"
                                   "    for (int64_t i = 0; i < M; ++i) {\n"
                                   "        for (int64_t j = 0; j < N; ++j) C[i * N + j] = 0;\n"
                                   "        for (int64_t k = 0; k < K; ++k)\n"
                                   "            for (int64_t j = 0; j < N; ++j) C[i * N + j] += A[i * K + k] * B[k * N + j];\n"
                                   "    }\n"
                                   "}\n";
        eval::EvalOptions options = options_;
        options.timeBudgetS = 0.2;
        auto job = fixture_.evaluator().prepare(*sgemm, eval::Candidate{"honest", honest, {}}, options);
        QVERIFY(job.ok());
        eval::JobOutcome outcome;
        if (!job->finished) outcome = fixture_.executor().submit(job->request).get();
        const auto r = fixture_.evaluator().finish(*sgemm, *job, outcome);
        QVERIFY2(r.correct(), r.message.c_str());
        const auto isolation = r.env.value("isolation", nlohmann::json::object());
        QCOMPARE(QString::fromStdString(isolation.value("outputs", std::string("(not reported)"))),
                 QStringLiteral("own copy per runner"));
    }

  private:
    void runAll(bool rules) {
        eval::EvalOptions options = options_;
        options.staticRules = rules;
        struct InFlight {
            const Cheat* cheat;
            eval::PreparedJob job;
            std::future<eval::JobOutcome> outcome;
        };
        std::vector<InFlight> flights;
        for (const auto& c : cheats_) {
            auto job = fixture_.evaluator().prepare(saxpy_, eval::Candidate{c.name, c.source, {}}, options);
            QVERIFY2(job.ok(), c.name.c_str());
            InFlight f{&c, std::move(*job), {}};
            if (!f.job.finished) f.outcome = fixture_.executor().submit(f.job.request);
            flights.push_back(std::move(f));
        }
        int rejectedByRules = 0;
        std::string failures;
        for (auto& f : flights) {
            eval::JobOutcome outcome;
            if (f.outcome.valid()) outcome = f.outcome.get();
            const auto r = fixture_.evaluator().finish(saxpy_, f.job, outcome);
            const std::string status = eval::statusName(r.status);
            const std::string where = f.cheat->name + (rules ? " (rules on)" : " (rules off)") + ": got " + status + " (" +
                                      std::to_string(r.speedup.value_or(0)) + "x) — " + r.message;
            qInfo("%s", where.c_str());
            // Every cheat is judged before the test fails, so that one failure does not hide another.
            if (r.correct() && r.speedup.value_or(0) >= 1.0) {
                failures += "accepted as correct and faster: " + where + "\n";
                continue;
            }
            if (rules && r.status == eval::EvalStatus::SandboxViolation &&
                r.message.find("constructs a kernel may not use") != std::string::npos) {
                ++rejectedByRules;
                continue;
            }
            // Any of the alternatives; ok-but-slow: correct, and slower than the reference.
            const std::string alternatives = "|" + f.cheat->expect + "|";
            const bool expected =
                alternatives.find("|" + status + "|") != std::string::npos ||
                (alternatives.find("|ok-but-slow|") != std::string::npos && r.correct() && r.speedup.value_or(0) < 0.8);
            if (!expected) failures += "expected " + f.cheat->expect + ": " + where + "\n";
        }
        QVERIFY2(failures.empty(), failures.c_str());
        if (rules) QVERIFY2(rejectedByRules >= 8, "the static rules should reject most of the corpus before anything runs");
    }

    test::EvalFixture fixture_;
    problem::ProblemSpec saxpy_;
    eval::EvalOptions options_;
    std::vector<Cheat> cheats_;
};

QTEST_GUILESS_MAIN(TestCheats)
#include "tst_cheats.moc"
