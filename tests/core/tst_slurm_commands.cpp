// The Slurm executor's command lines and its reading of Slurm's output, and
// the executor profiles file: no cluster needed.
#include "eval/executor_profiles.h"
#include "eval/slurm_commands.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <fstream>

using namespace kw;
using namespace kw::eval;

namespace {

bool has(const std::vector<std::string>& argv, const std::string& arg) {
    return std::find(argv.begin(), argv.end(), arg) != argv.end();
}

std::string profileError(const std::string& text) {
    auto parsed = parseExecutorProfiles(text, "executors.json");
    return parsed ? std::string("(accepted)") : parsed.error().message;
}

} // namespace

class TestSlurmCommands : public QObject {
    Q_OBJECT
  private slots:
    void sbatchCarriesTheOptions() {
        SlurmSubmitOptions o;
        o.partition = "gpu";
        o.account = "kernels";
        o.qos = "high";
        o.gres = "gpu:1";
        o.extraArgs = {"--constraint=h100", "--mem=8G"};
        SlurmBatch b;
        b.script = "/shared/.kernelwright/run-job.sh";
        b.batchDir = "/shared/.kernelwright/batches/7-1";
        b.tasks = 3;
        b.wallLimitS = 600;
        const auto argv = sbatchCommand(o, b);
        QCOMPARE(argv.front(), std::string("sbatch"));
        for (const char* a :
             {"--parsable", "--no-requeue", "--job-name=kernelwright", "--partition=gpu", "--account=kernels", "--qos=high",
              "--gres=gpu:1", "--array=0-2", "--time=0-00:11:00", "--output=/shared/.kernelwright/batches/7-1/%a/slurm.out"})
            QVERIFY2(has(argv, a), a);
        // The user's arguments come after ours (sbatch keeps the last), then the script and its argument.
        QCOMPARE(argv[argv.size() - 4], std::string("--constraint=h100"));
        QCOMPARE(argv[argv.size() - 2], std::string("/shared/.kernelwright/run-job.sh"));
        QCOMPARE(argv.back(), std::string("/shared/.kernelwright/batches/7-1"));

        // One job: no array; an explicit time limit wins; no limit and no partition: none asked.
        b.tasks = 1;
        o.timeLimit = "2:00:00";
        auto single = sbatchCommand(o, b);
        QVERIFY(std::none_of(single.begin(), single.end(), [](const std::string& a) { return a.rfind("--array", 0) == 0; }));
        QVERIFY(has(single, "--time=2:00:00"));
        QVERIFY(has(single, "--output=/shared/.kernelwright/batches/7-1/0/slurm.out"));
        b.wallLimitS = 0;
        single = sbatchCommand(SlurmSubmitOptions{}, b);
        QVERIFY(std::none_of(single.begin(), single.end(), [](const std::string& a) {
            return a.rfind("--time", 0) == 0 || a.rfind("--partition", 0) == 0 || a.rfind("--gres", 0) == 0;
        }));
    }

    // Lingering allocations get the linger in milliseconds and the runners dir after the batch dir.
    void lingerFollowsTheBatchDir() {
        SlurmBatch b;
        b.script = "/s/run-job.sh";
        b.batchDir = "/s/batches/1-2";
        b.lingerS = 2.5;
        b.runnersDir = "/s/runners";
        const auto argv = sbatchCommand(SlurmSubmitOptions{}, b);
        QCOMPARE(argv[argv.size() - 4], std::string("/s/run-job.sh"));
        QCOMPARE(argv[argv.size() - 3], std::string("/s/batches/1-2"));
        QCOMPARE(argv[argv.size() - 2], std::string("2500"));
        QCOMPARE(argv.back(), std::string("/s/runners"));
    }

    void timeLimitsParseInEverySlurmForm() {
        QCOMPARE(parseSlurmTimeLimit("30"), std::optional<double>(1800));
        QCOMPARE(parseSlurmTimeLimit("5:30"), std::optional<double>(330));
        QCOMPARE(parseSlurmTimeLimit("2:00:00"), std::optional<double>(7200));
        QCOMPARE(parseSlurmTimeLimit("1-2"), std::optional<double>(93600));
        QCOMPARE(parseSlurmTimeLimit("1-02:30"), std::optional<double>(86400 + 9000));
        QCOMPARE(parseSlurmTimeLimit("0-00:11:00"), std::optional<double>(660));
        QCOMPARE(parseSlurmTimeLimit(slurmTimeLimit(3601)), std::optional<double>(3660));
        QVERIFY(std::isinf(*parseSlurmTimeLimit("UNLIMITED")));
        for (const char* bad : {"", "abc", "1:2:3:4", "1-", "-5", "10:", "1.5", "1-2:3:4:5"})
            QVERIFY2(!parseSlurmTimeLimit(bad), bad);
    }

    void timeLimitsAreWholeMinutes() {
        QCOMPARE(slurmTimeLimit(1), std::string("0-00:01:00"));
        QCOMPARE(slurmTimeLimit(61), std::string("0-00:02:00"));
        QCOMPARE(slurmTimeLimit(3600), std::string("0-01:00:00"));
        QCOMPARE(slurmTimeLimit(26 * 3600 + 1), std::string("1-02:01:00"));
    }

    void sbatchOutputGivesTheJobIds() {
        auto ids = parseSbatchOutput("4242\n", 1);
        QVERIFY(ids.ok());
        QCOMPARE(*ids, (std::vector<std::string>{"4242"}));
        ids = parseSbatchOutput("sbatch: warning: something\n77;cluster-a\n", 3);
        QVERIFY(ids.ok());
        QCOMPARE(*ids, (std::vector<std::string>{"77_0", "77_1", "77_2"}));
        QVERIFY(!parseSbatchOutput("", 1));
        QVERIFY(!parseSbatchOutput("Submitted batch job 12\n", 1)); // not --parsable
    }

    void squeueLinesBecomeStates() {
        const auto jobs = parseSqueueOutput("23|CANCELLED|None|15|vm|\n"
                                            "24_0|FAILED|NonZeroExitCode|768|vm|\n"
                                            "24_2|RUNNING|None|0|vm|\n"
                                            "25_[1-3,5]|PENDING|Resources|0||\n"
                                            "garbage\n");
        QCOMPARE(jobs.size(), std::size_t(7));
        QCOMPARE(jobs.at("23").state, std::string("CANCELLED"));
        QCOMPARE(jobs.at("23").exit, std::string("signal 15"));
        QCOMPARE(jobs.at("24_0").exit, std::string("exit 3"));
        QCOMPARE(jobs.at("24_0").reason, std::string("NonZeroExitCode"));
        QCOMPARE(jobs.at("24_2").node, std::string("vm"));
        for (const char* id : {"25_1", "25_2", "25_3", "25_5"}) QCOMPARE(jobs.at(id).state, std::string("PENDING"));
        QVERIFY(!jobs.count("25_4"));
    }

    void sacctLinesSkipSteps() {
        const auto jobs =
            parseSacctOutput("31|NODE_FAIL|None|0:0|node7\n31.batch|CANCELLED||0:15|node7\n32_1|CANCELLED by 0||0:15|\n");
        QCOMPARE(jobs.size(), std::size_t(2));
        QCOMPARE(jobs.at("31").state, std::string("NODE_FAIL"));
        QCOMPARE(jobs.at("32_1").exit, std::string("signal 15"));
        const auto argv = sacctCommand({"31", "32_1"}, true);
        QVERIFY(has(argv, "--completion"));
        QVERIFY(has(argv, "--jobs=31,32_1"));
    }

    void finalStatesAndWhatTheyMean() {
        for (const char* s :
             {"COMPLETED", "FAILED", "NODE_FAIL", "PREEMPTED", "TIMEOUT", "OUT_OF_MEMORY", "CANCELLED by 1000", "BOOT_FAIL"})
            QVERIFY2(slurmStateIsFinal(s), s);
        for (const char* s : {"PENDING", "RUNNING", "COMPLETING", "CONFIGURING", "REQUEUED", "SUSPENDED", ""})
            QVERIFY2(!slurmStateIsFinal(s), s);
        QCOMPARE(baseSlurmState("CANCELLED by 0"), std::string("CANCELLED"));

        const auto text = describeLostJob({"31", "NODE_FAIL", "None", "exit 0", "node7"});
        QVERIFY2(text.find("NODE_FAIL (exit 0, node node7)") == 0, text.c_str());
        QVERIFY2(text.find("node failed") != std::string::npos, text.c_str());
        QVERIFY(describeLostJob({"1", "TIMEOUT", "", "", ""}).find("--slurm-time") != std::string::npos);
        QVERIFY(describeLostJob({"1", "OUT_OF_MEMORY", "", "", ""}).find("--mem") != std::string::npos);
        QVERIFY(describeLostJob({"1", "PREEMPTED", "", "", ""}).find("preempted") != std::string::npos);
        QVERIFY(describeLostJob({"1", "CANCELLED by 0", "", "", ""}).find("outside Kernelwright") != std::string::npos);
        QVERIFY(describeLostJob({"1", "FAILED", "", "exit 97", ""}).find("shared dir") != std::string::npos);
        QVERIFY(describeLostJob({"1", "", "", "", ""}).find("no longer known") == 0);
    }

    void runRecordsParse() {
        auto r = parseRunRecord("124 1700000000.250 1700000002.750 node3\n");
        QVERIFY(r);
        QCOMPARE(r->exitCode, 124);
        QCOMPARE(r->wallSeconds, 2.5);
        QCOMPARE(r->host, std::string("node3"));
        r = parseRunRecord("0 1700000000,5 1700000001,0 n"); // a node whose locale writes decimal commas
        QVERIFY(r && r->wallSeconds == 0.5);
        QVERIFY(!parseRunRecord(""));
        QVERIFY(!parseRunRecord("x y z"));
    }

    void profilesParse() {
        auto profiles = parseExecutorProfiles(R"({"profiles": {
            "gpu-cluster": {"kind": "slurm", "dir": "/shared/kw", "partition": "gpu", "gres": "gpu:1", "jobs": 16,
                            "args": ["--constraint=h100"], "requeue": 3, "time": "00:30:00"},
            "h100box": {"kind": "ssh", "hosts": ["me@h100:2222", "h100b"], "gpus": "0,1", "dir": "/scratch/kw"},
            "here": {"kind": "local", "workers": 2, "sandbox": "required"}}})",
                                              "executors.json");
        QVERIFY2(profiles.ok(), profiles.ok() ? "" : profiles.error().message.c_str());
        const auto& slurm = profiles->at("gpu-cluster");
        QVERIFY(slurm.kind == ExecutorKind::Slurm);
        QCOMPARE(slurm.slurm.sharedDir, std::filesystem::path("/shared/kw"));
        QCOMPARE(slurm.slurm.submit.partition, std::string("gpu"));
        QCOMPARE(slurm.slurm.submit.gres, std::string("gpu:1"));
        QCOMPARE(slurm.slurm.submit.timeLimit, std::string("00:30:00"));
        QCOMPARE(slurm.slurm.maxJobs, std::size_t(16));
        QCOMPARE(slurm.slurm.requeueAttempts, 3);
        QCOMPARE(slurm.slurm.submit.extraArgs, std::vector<std::string>{"--constraint=h100"});
        const auto& ssh = profiles->at("h100box");
        QVERIFY(ssh.kind == ExecutorKind::Ssh);
        QCOMPARE(ssh.ssh.hosts.size(), std::size_t(2));
        QCOMPARE(ssh.ssh.hosts[0].port, 2222);
        QCOMPARE(ssh.ssh.hosts[1].slotCount, std::size_t(2));
        QCOMPARE(ssh.ssh.hosts[1].remoteDir, std::string("/scratch/kw"));
        const auto& local = profiles->at("here");
        QVERIFY(local.kind == ExecutorKind::Local);
        QCOMPARE(local.local.workers, std::size_t(2));
        QVERIFY(local.local.sandbox == SandboxPolicy::Required);
    }

    void malformedProfilesSayWhere() {
        QVERIFY(profileError("{").find("not valid JSON") != std::string::npos);
        QVERIFY(profileError("[]").find("expected {\"profiles\"") != std::string::npos);
        auto e = profileError(R"({"profiles": {"c": {"kind": "slurm"}}})");
        QVERIFY2(e.find("profile \"c\": \"dir\" must be") != std::string::npos, e.c_str());
        e = profileError(R"({"profiles": {"c": {"kind": "slurm", "dir": "/s", "partiton": "gpu"}}})");
        QVERIFY2(e.find("unknown key \"partiton\"") != std::string::npos && e.find("partition") != std::string::npos, e.c_str());
        e = profileError(R"({"profiles": {"c": {"kind": "slurm", "dir": "/s", "jobs": 0}}})");
        QVERIFY2(e.find("\"jobs\" must be a whole number of at least 1") != std::string::npos, e.c_str());
        e = profileError(R"({"profiles": {"c": {"kind": "pbs"}}})");
        QVERIFY2(e.find("unknown executor kind 'pbs'") != std::string::npos, e.c_str());
        e = profileError(R"({"profiles": {"c": {"kind": "ssh", "hosts": []}}})");
        QVERIFY2(e.find("\"hosts\" must be") != std::string::npos, e.c_str());
        e = profileError(R"({"profiles": {"c": {"dir": "/s"}}})");
        QVERIFY2(e.find("\"kind\" is missing") != std::string::npos, e.c_str());

        QTemporaryDir dir;
        const auto file = std::filesystem::path(dir.path().toStdString()) / "executors.json";
        QVERIFY(loadExecutorProfiles(file).ok() && loadExecutorProfiles(file)->empty()); // no file: no profiles
        { std::ofstream(file) << R"({"profiles": {"a": {"kind": "local"}, "b": {"kind": "local"}}})"; }
        auto missing = findExecutorProfile(file, "c");
        QVERIFY(!missing);
        QVERIFY2(missing.error().message.find("it has: a, b") != std::string::npos, missing.error().message.c_str());
        QVERIFY(findExecutorProfile(file, "b").ok());
    }
};

QTEST_GUILESS_MAIN(TestSlurmCommands)
#include "tst_slurm_commands.moc"
