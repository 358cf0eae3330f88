// The Slurm executor against a real single-node Slurm cluster that this suite
// starts (munged, slurmctld, slurmd; tests/support/slurm_cluster.h): a search
// through sbatch with two jobs at once survives a job cancelled from outside
// and a restart of slurmd; a second client re-attaches to a running job
// instead of submitting it again; what run.sh does stays the candidate's,
// what Slurm does to a job is an infra error after the requeues.
#include "cli_runner.h"
#include "slurm_cluster.h"
#include "test_support.h"

#include "eval/slurm_executor.h"
#include "store/database.h"
#include "store/evaluation_store.h"
#include "store/search_store.h"
#include "util/files.h"

#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <chrono>
#include <map>
#include <set>
#include <thread>

using namespace kw;

namespace {

using Clock = std::chrono::steady_clock;

std::map<std::string, eval::SlurmJobState> squeue() {
    return eval::parseSqueueOutput(test::SlurmCluster::output(
        QStringLiteral("squeue"), {QStringLiteral("--noheader"), QStringLiteral("--array"), QStringLiteral("--states=all"),
                                   QStringLiteral("--Format=JobArrayID:|,State:|,Reason:|,exit_code:|,NodeList:|")}));
}

void scancel(const std::string& id) {
    QProcess::execute(QStringLiteral("scancel"), {QString::fromStdString(id)});
}

// The Slurm job id recorded in a job's shared dir ("" while none).
std::string submittedId(const std::filesystem::path& entry) {
    auto text = readTextFile(entry / "submission");
    return text ? text->substr(0, text->find('\n')) : std::string();
}

// Waits up to `seconds` for `done`.
template <typename F> bool waitFor(F done, double seconds) {
    const auto until = Clock::now() + std::chrono::duration<double>(seconds);
    while (Clock::now() < until) {
        if (done()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return done();
}

// Whether the Slurm job recorded in `entry` runs now; `id` gets its id.
bool running(const std::filesystem::path& entry, std::string& id) {
    id = submittedId(entry);
    const auto states = squeue();
    const auto it = states.find(id);
    return it != states.end() && it->second.state == "RUNNING";
}

long long numericId(const std::string& id) {
    try {
        return std::stoll(id.substr(0, id.find('_')));
    } catch (const std::exception&) {
        return 0;
    }
}

} // namespace

class TestSlurmExecutor : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        if (const auto why = test::SlurmCluster::unavailableReason(); !why.empty()) QSKIP(why.c_str());
        QVERIFY(dir_.isValid());
        root_ = dir_.path().toStdString();
        cluster_ = std::make_unique<test::SlurmCluster>(root_ / "cluster");
        const auto error = cluster_->start();
        QVERIFY2(error.empty(), error.c_str());
        std::filesystem::create_directories(root_ / "shared");
    }

    // Runs even when a check failed: no daemon or job outlives the suite.
    void cleanupTestCase() { cluster_.reset(); }

    // A search of 20 evaluations through sbatch, two jobs at once, with the
    // executor from a profile. One job is cancelled from outside, slurmd
    // restarted while jobs run, and the search paused (its jobs cancelled) and
    // resumed; every node still ends with a result of its own.
    void searchThroughSlurm() {
        const auto config = root_ / "config";
        std::filesystem::create_directories(config / "kernelwright");
        QVERIFY(writeFileAtomic(config / "kernelwright" / "executors.json",
                                R"({"profiles": {"test-cluster": {"kind": "slurm", "dir": ")" + (root_ / "shared").string() +
                                    R"(", "jobs": 2, "poll": 0.5, "max_poll": 2}}})")
                    .ok());
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), QString::fromStdString(config.string()));
        QProcess cli;
        const auto db = root_ / "ws.db";
        cli.setProcessEnvironment(env);
        cli.setProcessChannelMode(QProcess::MergedChannels);
        cli.start(test::cliPath(),
                  {QStringLiteral("--db"), QString::fromStdString(db.string()), QStringLiteral("search"), QStringLiteral("start"),
                   QStringLiteral("--problem"), QString::fromStdString((test::bundledProblemsDir() / "cpu" / "mapid").string()),
                   QStringLiteral("--budget"), QStringLiteral("20"), QStringLiteral("--check-only"),
                   QStringLiteral("--executor-profile"), QStringLiteral("test-cluster")});
        QVERIFY(cli.waitForStarted());
        struct KillOnFailure {
            QProcess& p;
            ~KillOnFailure() {
                if (p.state() != QProcess::NotRunning) {
                    p.kill();
                    p.waitForFinished();
                }
            }
        } guard{cli};

        // A candidate's job (named by its cache key), running: cancelled from
        // outside. One that ends by itself before scancel reaches it is
        // collected as usual; then another is picked.
        std::filesystem::path victim;
        std::string victimId;
        bool resubmitted = false;
        for (int tries = 0; tries < 5 && !resubmitted; ++tries) {
            QVERIFY2(waitFor(
                         [&] {
                             const auto states = squeue();
                             std::error_code ec;
                             for (const auto& entry : std::filesystem::directory_iterator(root_ / "shared", ec)) {
                                 const auto id = submittedId(entry.path());
                                 const auto it = states.find(id);
                                 if (entry.path().filename().string().rfind("job-", 0) == 0 && it != states.end() &&
                                     it->second.state == "RUNNING") {
                                     victim = entry.path();
                                     victimId = id;
                                     return true;
                                 }
                             }
                             return false;
                         },
                         90),
                     "no candidate job ever ran");
            scancel(victimId);
            // Resubmitted: its shared dir names another Slurm job.
            QVERIFY(waitFor(
                [&] {
                    const auto id = submittedId(victim);
                    resubmitted = !id.empty() && id != victimId;
                    return resubmitted || !std::filesystem::exists(victim);
                },
                30));
        }
        QVERIFY2(resubmitted, "no job was resubmitted after scancel");

        // slurmd goes away for a while with jobs running and queued, then comes back.
        cluster_->stopSlurmd();
        std::this_thread::sleep_for(std::chrono::seconds(2));
        const auto restarted = cluster_->startSlurmd();
        QVERIFY2(restarted.empty(), restarted.c_str());

        // Paused, the search takes its jobs off the cluster (those it had in
        // flight end CANCELLED, or COMPLETED where they finished first) and
        // submits nothing more; resumed, it runs them again.
        const auto statesText = [] {
            std::string text;
            for (const auto& [id, state] : squeue()) text += " " + id + "=" + state.state;
            return text;
        };
        const auto dbArg = QString::fromStdString(db.string());
        QCOMPARE(
            test::runCli({QStringLiteral("--db"), dbArg, QStringLiteral("search"), QStringLiteral("pause"), QStringLiteral("1")})
                .code,
            0);
        const auto active = [] {
            for (const auto& [id, state] : squeue())
                if (state.state == "RUNNING" || state.state == "PENDING") return true;
            return false;
        };
        QVERIFY2(waitFor([&] { return !active(); }, 180), ("the paused search left jobs on the cluster:" + statesText()).c_str());
        const std::size_t jobsWhenPaused = squeue().size();
        std::this_thread::sleep_for(std::chrono::seconds(3));
        QVERIFY2(!active() && squeue().size() == jobsWhenPaused, ("the paused search submitted jobs:" + statesText()).c_str());
        QCOMPARE(
            test::runCli({QStringLiteral("--db"), dbArg, QStringLiteral("search"), QStringLiteral("resume"), QStringLiteral("1")})
                .code,
            0);

        // A liveness bound, not a speed target: the suite also runs with every core busy.
        QVERIFY2(cli.waitForFinished(600000), "the search did not end within 600 s");
        const QString log = QString::fromUtf8(cli.readAll());
        QVERIFY2(cli.exitCode() == 0, qPrintable(log));
        QVERIFY2(log.contains(QStringLiteral("20 evaluations")), qPrintable(log));
        QVERIFY2(log.contains(QStringLiteral("resubmitting")), qPrintable(log));

        auto database = store::Database::open(db, store::Database::Mode::ReadOnly);
        QVERIFY(database.ok());
        auto nodes = store::SearchStore(*database).loadNodes(1);
        QVERIFY(nodes.ok());
        int done = 0;
        bool victimHasResult = false;
        const std::string victimKey = victim.filename().string().substr(4);
        for (const auto& n : *nodes) {
            if (n.state != "done") continue;
            ++done;
            const std::string what = "node " + std::to_string(n.id) + ": " + n.status.value_or("-") + ": " + n.message;
            QVERIFY2(n.status && *n.status != "infra_error", what.c_str());
            auto evaluation = store::EvaluationStore(*database).find(n.evaluationId);
            QVERIFY2(evaluation.ok(), what.c_str());
            if (evaluation->cacheKey == victimKey) victimHasResult = true;
        }
        QCOMPARE(done, 20);
        QVERIFY2(victimHasResult, "the cancelled job's node has no result of its own");
        // Nothing stays behind in the shared dir but the executor's own files.
        std::error_code ec;
        for (const auto& entry : std::filesystem::directory_iterator(root_ / "shared", ec))
            QVERIFY2(entry.path().filename() == ".kernelwright", entry.path().c_str());
    }

    // A client that goes away leaves its job on the cluster; the next one
    // finds it by the job's key and collects it without submitting it again.
    void reattachesAfterClientRestart() {
        const auto job = scriptJob("reattach", "sleep 3; echo '{\"status\": \"ok\"}' > result.json\n");
        auto first = eval::SlurmExecutor::create(config());
        QVERIFY(first.ok());
        auto lostFuture = (*first)->submit(request(job, "reattach-key"));
        const auto entry = root_ / "shared" / "job-reattach-key";
        std::string id;
        QVERIFY(waitFor([&] { return running(entry, id); }, 120));
        first->reset(); // the client "crashes": the job stays
        const auto gone = lostFuture.get();
        QVERIFY(gone.infraError.find("re-attaches") != std::string::npos);

        auto second = eval::SlurmExecutor::create(config());
        QVERIFY(second.ok());
        const auto outcome =
            (*second)->submit(request(scriptJob("reattach-2", "echo never ran > result.json\n"), "reattach-key")).get();
        QVERIFY2(outcome.resultJson && outcome.resultJson->find("\"ok\"") != std::string::npos,
                 (outcome.infraError + outcome.logTail + outcome.resultJson.value_or("")).c_str());
        // No second sbatch: no job of ours after the first one.
        for (const auto& [jobId, state] : squeue())
            QVERIFY2(numericId(jobId) <= numericId(id), ("submitted again as " + jobId).c_str());
    }

    // What run.sh does is the candidate's, as with the local executor: its
    // result, its exit without a result, its wall limit. None is resubmitted.
    void candidateFailuresStayTheCandidates() {
        auto executor = eval::SlurmExecutor::create(config());
        QVERIFY(executor.ok());
        auto wrote = (*executor)->submit(
            request(scriptJob("wrote", "echo '{\"status\": \"wrong_answer\"}' > result.json; exit 1\n"), "c1"));
        auto crashed = (*executor)->submit(request(scriptJob("crashed", "echo boom >&2; exit 3\n"), "c2"));
        auto slow = (*executor)->submit(request(scriptJob("slow", "sleep 30\n"), "c3", 2));
        const auto a = wrote.get(), b = crashed.get(), c = slow.get();
        QVERIFY2(a.resultJson && a.resultJson->find("wrong_answer") != std::string::npos && a.infraError.empty(),
                 a.infraError.c_str());
        QVERIFY2(!b.resultJson && b.infraError.find("exit 3") != std::string::npos, b.infraError.c_str());
        QVERIFY(b.logTail.find("boom") != std::string::npos);
        QVERIFY2(c.timedOut && !c.resultJson, c.infraError.c_str());
        QVERIFY(c.wallSeconds >= 2 && c.wallSeconds < 20);
    }

    // A job Slurm ends (here: scancel from outside) is resubmitted, and after
    // the last requeue reported as an infra error with Slurm's state.
    void lostJobsBecomeInfraErrors() {
        auto cfg = config();
        cfg.requeueAttempts = 1;
        auto executor = eval::SlurmExecutor::create(cfg);
        QVERIFY(executor.ok());
        auto future = (*executor)->submit(request(scriptJob("lost", "sleep 60\n"), "lost-key"));
        const auto entry = root_ / "shared" / "job-lost-key";
        std::set<std::string> cancelled;
        for (int attempt = 0; attempt < 2; ++attempt) {
            std::string id;
            QVERIFY(waitFor([&] { return running(entry, id) && !cancelled.count(id); }, 120));
            scancel(id);
            cancelled.insert(id);
        }
        QVERIFY(future.wait_for(std::chrono::seconds(60)) == std::future_status::ready);
        const auto outcome = future.get();
        QVERIFY2(outcome.infraError.find("lost the job 2 times") != std::string::npos, outcome.infraError.c_str());
        QVERIFY2(outcome.infraError.find("CANCELLED") != std::string::npos, outcome.infraError.c_str());
    }

    // A stopped search (pause, stop, prune) cancels its jobs on the cluster.
    void stopTokenCancelsTheJob() {
        auto executor = eval::SlurmExecutor::create(config());
        QVERIFY(executor.ok());
        std::stop_source stop;
        auto r = request(scriptJob("stopped", "sleep 60\n"), "stop-key");
        r.stop = stop.get_token();
        auto future = (*executor)->submit(r);
        std::string id;
        QVERIFY(waitFor([&] { return !(id = submittedId(root_ / "shared" / "job-stop-key")).empty(); }, 120));
        stop.request_stop();
        QVERIFY(future.get().stopped);
        QVERIFY2(waitFor(
                     [&] {
                         const auto s = squeue();
                         return s.count(id) && s.at(id).state == "CANCELLED";
                     },
                     15),
                 id.c_str());
    }

    // Jobs waiting while an allocation lingers after its job run in that
    // allocation, one after another, with no new sbatch; with no linger each
    // job is a Slurm job of its own.
    void waitingJobsReuseALingeringAllocation() {
        const auto slurmJobOf = [](const eval::JobOutcome& o) {
            const auto text = o.resultJson.value_or("");
            const auto at = text.find("\"job\": \"");
            return at == std::string::npos ? std::string("(none: " + o.infraError + ")")
                                           : text.substr(at + 8, text.find('"', at + 8) - at - 8);
        };
        // run.sh writes {"status": "ok", "job": "<its Slurm job id>"}.
        const std::string script = "echo \"{\\\"status\\\": \\\"ok\\\", \\\"job\\\": \\\"$SLURM_JOB_ID\\\"}\" > result.json\n";
        for (const double linger : {3.0, 0.0}) {
            auto cfg = config();
            cfg.maxJobs = 1;
            cfg.lingerS = linger;
            auto executor = eval::SlurmExecutor::create(cfg);
            QVERIFY(executor.ok());
            std::vector<std::future<eval::JobOutcome>> futures;
            const int jobs = linger > 0 ? 4 : 2;
            for (int i = 0; i < jobs; ++i) {
                const auto name = "reuse-" + std::to_string(static_cast<int>(linger)) + "-" + std::to_string(i);
                futures.push_back((*executor)->submit(request(scriptJob(name, script), name)));
            }
            std::set<std::string> allocations;
            for (auto& f : futures) {
                const auto o = f.get();
                QVERIFY2(o.resultJson && o.infraError.empty(), (o.infraError + o.logTail).c_str());
                allocations.insert(slurmJobOf(o));
            }
            QCOMPARE(allocations.size(), linger > 0 ? std::size_t(1) : std::size_t(jobs));
        }
    }

    void configErrorsSayWhatToFix() {
        const auto message = [](eval::SlurmExecutorConfig c) {
            auto made = eval::SlurmExecutor::create(c);
            return made ? std::string("(accepted)") : made.error().message;
        };
        auto c = config();
        c.sharedDir.clear();
        QVERIFY(message(c).find("--slurm-dir") != std::string::npos);
        c.sharedDir = "relative/dir";
        QVERIFY(message(c).find("absolute") != std::string::npos);
        c = config();
        c.maxJobs = 0;
        QVERIFY(message(c).find("--slurm-jobs") != std::string::npos);
    }

  private:
    eval::SlurmExecutorConfig config() const {
        eval::SlurmExecutorConfig c;
        c.sharedDir = root_ / "shared";
        c.maxJobs = 2;
        c.maxPollIntervalS = 2;
        return c;
    }

    std::filesystem::path scriptJob(const std::string& name, const std::string& script) const {
        const auto dir = root_ / "jobs" / name;
        std::filesystem::create_directories(dir);
        [[maybe_unused]] auto s = writeFileAtomic(dir / "run.sh", script);
        return dir;
    }

    static eval::JobRequest request(const std::filesystem::path& dir, const std::string& key, double wallLimit = 60) {
        eval::JobRequest r;
        r.dir = dir;
        r.limits.wallTimeoutS = wallLimit;
        r.key = key;
        return r;
    }

    QTemporaryDir dir_;
    std::filesystem::path root_;
    std::unique_ptr<test::SlurmCluster> cluster_;
};

QTEST_GUILESS_MAIN(TestSlurmExecutor)
#include "tst_slurm_executor.moc"
