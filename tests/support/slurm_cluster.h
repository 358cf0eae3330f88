#pragma once
// A single-node Slurm cluster on this machine for tests and benchmarks:
// munged, slurmctld and slurmd with a slurm.conf, key, state, spool and logs
// in a dir of their own, on ports nothing else uses. Needs root (slurmd runs
// jobs as their users) and Debian's slurm-wlm and munge. Stopping it (or
// destroying it) cancels its jobs and ends the daemons it started, by the
// pids they recorded.
#include <QtCore/QProcess>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>

namespace kw::test {

class SlurmCluster {
  public:
    explicit SlurmCluster(std::filesystem::path dir) : dir_(std::move(dir)) {}
    ~SlurmCluster() { stop(); }
    SlurmCluster(const SlurmCluster&) = delete;
    SlurmCluster& operator=(const SlurmCluster&) = delete;

    // Why this machine cannot run the cluster; empty when it can.
    static std::string unavailableReason() {
        if (geteuid() != 0) return "needs root: slurmd runs jobs as their users (CI runs the suite as root)";
        for (const char* tool :
             {"/usr/sbin/munged", "/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/bin/sbatch", "/usr/bin/squeue"})
            if (!std::filesystem::exists(tool))
                return std::string("no ") + tool + ": install slurm-wlm and munge (packaging/bootstrap.sh does)";
        return {};
    }

    std::filesystem::path conf() const { return dir_ / "slurm.conf"; }

    // Writes the configuration, starts the daemons and waits until the node
    // is idle. Sets SLURM_CONF for this process and every process it starts.
    // Errors are returned as text with the daemons' log tails.
    // bindCpus: jobs are bound to the CPUs they were given (task/affinity, no
    // cgroups), as on most clusters; off, they may run on any.
    std::string start(int cpus = 2, bool bindCpus = false) {
        std::error_code ec;
        for (const char* sub : {"munge", "state", "spool", "log"}) std::filesystem::create_directories(dir_ / sub, ec);
        std::filesystem::permissions(dir_ / "munge", std::filesystem::perms::owner_all, ec);
        {
            std::ofstream key(dir_ / "munge" / "munge.key", std::ios::binary);
            std::random_device random;
            for (int i = 0; i < 1024; ++i) key.put(static_cast<char>(random()));
        }
        chmod((dir_ / "munge" / "munge.key").c_str(), 0400);
        char name[256] = {};
        gethostname(name, sizeof name - 1);
        host_ = std::string(name).substr(0, std::string(name).find('.'));
        const auto d = [this](const char* rel) { return (dir_ / rel).string(); };
        std::ostringstream c;
        c << "ClusterName=kstest\nSlurmctldHost=" << host_ << "(127.0.0.1)\nSlurmUser=root\nSlurmdUser=root\n"
          << "AuthType=auth/munge\nCredType=cred/munge\nAuthInfo=socket=" << d("munge/munge.sock") << "\n"
          << "SlurmctldPort=" << freePort() << "\nSlurmdPort=" << freePort() << "\n"
          << "StateSaveLocation=" << d("state") << "\nSlurmdSpoolDir=" << d("spool") << "\n"
          << "SlurmctldPidFile=" << d("slurmctld.pid") << "\nSlurmdPidFile=" << d("slurmd.pid") << "\n"
          << "SlurmctldLogFile=" << d("log/slurmctld.log") << "\nSlurmdLogFile=" << d("log/slurmd.log")
          << "\n"
          // No cgroups: linuxproc tracks a job's processes by their parents.
          << "ProctrackType=proctrack/linuxproc\nTaskPlugin=" << (bindCpus ? "task/affinity" : "task/none")
          << "\nJobAcctGatherType=jobacct_gather/none\n"
          << "SelectType=select/cons_tres\nSelectTypeParameters=CR_CPU\nMpiDefault=none\nReturnToService=2\n"
          // Without slurmdbd: ended jobs go to a completion log that sacct --completion reads.
          << "AccountingStorageType=accounting_storage/none\nJobCompType=jobcomp/filetxt\nJobCompLoc=" << d("log/jobcomp.txt")
          << "\n"
          // Schedule a submitted batch job at once rather than up to 3 s later.
          << "SchedulerParameters=batch_sched_delay=0,sched_min_interval=0\n"
          << "NodeName=" << host_ << " NodeAddr=127.0.0.1 CPUs=" << cpus << " State=UNKNOWN\n"
          << "PartitionName=debug Nodes=" << host_ << " Default=YES MaxTime=INFINITE State=UP\n";
        std::ofstream(conf()) << c.str();
        setenv("SLURM_CONF", conf().c_str(), 1);

        if (!run("/usr/sbin/munged", {"--key-file=" + d("munge/munge.key"), "--socket=" + d("munge/munge.sock"),
                                      "--pid-file=" + d("munge/munged.pid"), "--log-file=" + d("log/munged.log"),
                                      "--seed-file=" + d("munge/seed"), "--force"}))
            return "munged did not start: " + tail("log/munged.log");
        if (!run("/usr/sbin/slurmctld", {"-i"})) return "slurmctld did not start: " + tail("log/slurmctld.log");
        if (auto why = startSlurmd(); !why.empty()) return why;
        return {};
    }

    // Starts slurmd and waits until the node takes jobs.
    std::string startSlurmd() {
        if (!run("/usr/sbin/slurmd", {})) return "slurmd did not start: " + tail("log/slurmd.log");
        for (int i = 0; i < 150; ++i) {
            const auto state = output("sinfo", {"--noheader", "--Format=StateLong"});
            if (state.find("idle") != std::string::npos || state.find("mixed") != std::string::npos ||
                state.find("allocated") != std::string::npos)
                return {};
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
        return "the node never became idle: " + output("sinfo", {}) + tail("log/slurmctld.log") + tail("log/slurmd.log");
    }

    // Stops slurmd only; running jobs' step daemons go on.
    void stopSlurmd() { end("slurmd.pid"); }

    void stop() {
        if (!std::filesystem::exists(dir_ / "slurmctld.pid")) return end("munge/munged.pid");
        // Jobs first, so that no step daemon outlives the cluster.
        QProcess::execute(QStringLiteral("scancel"), {QStringLiteral("--user=root")});
        for (int i = 0; i < 50 && output("squeue", {"--noheader", "--states=RUNNING,COMPLETING"}).find_first_not_of(" \n") !=
                                      std::string::npos;
             ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        end("slurmd.pid");
        end("slurmctld.pid");
        end("munge/munged.pid");
    }

    // A command's standard output ("" when it fails).
    static std::string output(const QString& program, const QStringList& args) {
        QProcess p;
        p.start(program, args);
        if (!p.waitForFinished(30000)) {
            p.kill();
            p.waitForFinished();
            return {};
        }
        return p.readAllStandardOutput().toStdString();
    }

    std::string tail(const char* rel) const {
        std::ifstream in(dir_ / rel);
        std::stringstream s;
        s << in.rdbuf();
        const std::string text = s.str();
        return "\n--- " + std::string(rel) + ":\n" + (text.size() > 1500 ? text.substr(text.size() - 1500) : text);
    }

  private:
    static int freePort() {
        const int fd = socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof addr;
        int port = 0;
        if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
            getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
            port = ntohs(addr.sin_port);
        close(fd);
        return port;
    }

    static bool run(const std::string& program, const std::vector<std::string>& args) {
        QStringList a;
        for (const auto& s : args) a << QString::fromStdString(s);
        return QProcess::execute(QString::fromStdString(program), a) == 0; // the daemons fork and the parent exits
    }

    // Ends the daemon whose pid file is `rel`, and waits for it to go.
    void end(const char* rel) {
        std::ifstream in(dir_ / rel);
        pid_t pid = 0;
        if (!(in >> pid) || pid <= 1) return;
        kill(pid, SIGTERM);
        for (int i = 0; i < 50 && kill(pid, 0) == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
        if (kill(pid, 0) == 0) kill(pid, SIGKILL);
        std::error_code ec;
        std::filesystem::remove(dir_ / rel, ec);
    }

    std::filesystem::path dir_;
    std::string host_;
};

} // namespace kw::test
