// With the static rules off, the run-time barrier alone must make escapes
// fail without effect: no network, no writes outside the job dir, fork bombs
// contained. The kernel runner's seccomp filter stops such a candidate at its
// first attempt (sandbox_violation); bubblewrap stands behind it. Targets are
// left world-writable so that only the barrier stops them.
#include "eval/remote_sandbox.h"
#include "eval_fixture.h"
#include "util/files.h"

#include <QtCore/QDir>
#include <QtCore/QProcess>
#include <QtCore/QStandardPaths>
#include <QtNetwork/QTcpServer>
#include <QtTest/QtTest>

#include <set>

#include <sys/stat.h>
#include <unistd.h>

using namespace kw;

namespace {
// A job of only a run.sh (`script`) in <root>/<name>, writable by a sandbox
// user: a request for the executor, which runs it as it would any job.
eval::JobRequest scriptJob(const QTemporaryDir& root, const std::string& name, const std::string& script, double wallS) {
    chmod(root.path().toUtf8().constData(), 0755);
    const auto d = std::filesystem::path(root.path().toStdString()) / name;
    std::filesystem::create_directories(d / "build");
    (void)writeFileAtomic(d / "run.sh", "#!/usr/bin/env bash\n" + script);
    chmod(d.c_str(), 0777);
    chmod((d / "build").c_str(), 0777);
    eval::JobRequest r;
    r.dir = d;
    r.limits.wallTimeoutS = wallS;
    return r;
}
} // namespace

class TestSandbox : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        auto spec = problem::loadProblem(test::problemDir("saxpy"));
        QVERIFY(spec.ok());
        saxpy_ = *spec;
        options_.checkOnly = true;
        options_.useCache = false;
        options_.staticRules = false;
        QVERIFY2(
            eval::probeSandbox().available,
            ("bubblewrap must be usable for these tests (packaging/bootstrap.sh installs it): " + eval::probeSandbox().reason)
                .c_str());
    }

    void networkConnectionsNeverArrive() {
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        test::EvalFixture fixture(1);
        auto r = fixture.evaluator().evaluate(
            saxpy_, test::EvalFixture::candidate("saxpy", "tcp_connect", {{"PORT", std::to_string(server.serverPort())}}),
            options_);
        QVERIFY(r.ok());
        // The attempt itself ends the candidate.
        QCOMPARE(eval::statusName(r->status), std::string("sandbox_violation"));
        QVERIFY(!server.waitForNewConnection(200));
        QVERIFY(!server.hasPendingConnections());
    }

    void writesToHomeHaveNoEffect() {
        QTemporaryDir home(QDir::currentPath() + "/fake-home-XXXXXX");
        QVERIFY(home.isValid());
        chmod(home.path().toUtf8().constData(), 0777);
        const QByteArray oldHome = qgetenv("HOME");
        qputenv("HOME", home.path().toUtf8());
        test::EvalFixture fixture(1);
        auto r = fixture.evaluator().evaluate(saxpy_, test::EvalFixture::candidate("saxpy", "write_home"), options_);
        qputenv("HOME", oldHome);
        QVERIFY(r.ok());
        QVERIFY2(r->correct(), r->message.c_str());
        QVERIFY(!QFile::exists(home.path() + "/kernelwright-escape-probe"));
    }

    void writesBesideTheJobDirHaveNoEffect() {
        test::EvalFixture fixture(1);
        auto job = fixture.evaluator().prepare(saxpy_, test::EvalFixture::candidate("saxpy", "write_outside"), options_);
        QVERIFY(job.ok() && !job->finished);
        chmod(fixture.jobsRoot().c_str(), 0777);
        const auto outcome = fixture.executor().submit(job->request).get();
        const auto r = fixture.evaluator().finish(saxpy_, *job, outcome);
        QVERIFY2(r.status == eval::EvalStatus::SandboxViolation, r.message.c_str());
        QVERIFY(!std::filesystem::exists(fixture.jobsRoot() / "kernelwright-escape-probe"));
    }

    void forgedResultFilesAreDiscarded() {
        test::EvalFixture fixture(1);
        auto r = fixture.evaluator().evaluate(saxpy_, test::EvalFixture::candidate("saxpy", "forges_result"), options_);
        QVERIFY(r.ok());
        // Opening result.json for writing ends the candidate before it writes a byte.
        QCOMPARE(eval::statusName(r->status), std::string("sandbox_violation"));
        QVERIFY2(r->message.find("writing files") != std::string::npos, r->message.c_str());
        QVERIFY(!r->speedup);
    }

    void forkBombsAreContained() {
        test::EvalFixture fixture(1);
        auto r = fixture.evaluator().evaluate(saxpy_, test::EvalFixture::candidate("saxpy", "fork_bomb"), options_);
        QVERIFY(r.ok());
        // Its first fork ends it.
        QVERIFY2(r->status == eval::EvalStatus::SandboxViolation, (eval::statusName(r->status) + ": " + r->message).c_str());
        QVERIFY2(r->wallSeconds < 60, std::to_string(r->wallSeconds).c_str());
        // This machine can still start processes.
        QProcess p;
        p.start("/bin/true", {});
        QVERIFY(p.waitForFinished(5000));
        QCOMPARE(p.exitCode(), 0);
    }

    // Two sessions (two executors) never run jobs as the same user, so one's
    // jobs cannot use up the other's process limit.
    void sessionsRunJobsAsUsersOfTheirOwn() {
        if (geteuid() != 0) QSKIP("only root switches jobs to sandbox users");
        eval::LocalExecutorConfig config;
        config.workers = 2;
        auto a = eval::LocalExecutor::create(config);
        auto b = eval::LocalExecutor::create(config);
        QVERIFY(a && b);
        QVERIFY((*a)->sandboxUid(0) != (*b)->sandboxUid(0));
        QVERIFY((*a)->sandboxUid(1) != (*b)->sandboxUid(0) && (*b)->sandboxUid(1) != (*a)->sandboxUid(0));
        const unsigned first = (*a)->sandboxUid(0);
        a->reset(); // its block is free again
        auto c = eval::LocalExecutor::create(config);
        QVERIFY(c);
        QCOMPARE((*c)->sandboxUid(0), first);
    }

    // A job may start tasks for every CPU it may use: each of a torch job's
    // processes starts a thread per CPU, and on a 64-core host a flat 256
    // left CUDA unable to start its own. Here a job starts 256 + 8 per CPU
    // processes at once (a flat limit of 256 refused them).
    void jobsMayStartTasksForEveryCpu() {
        eval::LocalExecutorConfig config;
        config.workers = 1;
        auto executor = eval::LocalExecutor::create(config);
        QVERIFY(executor.ok());
        QTemporaryDir root;
        QVERIFY(root.isValid());
        const auto r = scriptJob(root, "job",
                                 "n=$(( 256 + 8 * $(nproc) ))\n"
                                 "for i in $(seq $n); do sleep 20 & done 2> build/fork.err\n"
                                 "running=$(jobs -p | wc -l)\n"
                                 "kill $(jobs -p) 2> /dev/null\n"
                                 "echo \"{\\\"wanted\\\": $n, \\\"running\\\": $running, \\\"refused\\\": "
                                 "$(grep -c fork build/fork.err)}\" > result.json\n",
                                 120);
        const auto outcome = (*executor)->submit(r).get();
        const auto json = nlohmann::json::parse(outcome.resultJson.value_or("null"), nullptr, false);
        QVERIFY2(json.is_object(), (outcome.infraError + outcome.logTail).c_str());
        QCOMPARE(json["refused"].get<int>(), 0);
        QCOMPARE(json["running"].get<int>(), json["wanted"].get<int>());
        QCOMPARE(eval::jobTaskBudget(config, 64), std::uint64_t{256 + 16 * 64});
    }

    // A job that maps device memory (torch) is bounded by its data segment:
    // CUDA maps tens of GiB of address space it never touches, and an
    // address-space limit failed the judge's own allocations. Others keep
    // the address-space limit.
    void deviceJobsAreBoundedByDataNotAddressSpace() {
        eval::LocalExecutorConfig config;
        config.workers = 1;
        config.memoryLimitBytes = 3ull << 30;
        auto executor = eval::LocalExecutor::create(config);
        QVERIFY(executor.ok());
        QTemporaryDir root;
        QVERIFY(root.isValid());
        const auto limitsOf = [&](bool device) {
            // Prints the two limits' soft values as JSON.
            auto r = scriptJob(root, device ? "device" : "host",
                               "as=$(awk '/^Max address space/ {print $4}' /proc/self/limits)\n"
                               "ds=$(awk '/^Max data size/ {print $4}' /proc/self/limits)\n"
                               "echo \"{\\\"as\\\": \\\"$as\\\", \\\"data\\\": \\\"$ds\\\"}\" > result.json\n",
                               30);
            r.limits.mapsDeviceMemory = device;
            const auto outcome = (*executor)->submit(r).get();
            return outcome.resultJson.value_or(outcome.infraError + outcome.logTail);
        };
        const std::string bytes = std::to_string(3ull << 30);
        const auto device = limitsOf(true), host = limitsOf(false);
        QVERIFY2(device.find("\"as\": \"unlimited\"") != std::string::npos, device.c_str());
        QVERIFY2(device.find("\"data\": \"" + bytes + "\"") != std::string::npos, device.c_str());
        QVERIFY2(host.find("\"as\": \"" + bytes + "\"") != std::string::npos, host.c_str());
        QVERIFY2(host.find("\"data\": \"unlimited\"") != std::string::npos, host.c_str());
    }

    // --gpus: each worker's jobs see only its own GPU and take the timing
    // lock of that GPU (the job reads both: the environment, and what its
    // descriptor 3 is). Two jobs held side by side land on the two workers.
    void eachWorkerSeesItsOwnGpu() {
        QTemporaryDir root;
        QVERIFY(root.isValid());
        chmod(root.path().toUtf8().constData(), 0755);
        eval::LocalExecutorConfig config;
        config.gpus = {"3", "5"};
        config.timingLockFile = std::filesystem::path(root.path().toStdString()) / "locks" / "timing.lock";
        auto executor = eval::LocalExecutor::create(config);
        QVERIFY2(executor.ok(), executor.ok() ? "" : executor.error().message.c_str());
        QCOMPARE((*executor)->slotCount(), std::size_t{2});
        std::vector<std::future<eval::JobOutcome>> jobs;
        const auto gate = std::filesystem::path(root.path().toStdString()) / "gate";
        for (int i = 0; i < 2; ++i) {
            // Each job waits until both have started, so they hold both workers at once.
            jobs.push_back((*executor)->submit(scriptJob(
                root, "job" + std::to_string(i),
                "touch " + gate.string() + std::to_string(i) + "\nfor n in $(seq 200); do [ -e " + gate.string() +
                    "0 ] && [ -e " + gate.string() +
                    "1 ] && break; sleep 0.05; done\n"
                    "lock=$(readlink /proc/self/fd/3)\n"
                    "echo \"{\\\"gpu\\\": \\\"$CUDA_VISIBLE_DEVICES\\\", \\\"lock\\\": \\\"$lock\\\"}\" > result.json\n",
                60)));
        }
        std::set<std::string> gpus, locks;
        for (auto& j : jobs) {
            const auto outcome = j.get();
            const auto json = nlohmann::json::parse(outcome.resultJson.value_or("null"), nullptr, false);
            QVERIFY2(json.is_object(), (outcome.infraError + outcome.logTail).c_str());
            gpus.insert(json["gpu"].get<std::string>());
            locks.insert(std::filesystem::path(json["lock"].get<std::string>()).filename().string());
        }
        QCOMPARE(gpus, (std::set<std::string>{"3", "5"}));
        QCOMPARE(locks, (std::set<std::string>{"timing-gpu3.lock", "timing-gpu5.lock"}));
        config.gpus = {"0", "x"};
        QVERIFY(!eval::LocalExecutor::create(config).ok()); // not a device number
    }

    void requiredPolicyRefusesWithoutBubblewrap() {
        QProcess cli;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("PATH", "/nonexistent");
        cli.setProcessEnvironment(env);
        QTemporaryDir dir;
        cli.start(test::cliPath(),
                  {"--db", dir.path() + "/ws.db", "eval", "--problem", QString::fromStdString(test::problemDir("saxpy").string()),
                   "--reference", "--sandbox", "required"});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 1);
        const QString err = QString::fromUtf8(cli.readAllStandardError());
        QVERIFY2(err.contains("refusing to run candidates unsandboxed"), qPrintable(err));
        QVERIFY2(err.contains("bubblewrap"), qPrintable(err));
    }

    // The script that ssh hosts and Slurm nodes run jobs through, run here as
    // they run it: bubblewrap where it works, a refusal where it is required
    // and missing, the command as it is where it is only preferred.
    void remoteHostsRunJobsInBubblewrap() {
        if (!eval::probeSandbox().available) QSKIP("bubblewrap cannot make a sandbox on this machine");
        QTemporaryDir dir;
        const std::filesystem::path d = dir.path().toStdString();
        QVERIFY(eval::writeRemoteSandbox(d).ok());
        const auto run = [&](const QString& policy, const QString& command, const QString& path) {
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            if (!path.isEmpty()) env.insert("PATH", path);
            p.setProcessEnvironment(env);
            p.setWorkingDirectory(dir.path());
            p.start("/bin/bash",
                    {"--norc", QString::fromStdString(eval::kRemoteSandboxFile), policy, "/bin/bash", "-c", command});
            p.waitForFinished(30000);
            const auto how = readTextFile(d / "build" / "sandbox");
            return std::pair{p.exitCode(), how ? *how : std::string()};
        };
        // Sandboxed: the job dir is writable, nothing beside it, no network.
        const QString probe =
            "touch inside && ! touch /var/tmp/kw-outside-$$ 2>/dev/null && [ \"$(grep -c : /proc/net/dev)\" = 1 ]";
        auto [rc, how] = run("required", probe, "");
        QCOMPARE(rc, 0);
        QCOMPARE(how, std::string("bubblewrap\n"));
        QVERIFY(std::filesystem::exists(d / "inside"));
        // Off: the command as it is (here it can reach beside the job dir).
        std::tie(rc, how) = run("off", "touch /var/tmp/kw-outside-off && rm /var/tmp/kw-outside-off", "");
        QCOMPARE(rc, 0);
        QCOMPARE(how, std::string("none\n"));
        // No bubblewrap on the host (PATH without it): required refuses, preferred runs.
        const QString bin = dir.path() + "/bin";
        QDir().mkpath(bin);
        for (const char* tool : {"mkdir", "true"}) QVERIFY(QFile::link(QStandardPaths::findExecutable(tool), bin + "/" + tool));
        std::tie(rc, how) = run("required", "touch ran", bin);
        QCOMPARE(rc, eval::kNoSandboxExit);
        QVERIFY(!std::filesystem::exists(d / "ran"));
        QVERIFY(eval::refusedForNoSandbox(d));
        const auto message = eval::noSandboxMessage(d, "gpu-7");
        QVERIFY2(message.find("gpu-7: bubblewrap (bwrap) is not installed") == 0 &&
                     message.find("--sandbox preferred") != std::string::npos,
                 message.c_str());
        std::tie(rc, how) = run("preferred", "echo > ran", bin);
        QCOMPARE(rc, 0);
        QCOMPARE(how, std::string("none\n"));
        QVERIFY(!eval::refusedForNoSandbox(d));
    }

  private:
    problem::ProblemSpec saxpy_;
    eval::EvalOptions options_;
};

QTEST_GUILESS_MAIN(TestSandbox)
#include "tst_sandbox.moc"
