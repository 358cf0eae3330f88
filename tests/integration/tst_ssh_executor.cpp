// The ssh executor against a real sshd that this suite starts on 127.0.0.1
// (as the current user, with keys of its own): jobs go over, run and come
// back; what the candidate does is reported as locally; a host that cannot be
// reached is an infra error, never the candidate's failure.
#include "cli_runner.h"
#include "test_support.h"

#include "eval/evaluator.h"
#include "eval/local_executor.h"
#include "eval/ssh_executor.h"
#include "problem/problem_loader.h"
#include "store/database.h"
#include "util/files.h"

#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

using namespace kw;
using eval::EvalStatus;

namespace {

// A port on 127.0.0.1 that nothing listens on (bound, then released).
int freePort() {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
        close(fd);
        return 0;
    }
    close(fd);
    return ntohs(addr.sin_port);
}

bool accepts(int port) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    const bool ok = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    close(fd);
    return ok;
}

bool run(const QString& program, const QStringList& args) {
    QProcess p;
    p.start(program, args);
    return p.waitForFinished(30000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

struct Proc {
    pid_t pid = 0, ppid = 0, group = 0, session = 0;
    char state = 0;
};

std::vector<Proc> processes() {
    std::vector<Proc> all;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
        const auto name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream stat(entry.path() / "stat");
        std::string line;
        std::getline(stat, line);
        const auto close = line.rfind(')');
        if (close == std::string::npos) continue;
        Proc p;
        p.pid = std::stoi(name);
        std::istringstream rest(line.substr(close + 2));
        rest >> p.state >> p.ppid >> p.group >> p.session;
        all.push_back(p);
    }
    return all;
}

// The processes below `root` whose executable is sshd: the listener's
// per-connection children, not the shells and jobs they started.
std::vector<pid_t> sshdDescendants(pid_t root) {
    std::map<pid_t, std::vector<pid_t>> children;
    for (const auto& p : processes()) children[p.ppid].push_back(p.pid);
    std::vector<pid_t> found, todo{root};
    std::error_code ec;
    while (!todo.empty()) {
        const pid_t p = todo.back();
        todo.pop_back();
        for (pid_t c : children[p]) {
            todo.push_back(c);
            const auto exe = std::filesystem::read_symlink("/proc/" + std::to_string(c) + "/exe", ec).string();
            if (exe.find("sshd") != std::string::npos) found.push_back(c);
        }
    }
    return found;
}

bool sessionAlive(pid_t session) {
    for (const auto& p : processes())
        if (p.session == session && p.state != 'Z') return true;
    return false;
}

} // namespace

class TestSshExecutor : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        if (!std::filesystem::exists("/usr/sbin/sshd"))
            QFAIL("no /usr/sbin/sshd: install openssh-server (packaging/bootstrap.sh does)");
        QVERIFY(dir_.isValid());
        root_ = dir_.path().toStdString();
        // Jobs the local executor runs as root drop to another uid, which must reach the job dirs.
        chmod(root_.c_str(), 0711);
        if (geteuid() == 0) std::filesystem::create_directories("/run/sshd"); // sshd's privilege separation dir
        for (const char* key : {"host_key", "user_key"})
            QVERIFY2(run("ssh-keygen", {"-q", "-t", "ed25519", "-N", "", "-C", "kernelwright-test", "-f",
                                        QString::fromStdString((root_ / key).string())}),
                     key);
        auto pub = readTextFile(root_ / "user_key.pub");
        QVERIFY(pub.ok());
        QVERIFY(writeFileAtomic(root_ / "authorized_keys", *pub).ok());
        port_ = freePort();
        QVERIFY(port_ > 0);
        const std::string config = "Port " + std::to_string(port_) + "\nListenAddress 127.0.0.1\nHostKey " +
                                   (root_ / "host_key").string() + "\nAuthorizedKeysFile " +
                                   (root_ / "authorized_keys").string() + "\nPidFile " + (root_ / "sshd.pid").string() +
                                   "\nStrictModes no\nUsePAM no\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                                   "PermitRootLogin prohibit-password\nMaxStartups 64\n";
        QVERIFY(writeFileAtomic(root_ / "sshd_config", config).ok());
        const passwd* pw = getpwuid(geteuid());
        QVERIFY(pw);
        user_ = pw->pw_name;
        QVERIFY(startSshd());

        auto spec = problem::loadProblem(test::problemDir("saxpy"));
        QVERIFY2(spec.ok(), spec.ok() ? "" : spec.error().message.c_str());
        saxpy_ = *spec;
    }

    void cleanupTestCase() { stopSshd(); }

    void configErrorsSayWhatToFix() {
        QVERIFY(!eval::SshExecutor::create({}));
        QVERIFY(eval::SshExecutor::create({}).error().message.find("--ssh-host") != std::string::npos);
        const auto message = [&](auto change) {
            auto c = config();
            change(c.hosts[0]);
            auto made = eval::SshExecutor::create(c);
            return made ? std::string("(accepted)") : made.error().message;
        };
        QVERIFY(message([](eval::SshHost& h) { h.host.clear(); }).find("host name is empty") != std::string::npos);
        QVERIFY(message([](eval::SshHost& h) { h.slotCount = 0; }).find("--ssh-slots") != std::string::npos);
        QVERIFY(message([](eval::SshHost& h) { h.gpus = {"0", "1"}; }).find("2 GPU(s) given for 1 slot(s)") != std::string::npos);
        QVERIFY(message([](eval::SshHost& h) { h.identityFile = "/nonexistent/key"; }).find("/nonexistent/key does not exist") !=
                std::string::npos);
        QVERIFY(message([](eval::SshHost& h) { h.remoteDir = "jobs"; }).find("absolute") != std::string::npos);

        auto t = eval::parseSshTarget("me@gpu-box:2222");
        QVERIFY(t.ok());
        QCOMPARE(t->user, std::string("me"));
        QCOMPARE(t->host, std::string("gpu-box"));
        QCOMPARE(t->port, 2222);
        t = eval::parseSshTarget("[::1]:2200");
        QVERIFY(t.ok() && t->host == "::1" && t->port == 2200 && t->user.empty());
        QVERIFY(!eval::parseSshTarget("me@host:x"));
        QVERIFY(!eval::parseSshTarget("me@"));
    }

    // (a) and (d): real evaluations of the test problem, run side by side.
    void evaluatesCandidatesOnTheHost() {
        auto executor = eval::SshExecutor::create(config(3));
        QVERIFY2(executor.ok(), executor.ok() ? "" : executor.error().message.c_str());
        auto db = store::Database::open(root_ / "ws.db");
        QVERIFY(db.ok());
        eval::EvaluatorConfig ec;
        ec.jobsRoot = root_ / "eval-jobs";
        eval::Evaluator evaluator(**executor, &*db, ec);
        eval::EvalOptions options;
        options.useCache = false;
        options.timeBudgetS = 0.1;
        options.minReps = 3;
        options.maxReps = 20;

        struct Case {
            eval::Candidate candidate;
            EvalStatus status;
            std::string messagePart;
        };
        std::vector<Case> cases{{{"unrolled", saxpy_.seeds[0].text, {{"UNROLL", "4"}}}, EvalStatus::Ok, ""},
                                {candidate("compile_error"), EvalStatus::CompileError, "does not compile"},
                                {candidate("segfault"), EvalStatus::RuntimeError, "segmentation fault"}};
        std::vector<eval::PreparedJob> jobs;
        std::vector<std::future<eval::JobOutcome>> outcomes;
        for (const auto& c : cases) {
            auto job = evaluator.prepare(saxpy_, c.candidate, options);
            QVERIFY2(job.ok() && !job->finished, c.candidate.name.c_str());
            outcomes.push_back((*executor)->submit(job->request));
            jobs.push_back(std::move(*job));
        }
        for (std::size_t i = 0; i < cases.size(); ++i) {
            const auto outcome = outcomes[i].get();
            const auto r = evaluator.finish(saxpy_, jobs[i], outcome);
            const std::string what = cases[i].candidate.name + ": " + eval::statusName(r.status) + ": " + r.message;
            QVERIFY2(r.status == cases[i].status, what.c_str());
            QVERIFY2(r.message.find(cases[i].messagePart) != std::string::npos, what.c_str());
            if (r.status == EvalStatus::Ok) {
                QVERIFY2(r.speedup && *r.speedup > 0, what.c_str());
                QVERIFY(r.compileSeconds > 0); // build/times came back
            }
        }
        QVERIFY2(remoteIsClean(), remoteListing().c_str());
        // Neither the job dirs nor the executor's scratch stay behind locally.
        QVERIFY(std::filesystem::is_empty(ec.jobsRoot));

        // The host's result is cached for the host, never for this machine:
        // the same evaluation here must run, not be served the host's timings.
        options.useCache = true;
        auto again = evaluator.prepare(saxpy_, cases[0].candidate, options);
        QVERIFY(again.ok());
        QVERIFY2(again->finished && again->finished->cached, "the same evaluation on the same host comes from the cache");
        auto local = eval::LocalExecutor::create({});
        QVERIFY(local.ok());
        eval::Evaluator here(**local, &*db, ec);
        auto mine = here.prepare(saxpy_, cases[0].candidate, options);
        QVERIFY(mine.ok());
        QVERIFY2(!mine->finished, "a result measured on the ssh host stood in for this machine");
        QVERIFY(mine->cacheKey != again->cacheKey);
        std::error_code rmError;
        std::filesystem::remove_all(mine->request.dir, rmError);
    }

    // (b)
    void slotsRunJobsAtOnce() {
        auto executor = eval::SshExecutor::create(config(2));
        QVERIFY(executor.ok());
        const std::string script =
            "s=$(date +%s.%N); sleep 1; echo \"{\\\"start\\\": $s, \\\"end\\\": $(date +%s.%N)}\" > result.json\n";
        auto a = (*executor)->submit(request(scriptJob("a", script)));
        auto b = (*executor)->submit(request(scriptJob("b", script)));
        const auto ra = a.get(), rb = b.get();
        QVERIFY2(ra.resultJson && rb.resultJson, (ra.infraError + rb.infraError + ra.logTail + rb.logTail).c_str());
        const auto ja = nlohmann::json::parse(*ra.resultJson), jb = nlohmann::json::parse(*rb.resultJson);
        const double start = std::max(ja["start"].get<double>(), jb["start"].get<double>());
        const double end = std::min(ja["end"].get<double>(), jb["end"].get<double>());
        QVERIFY2(start < end, "the two jobs did not overlap");
        QVERIFY2(remoteIsClean(), remoteListing().c_str());
    }

    // (c)
    void unreachableHostIsAnInfraError() {
        auto c = config(1, {}, freePort());
        c.connectAttempts = 2;
        c.retryBaseS = 0.05;
        auto executor = eval::SshExecutor::create(c);
        QVERIFY(executor.ok());
        const auto start = std::chrono::steady_clock::now();
        const auto outcome = (*executor)->submit(request(scriptJob("unreachable", "echo '{}' > result.json\n"))).get();
        QVERIFY(!outcome.resultJson);
        QVERIFY(!outcome.timedOut && !outcome.stopped);
        QVERIFY2(outcome.infraError.find("127.0.0.1:" + std::to_string(c.hosts[0].port)) != std::string::npos,
                 outcome.infraError.c_str());
        QVERIFY2(outcome.infraError.find("(after 2 attempts)") != std::string::npos, outcome.infraError.c_str());
        QVERIFY(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));

        // Through the evaluator it is infra_error, not the candidate's status.
        eval::EvaluatorConfig ec;
        ec.jobsRoot = root_ / "unreachable-jobs";
        eval::Evaluator evaluator(**executor, nullptr, ec);
        eval::EvalOptions options;
        options.useCache = false;
        auto r = evaluator.evaluate(saxpy_, {"reference", saxpy_.reference.text, {}}, options);
        QVERIFY(r.ok());
        QCOMPARE(eval::statusName(r->status), std::string("infra_error"));
        QVERIFY2(r->message.find("127.0.0.1") != std::string::npos, r->message.c_str());
    }

    // (e) and run.sh's own failures: reported exactly as the local executor reports them.
    void jobFailuresReadAsLocally() {
        auto ssh = eval::SshExecutor::create(config());
        QVERIFY(ssh.ok());
        eval::LocalExecutorConfig lc;
        lc.workers = 1;
        lc.sandbox = eval::SandboxPolicy::Off;
        lc.exclusiveTiming = false;
        auto local = eval::LocalExecutor::create(lc);
        QVERIFY(local.ok());
        const auto both = [&](const std::string& name, const std::string& script, double wallLimit) {
            auto remote = (*ssh)->submit(request(scriptJob(name + "-ssh", script), wallLimit));
            auto here = (*local)->submit(request(scriptJob(name + "-local", script), wallLimit));
            return std::pair{remote.get(), here.get()};
        };

        const auto start = std::chrono::steady_clock::now();
        const auto [slow, slowHere] = both("slow", "sleep 30; echo '{}' > result.json\n", 1);
        QVERIFY2(slow.timedOut && slowHere.timedOut, slow.infraError.c_str());
        QVERIFY(slow.infraError.empty() && !slow.resultJson && !slow.stopped);
        QVERIFY(std::chrono::steady_clock::now() - start < std::chrono::seconds(15));

        const auto [failing, failingHere] = both("failing", "echo 'no compiler here' >&2; exit 3\n", 30);
        QCOMPARE(failing.infraError, failingHere.infraError);
        QCOMPARE(failing.infraError, std::string("run.sh ended (exit 3) without writing result.json"));
        QVERIFY(!failing.timedOut && !failing.resultJson);
        QCOMPARE(failing.logTail, failingHere.logTail);

        const auto [profiled, profiledHere] =
            both("profiled", "mkdir -p profile; echo 7 > profile/counters.json; echo '{\"ok\": 1}' > result.json\n", 30);
        QCOMPARE(profiled.resultJson, profiledHere.resultJson);
        QCOMPARE(profiled.profileFiles, profiledHere.profileFiles);
        QCOMPARE(profiled.profileFiles.size(), std::size_t{1});
        QVERIFY2(remoteIsClean(), remoteListing().c_str());
    }

    // (f)
    void lostConnectionIsRetriedOrAnInfraError() {
        auto c = config();
        c.connectAttempts = 6;
        c.retryBaseS = 0.25;
        auto executor = eval::SshExecutor::create(c);
        QVERIFY(executor.ok());
        auto future = (*executor)->submit(request(scriptJob("survivor", "sleep 2; echo '{\"survived\": true}' > result.json\n")));
        // Once the job runs there, the connection goes away with sshd, then sshd comes back.
        QTRY_VERIFY_WITH_TIMEOUT(!startedJob().empty(), 10000);
        stopSshd();
        QVERIFY(!accepts(port_));
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        QVERIFY(startSshd());
        const auto outcome = future.get();
        // Never the candidate's failure: the executor reconnects and picks up
        // the job that kept running there (were sshd gone for good, the
        // outcome would be an infra error after the attempts).
        QVERIFY2(outcome.resultJson, outcome.infraError.c_str());
        QVERIFY(outcome.resultJson->find("survived") != std::string::npos);
        QVERIFY(!outcome.timedOut && outcome.infraError.empty());
        QVERIFY2(remoteIsClean(), remoteListing().c_str());
    }

    void stopCancelsTheJobThere() {
        auto executor = eval::SshExecutor::create(config());
        QVERIFY(executor.ok());
        std::stop_source stop;
        auto r = request(scriptJob("cancelled", "sleep 30; echo '{}' > result.json\n"));
        r.stop = stop.get_token();
        auto future = (*executor)->submit(r);
        std::filesystem::path pidFile;
        QTRY_VERIFY_WITH_TIMEOUT(!(pidFile = startedJob()).empty(), 10000);
        auto pid = readTextFile(pidFile);
        QVERIFY(pid.ok());
        const pid_t session = std::stoi(*pid); // the job's session on the "remote" host, which is this one
        QTRY_VERIFY_WITH_TIMEOUT(sessionAlive(session), 5000);
        const auto start = std::chrono::steady_clock::now();
        stop.request_stop();
        const auto outcome = future.get();
        QVERIFY(outcome.stopped);
        QVERIFY(outcome.infraError.empty() && !outcome.resultJson && !outcome.timedOut);
        QVERIFY(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
        QTRY_VERIFY_WITH_TIMEOUT(!sessionAlive(session), 5000); // sleep 30 included
        QVERIFY2(remoteIsClean(), remoteListing().c_str());
    }

    void unwritableRemoteDirIsAnInfraError() {
        auto c = config();
        c.hosts[0].remoteDir = "/proc/kernelwright-jobs";
        auto executor = eval::SshExecutor::create(c);
        QVERIFY(executor.ok());
        const auto outcome = (*executor)->submit(request(scriptJob("nowhere", "echo '{}' > result.json\n"))).get();
        QVERIFY(!outcome.resultJson && !outcome.timedOut);
        QVERIFY2(outcome.infraError.find("making the job dir in /proc/kernelwright-jobs") != std::string::npos,
                 outcome.infraError.c_str());
        QVERIFY2(outcome.infraError.find("--ssh-dir") != std::string::npos, outcome.infraError.c_str());
    }

    // (g)
    void eachSlotSeesItsGpu() {
        auto executor = eval::SshExecutor::create(config(2, {"7", ""}));
        QVERIFY(executor.ok());
        const std::string script = "sleep 0.5; echo \"{\\\"gpu\\\": \\\"${CUDA_VISIBLE_DEVICES-unset}\\\"}\" > result.json\n";
        auto a = (*executor)->submit(request(scriptJob("gpu-a", script)));
        auto b = (*executor)->submit(request(scriptJob("gpu-b", script)));
        std::set<std::string> seen;
        for (auto* f : {&a, &b}) {
            const auto o = f->get();
            QVERIFY2(o.resultJson, o.infraError.c_str());
            seen.insert(nlohmann::json::parse(*o.resultJson)["gpu"].get<std::string>());
        }
        QCOMPARE(seen, (std::set<std::string>{"7", "unset"}));
    }

    void cliEvaluatesOverSsh() {
        const auto r = test::runCli(
            {"--db", QString::fromStdString((root_ / "cli.db").string()), "eval", "--problem",
             QString::fromStdString(test::problemDir("saxpy").string()), "--reference", "--check-only", "--json", "--ssh-host",
             QString::fromStdString(user_ + "@127.0.0.1:" + std::to_string(port_)), "--ssh-key",
             QString::fromStdString((root_ / "user_key").string()), "--ssh-dir", QString::fromStdString(remoteDir().string()),
             "--ssh-option", QString::fromStdString("UserKnownHostsFile=" + (root_ / "known_hosts").string())});
        QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
        QCOMPARE(r.json()["status"].toString(), QString("ok"));

        const auto bad = test::runCli({"eval", "--problem", QString::fromStdString(test::problemDir("saxpy").string()),
                                       "--reference", "--executor", "local", "--ssh-slots", "2"});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("--ssh-slots applies to --executor ssh"), qPrintable(bad.err));
    }

  private:
    eval::SshExecutorConfig config(std::size_t slotCount = 1, std::vector<std::string> gpus = {}, int port = 0) const {
        eval::SshHost h;
        h.host = "127.0.0.1";
        h.user = user_;
        h.port = port ? port : port_;
        h.identityFile = root_ / "user_key";
        h.remoteDir = remoteDir().string();
        h.slotCount = slotCount;
        h.gpus = std::move(gpus);
        eval::SshExecutorConfig c;
        c.hosts = {h};
        c.knownHostsFile = root_ / "known_hosts"; // not the user's own
        c.retryBaseS = 0.2;
        c.connectTimeoutS = 5;
        return c;
    }

    std::filesystem::path remoteDir() const { return root_ / "remote"; }

    // The pid file of a job that has started on the host; empty while there is none.
    std::filesystem::path startedJob() const {
        std::error_code ec;
        for (const auto& e : std::filesystem::directory_iterator(remoteDir(), ec))
            if (std::filesystem::exists(e.path() / "build" / "runsh.pid")) return e.path() / "build" / "runsh.pid";
        return {};
    }

    // A job dir whose run.sh is `script`.
    std::filesystem::path scriptJob(const std::string& name, const std::string& script) const {
        const auto d = root_ / "script-jobs" / name;
        std::filesystem::remove_all(d);
        std::filesystem::create_directories(d / "build");
        (void)writeFileAtomic(d / "run.sh", "#!/usr/bin/env bash\n" + script);
        chmod(d.c_str(), 0777); // the local executor, as root, runs jobs as another uid
        chmod((d / "build").c_str(), 0777);
        chmod(d.parent_path().c_str(), 0711);
        return d;
    }

    static eval::JobRequest request(const std::filesystem::path& dir, double wallLimit = 30) {
        eval::JobRequest r;
        r.dir = dir;
        r.limits.wallTimeoutS = wallLimit;
        return r;
    }

    static eval::Candidate candidate(const std::string& name) {
        auto text = readTextFile(test::candidateFile("saxpy", name));
        return {name, text ? *text : std::string(), {}};
    }

    // Nothing but the timing locks stays in the remote dir.
    std::string remoteListing() const {
        std::string s = "left on the host:";
        std::error_code ec;
        for (const auto& e : std::filesystem::directory_iterator(remoteDir(), ec))
            if (e.path().filename().string().rfind(".timing-", 0) != 0) s += " " + e.path().filename().string();
        return s;
    }
    bool remoteIsClean() const { return remoteListing() == "left on the host:"; }

    bool startSshd() {
        sshd_.setProcessChannelMode(QProcess::MergedChannels);
        sshd_.start("/usr/sbin/sshd", {"-D", "-e", "-f", QString::fromStdString((root_ / "sshd_config").string())});
        if (!sshd_.waitForStarted(5000)) return false;
        for (int i = 0; i < 500 && sshd_.state() == QProcess::Running; ++i) {
            if (accepts(port_)) return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        qWarning("sshd did not start: %s", sshd_.readAll().constData());
        return false;
    }

    // Kills the listener and the sshd processes serving connections, so that
    // every session drops; the jobs those sessions started keep running.
    void stopSshd() {
        if (sshd_.state() == QProcess::NotRunning) return;
        const auto sessions = sshdDescendants(static_cast<pid_t>(sshd_.processId()));
        sshd_.kill();
        sshd_.waitForFinished(5000);
        for (pid_t p : sessions) kill(p, SIGKILL);
    }

    QTemporaryDir dir_;
    std::filesystem::path root_;
    QProcess sshd_;
    int port_ = 0;
    std::string user_;
    problem::ProblemSpec saxpy_;
};

QTEST_GUILESS_MAIN(TestSshExecutor)
#include "tst_ssh_executor.moc"
