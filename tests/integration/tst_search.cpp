// Searches end to end: the tuner finds faster kernels, steering applies while
// a search runs, bad input is refused with nothing changed, proposals are
// reproducible, and a SIGKILLed search resumes exactly.
#include "eval_fixture.h"
#include "search/search_engine.h"
#include "search/search_launcher.h"
#include "search/steering.h"
#include "store/search_store.h"

#include <QtCore/QProcess>
#include <QtTest/QtTest>

#include <set>
#include <thread>

using namespace kw;

namespace {
class Notes final : public search::SearchObserver {
  public:
    void note(const std::string& text) override {
        std::lock_guard lock(mutex);
        notes.push_back(text);
    }
    bool saw(const std::string& part) {
        std::lock_guard lock(mutex);
        for (const auto& n : notes)
            if (n.find(part) != std::string::npos) return true;
        return false;
    }
    std::mutex mutex;
    std::vector<std::string> notes;
};

problem::ProblemSpec load(const std::filesystem::path& dir) {
    auto spec = problem::loadProblem(dir);
    if (!spec) qFatal("%s", spec.error().message.c_str());
    return *spec;
}

std::int64_t scalar(const store::Database& db, const std::string& sql) {
    auto stmt = db.prepare(sql);
    if (!stmt || !*stmt->step()) return -1;
    return stmt->int64(0);
}
} // namespace

class TestSearch : public QObject {
    Q_OBJECT
  private slots:
    void tunerFindsAKernelFasterThanTheReference() {
        test::EvalFixture fixture(2);
        const auto mbdt = load(test::bundledProblemsDir() / "cpu" / "mbdt");
        tree::SearchConfig config;
        config.policy = tree::Policy::Mcts;
        config.maxEvaluations = 6;
        auto id = search::SearchEngine::create(fixture.database(), mbdt, config);
        QVERIFY(id.ok());
        eval::EvalOptions options;
        options.timeBudgetS = 0.2;
        search::SearchEngine engine(fixture.database(), fixture.evaluator(), options);
        auto outcome = engine.run(*id);
        QVERIFY2(outcome.ok(), outcome.ok() ? "" : outcome.error().message.c_str());
        QCOMPARE(outcome->evaluations, 6);
        QCOMPARE(outcome->stopReason, std::string("budget"));
        QVERIFY2(outcome->bestSpeedup > 1.5, std::to_string(outcome->bestSpeedup).c_str());
        auto nodes = store::SearchStore(fixture.database()).loadNodes(*id);
        QCOMPARE(nodes->size(), std::size_t{6});
        for (const auto& n : *nodes) QCOMPARE(n.state, std::string("done"));
        QCOMPARE(scalar(fixture.database(),
                        "SELECT count(*) FROM events WHERE search_id = " + std::to_string(*id) + " AND kind = 'node_finished'"),
                 6LL);
    }

    void steeringAppliesWhileRunning() {
        test::EvalFixture fixture(1);
        const auto rms = load(test::bundledProblemsDir() / "cpu" / "rmsnorm_fwd");
        tree::SearchConfig config;
        config.policy = tree::Policy::Greedy;
        config.maxEvaluations = 40;
        auto id = search::SearchEngine::create(fixture.database(), rms, config);
        QVERIFY(id.ok());
        // A second connection, as another process would have.
        auto other = store::Database::open(fixture.database().path());
        QVERIFY(other.ok());
        store::SearchStore remote(*other);
        eval::EvalOptions options;
        options.checkOnly = true;
        Notes notes;
        std::optional<Result<search::SearchOutcome>> outcome;
        std::jthread runner([&] {
            search::SearchEngine engine(fixture.database(), fixture.evaluator(), options);
            outcome = engine.run(*id, {}, &notes);
        });
        auto done = [&] {
            return scalar(*other, "SELECT count(*) FROM nodes WHERE state = 'done' AND search_id = " + std::to_string(*id));
        };
        QTRY_VERIFY_WITH_TIMEOUT(done() >= 2, 60000);
        QVERIFY(remote.postCommand(*id, "pause", "{}").ok());
        QTRY_VERIFY_WITH_TIMEOUT(notes.saw("command pause"), 10000);
        // In-flight work drains, then nothing new starts.
        QTEST_ASSERT(true);
        QTRY_VERIFY_WITH_TIMEOUT(
            scalar(*other, "SELECT count(*) FROM nodes WHERE state != 'done' AND search_id = " + std::to_string(*id)) == 0,
            30000);
        const auto whilePaused = done();
        QTest::qWait(1500);
        QCOMPARE(done(), whilePaused);
        QCOMPARE(remote.loadSearch(*id)->status, std::string("paused"));

        QVERIFY(remote.postCommand(*id, "pin", "{\"node\":1}").ok());
        QVERIFY(remote.postCommand(*id, "hint", "{\"node\":1,\"text\":\"try wider vectors\"}").ok());
        // The tuner reads a hint's NAME=value terms: kept, and the pinned node's next child takes them.
        QVERIFY(remote.postCommand(*id, "hint", "{\"node\":1,\"text\":\"VEC=16 ACC=8 THREADS=2\"}").ok());
        QVERIFY(remote.postCommand(*id, "prune", "{\"node\":2}").ok());
        QVERIFY(remote.postCommand(*id, "pin", "{\"node\":999}").ok());
        const std::string manual = rms.reference.text + "\n// a person's variant\n";
        QVERIFY(
            remote.postCommand(*id, "add_child", nlohmann::json{{"node", 1}, {"source", manual}, {"name", "mine"}}.dump()).ok());
        QVERIFY(remote.postCommand(*id, "budget", "{\"max_evaluations\":" + std::to_string(whilePaused + 4) + "}").ok());
        QVERIFY(remote.postCommand(*id, "resume", "{}").ok());
        runner.join();
        QVERIFY(outcome && outcome->ok());
        QCOMPARE((*outcome)->evaluations, static_cast<int>(whilePaused + 4));

        auto nodes = remote.loadNodes(*id);
        QVERIFY(nodes.ok());
        bool manualFound = false, hinted = false;
        for (const auto& n : *nodes) {
            if (n.id == 1) {
                QVERIFY(n.pinned);
                // "try wider vectors" has no NAME=value term for the tuner: refused, not kept unread.
                QCOMPARE(n.hint, std::string("VEC=16 ACC=8 THREADS=2"));
            }
            if (n.id == 2) QVERIFY(n.pruned);
            if (n.parentId == 1 && n.paramsJson.find(R"("ACC":"8")") != std::string::npos &&
                n.paramsJson.find(R"("THREADS":"2")") != std::string::npos &&
                n.paramsJson.find(R"("VEC":"16")") != std::string::npos)
                hinted = true;
            if (n.origin == "manual") {
                manualFound = true;
                QCOMPARE(n.parentId, std::int64_t{1});
                QCOMPARE(n.state, std::string("done"));
                QCOMPARE(n.status.value_or(""), std::string("ok"));
            }
            // Nothing new grows under the pruned node after the prune.
            if (n.parentId == 2) QVERIFY(n.seq < 2 + whilePaused + 1);
        }
        QVERIFY(manualFound);
        QVERIFY2(hinted, "no child of node 1 took the hint's VEC=16 ACC=8 THREADS=2");
        QCOMPARE(scalar(*other, "SELECT count(*) FROM commands WHERE applied_at IS NULL"), 0LL);
        QCOMPARE(scalar(*other, "SELECT count(*) FROM commands WHERE outcome LIKE 'rejected: no such node%'"), 1LL);
        QCOMPARE(scalar(*other, "SELECT count(*) FROM commands WHERE verb = 'hint' AND outcome LIKE "
                                "'rejected: this search''s synthesizer is the tuner%'"),
                 1LL);
    }

    // A pin (by default) makes the search expand that node next, once, and
    // then lets the policy choose again; a sticky pin stays.
    void pinOnceExpandsTheNodeNextThenReleasesIt() {
        test::EvalFixture fixture(1);
        const auto rms = load(test::bundledProblemsDir() / "cpu" / "rmsnorm_fwd");
        tree::SearchConfig config;
        config.policy = tree::Policy::Greedy;
        config.maxEvaluations = 40;
        auto id = search::SearchEngine::create(fixture.database(), rms, config);
        QVERIFY(id.ok());
        auto other = store::Database::open(fixture.database().path());
        QVERIFY(other.ok());
        store::SearchStore remote(*other);
        eval::EvalOptions options;
        options.checkOnly = true;
        std::optional<Result<search::SearchOutcome>> outcome;
        std::jthread runner([&] {
            search::SearchEngine engine(fixture.database(), fixture.evaluator(), options);
            outcome = engine.run(*id);
        });
        const std::string sid = std::to_string(*id);
        QTRY_VERIFY_WITH_TIMEOUT(scalar(*other, "SELECT count(*) FROM nodes WHERE state = 'done' AND search_id = " + sid) >= 3,
                                 60000);
        QVERIFY(remote.postCommand(*id, "pause", "{}").ok());
        QTRY_VERIFY_WITH_TIMEOUT(remote.loadSearch(*id)->status == "paused" &&
                                     scalar(*other, "SELECT count(*) FROM nodes WHERE state != 'done' AND search_id = " + sid) ==
                                         0,
                                 30000);
        auto before = remote.loadNodes(*id);
        QVERIFY(before.ok());
        std::int64_t lastSeq = 0;
        for (const auto& n : *before) lastSeq = std::max(lastSeq, n.seq);
        // Checked only (no timing), every node's fitness is 0 and the greedy
        // policy keeps expanding the seed: the pin goes on the newest leaf.
        const auto slowest =
            *std::max_element(before->begin(), before->end(), [](const auto& a, const auto& b) { return a.id < b.id; });
        QVERIFY(slowest.parentId != 0);
        const auto pin = search::SteeringCommand::pin(slowest.id);
        QVERIFY(remote.postCommand(*id, pin.verb, pin.args.dump()).ok());
        QVERIFY(remote.postCommand(*id, "budget", "{\"max_evaluations\":" + std::to_string(before->size() + 4) + "}").ok());
        QVERIFY(remote.postCommand(*id, "resume", "{}").ok());
        runner.join();
        QVERIFY(outcome && outcome->ok());

        auto after = remote.loadNodes(*id);
        QVERIFY(after.ok());
        std::vector<store::NodeRecord> added;
        for (const auto& n : *after) {
            if (n.seq > lastSeq) added.push_back(n);
            if (n.id == slowest.id) QVERIFY2(!n.pinned && !n.pinOnce, "the pin was not released after one expansion");
        }
        std::sort(added.begin(), added.end(), [](const auto& a, const auto& b) { return a.seq < b.seq; });
        QVERIFY(added.size() >= 2);
        QCOMPARE(added.front().parentId, slowest.id); // expanded next
        QVERIFY(std::any_of(added.begin() + 1, added.end(), [&](const auto& n) { return n.parentId != slowest.id; }));
    }

    void nothingToTuneStillEvaluatesTheSeeds() {
        test::EvalFixture fixture(1);
        const auto tiny = load(test::problemDir("tiny_values"));
        tree::SearchConfig config;
        config.maxEvaluations = 5;
        auto id = search::SearchEngine::create(fixture.database(), tiny, config);
        eval::EvalOptions options;
        options.checkOnly = true;
        Notes notes;
        search::SearchEngine engine(fixture.database(), fixture.evaluator(), options);
        auto outcome = engine.run(*id, {}, &notes);
        QVERIFY(outcome.ok());
        QCOMPARE(outcome->evaluations, 1);
        QCOMPARE(outcome->stopReason, std::string("exhausted"));
        QVERIFY(notes.saw("nothing to tune"));
    }

    void theLauncherAssemblesAndRunsASearch() {
        test::EvalFixture fixture(1);
        const auto tiny = load(test::problemDir("tiny_values"));
        tree::SearchConfig config;
        config.maxEvaluations = 3;
        config.workers = 1;
        auto id = search::createSearch(fixture.database(), tiny, config, "");
        QVERIFY2(id.ok(), id.ok() ? "" : id.error().message.c_str());
        search::SearchLaunch launch;
        launch.searchId = *id;
        launch.evalOptions.checkOnly = true;
        launch.profileLocalJobs = false; // no machine probe in a test
        auto launched = search::launchSearch(fixture.database(), std::move(launch));
        QVERIFY2(launched.ok(), launched.ok() ? "" : launched.error().message.c_str());
        QCOMPARE((*launched)->search().problem.name, tiny.name);
        QCOMPARE((*launched)->search().config.maxEvaluations, 3);
        QCOMPARE((*launched)->evaluator().executor().slotCount(), std::size_t{1}); // the config's workers
        QCOMPARE((*launched)->placement(), std::string("local"));
        auto outcome = (*launched)->run();
        QVERIFY2(outcome.ok(), outcome.ok() ? "" : outcome.error().message.c_str());
        QCOMPARE(outcome->evaluations, 1);
        QCOMPARE(outcome->stopReason, std::string("exhausted"));
    }

    void theLauncherRefusesWhatWouldFailLater() {
        test::EvalFixture fixture(1);
        const auto tiny = load(test::problemDir("tiny_values"));
        tree::SearchConfig config;
        config.synth = tree::SynthMode::Llm; // and no model named
        auto refused = search::createSearch(fixture.database(), tiny, config, "");
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, ErrorCode::InvalidArgument);
        QCOMPARE(scalar(fixture.database(), "SELECT count(*) FROM searches"), 0LL);

        search::SearchLaunch missing;
        missing.searchId = 42;
        auto none = search::launchSearch(fixture.database(), missing);
        QVERIFY(!none.ok());
        QVERIFY2(none.error().message.find("no search 42") != std::string::npos, none.error().message.c_str());

        // A search whose problem folder is gone says so before any job starts.
        QTemporaryDir copy;
        std::filesystem::copy(tiny.dir, copy.path().toStdString(), std::filesystem::copy_options::recursive);
        const auto moved = load(copy.path().toStdString());
        tree::SearchConfig plain;
        auto id = search::createSearch(fixture.database(), moved, plain, "");
        QVERIFY(id.ok());
        copy.remove();
        search::SearchLaunch gone;
        gone.searchId = *id;
        gone.profileLocalJobs = false;
        auto orphan = search::launchSearch(fixture.database(), gone);
        QVERIFY(!orphan.ok());
        QVERIFY2(orphan.error().message.find("no longer loads") != std::string::npos, orphan.error().message.c_str());
    }

    void invalidConfigsChangeNothing() {
        test::EvalFixture fixture(1);
        const auto tiny = load(test::problemDir("tiny_values"));
        tree::SearchConfig config;
        config.maxEvaluations = 0;
        QVERIFY(!search::SearchEngine::create(fixture.database(), tiny, config).ok());
        QCOMPARE(scalar(fixture.database(), "SELECT count(*) FROM searches"), 0LL);
        search::SearchEngine engine(fixture.database(), fixture.evaluator());
        auto missing = engine.run(42);
        QVERIFY(!missing.ok());
        QVERIFY(missing.error().message.find("no search 42") != std::string::npos);
    }

    void proposalsAreReproducibleForAFixedSeed() {
        test::EvalFixture fixture(1);
        const auto rms = load(test::bundledProblemsDir() / "cpu" / "rmsnorm_fwd");
        auto sequence = [&](std::uint64_t seed) {
            tree::SearchConfig config;
            config.policy = tree::Policy::Evolutionary;
            config.maxEvaluations = 8;
            config.seed = seed;
            auto id = search::SearchEngine::create(fixture.database(), rms, config);
            eval::EvalOptions options;
            options.checkOnly = true;
            search::SearchEngine engine(fixture.database(), fixture.evaluator(), options);
            (void)engine.run(*id);
            std::vector<std::string> out;
            const auto nodes = store::SearchStore(fixture.database()).loadNodes(*id);
            for (const auto& n : *nodes) out.push_back(n.paramsJson);
            return out;
        };
        const auto a = sequence(17), b = sequence(17), c = sequence(18);
        QCOMPARE(a.size(), std::size_t{8});
        QCOMPARE(a, b);
        QVERIFY(a != c);
    }

    void killedSearchResumesExactly() {
        QTemporaryDir dir;
        const QString db = dir.path() + "/ws.db";
        QProcess first;
        first.start(test::cliPath(), {"--db", db, "search", "start", "--problem", "rmsnorm_fwd", "--policy", "evo", "--budget",
                                      "10", "--workers", "2", "--seed", "5", "--check-only"});
        QVERIFY(first.waitForStarted());
        auto openRo = [&] { return store::Database::open(db.toStdString(), store::Database::Mode::ReadOnly); };
        auto doneNodes = [&]() -> std::int64_t {
            auto ro = openRo();
            return ro ? scalar(*ro, "SELECT count(*) FROM nodes WHERE state = 'done'") : 0;
        };
        QTRY_VERIFY_WITH_TIMEOUT(doneNodes() >= 4, 120000);
        first.kill(); // SIGKILL: no chance to clean up
        QVERIFY(first.waitForFinished(10000));

        std::map<std::int64_t, std::string> before;
        {
            auto ro = openRo();
            QVERIFY(ro.ok());
            const auto nodes = store::SearchStore(*ro).loadNodes(1);
            for (const auto& n : *nodes)
                if (n.state == "done") before[n.id] = n.status.value_or("") + "/" + std::to_string(n.evaluationId);
        }
        QVERIFY(before.size() >= 4 && before.size() < 10);

        QProcess list;
        list.start(test::cliPath(), {"--db", db, "search", "list"});
        QVERIFY(list.waitForFinished(30000));
        QVERIFY2(QString::fromUtf8(list.readAllStandardOutput()).contains("interrupted"), "a killed search shows as interrupted");

        QProcess second;
        second.start(test::cliPath(), {"--db", db, "search", "resume", "1"});
        QVERIFY(second.waitForFinished(300000));
        QCOMPARE(second.exitCode(), 0);
        const QString out = QString::fromUtf8(second.readAllStandardOutput());
        QVERIFY2(out.contains("finished (budget): 10 evaluations"), qPrintable(out));

        auto ro = openRo();
        QVERIFY(ro.ok());
        auto nodes = store::SearchStore(*ro).loadNodes(1);
        QVERIFY(nodes.ok());
        std::set<std::string> keys;
        int done = 0;
        for (const auto& n : *nodes) {
            QVERIFY2(keys.insert(n.sourceHash + n.paramsJson).second, "duplicate node after resume");
            done += n.state == "done" ? 1 : 0;
            if (before.count(n.id)) QCOMPARE(n.status.value_or("") + "/" + std::to_string(n.evaluationId), before[n.id]);
        }
        QCOMPARE(done, 10);
        QCOMPARE(static_cast<int>(nodes->size()), 10);
        QCOMPARE(store::SearchStore(*ro).loadSearch(1)->evaluations, std::int64_t{10});
        auto check = ro->prepare("PRAGMA integrity_check");
        QVERIFY(check.ok() && *check->step());
        QCOMPARE(check->text(0), std::string("ok"));
    }

    void steeringUnknownOrFinishedSearchesIsRefused() {
        QTemporaryDir dir;
        const QString db = dir.path() + "/ws.db";
        auto cli = [&](const QStringList& args) {
            QProcess p;
            p.start(test::cliPath(), QStringList{"--db", db} + args);
            p.waitForFinished(120000);
            return std::make_pair(p.exitCode(), QString::fromUtf8(p.readAllStandardError() + p.readAllStandardOutput()));
        };
        auto unknown = cli({"search", "pause", "7"});
        QCOMPARE(unknown.first, 2);
        QVERIFY2(unknown.second.contains("no search 7"), qPrintable(unknown.second));
        const QString tiny = QString::fromStdString(test::problemDir("tiny_values").string());
        QCOMPARE(cli({"search", "start", "--problem", tiny, "--policy", "annealing"}).first, 2);
        auto run = cli({"search", "start", "--problem", tiny, "--budget", "2", "--check-only"});
        QCOMPARE(run.first, 0);
        auto finished = cli({"search", "prune", "1", "1"});
        QCOMPARE(finished.first, 2);
        QVERIFY2(finished.second.contains("is finished") && finished.second.contains("nothing changed"),
                 qPrintable(finished.second));
        auto extended = cli({"search", "resume", "1", "--budget", "3"});
        QCOMPARE(extended.first, 0);
        auto badNode = cli({"search", "pin", "1", "55"});
        QCOMPARE(badNode.first, 2);
        auto export_ = cli({"search", "export", "1", "--best", dir.path() + "/best.cpp"});
        QCOMPARE(export_.first, 0);
        QVERIFY(QFile::exists(dir.path() + "/best.cpp"));
    }
};

QTEST_GUILESS_MAIN(TestSearch)
#include "tst_search.moc"
