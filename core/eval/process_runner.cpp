#include "eval/process_runner.h"

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

namespace kw::eval {
namespace {

double seconds(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

void setLimit(int resource, std::uint64_t value) {
    if (value == 0) return;
    rlimit rl{static_cast<rlim_t>(value), static_cast<rlim_t>(value)};
    setrlimit(resource, &rl);
}

// In the child, between fork and exec: only async-signal-safe calls.
[[noreturn]] void childExec(const ProcessSpec& spec, char* const* argv, char* const* envp, int errPipe) {
    setsid(); // own session and process group: the whole group can be killed
    if (!spec.cpus.empty()) {
        cpu_set_t set;
        CPU_ZERO(&set);
        for (int cpu : spec.cpus) CPU_SET(cpu, &set);
        sched_setaffinity(0, sizeof set, &set);
    }
    setLimit(RLIMIT_AS, spec.limits.addressSpaceBytes);
    setLimit(RLIMIT_DATA, spec.limits.dataBytes);
    setLimit(RLIMIT_CPU, spec.limits.cpuSeconds);
    setLimit(RLIMIT_FSIZE, spec.limits.fileSizeBytes);
    rlimit noCore{0, 0}; // a crashing candidate must not fill the disk with core files
    setrlimit(RLIMIT_CORE, &noCore);
    if (spec.runAsUid) {
        const gid_t gid = *spec.runAsUid;
        if (setgroups(0, nullptr) != 0 || setgid(gid) != 0 || setuid(*spec.runAsUid) != 0) {
            const char msg[] = "cannot switch to the sandbox user";
            (void)!write(errPipe, msg, sizeof msg - 1);
            _exit(127);
        }
    }
    setLimit(RLIMIT_NPROC, spec.limits.maxProcesses);
    const int out = open(spec.stdoutFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    const int err = open(spec.stderrFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    const int in = open(spec.stdinFile.empty() ? "/dev/null" : spec.stdinFile.c_str(), O_RDONLY | O_CLOEXEC);
    if (out < 0 || err < 0 || in < 0 || chdir(spec.workDir.c_str()) != 0) {
        const char msg[] = "cannot open the job's log files or enter its folder";
        (void)!write(errPipe, msg, sizeof msg - 1);
        _exit(127);
    }
    dup2(in, 0);
    dup2(out, 1);
    dup2(err, 2);
    if (spec.passFd >= 0) {
        if (errPipe == 3) errPipe = fcntl(errPipe, F_DUPFD_CLOEXEC, 4);
        if (spec.passFd == 3)
            fcntl(3, F_SETFD, 0); // dup2 onto itself would keep close-on-exec
        else
            dup2(spec.passFd, 3);
    }
    // Nothing else the parent has open reaches the job (a database, a lock
    // another job waits on): every other descriptor closes at exec.
    close_range(spec.passFd >= 0 ? 4 : 3, ~0u, CLOSE_RANGE_CLOEXEC);
    execvpe(argv[0], argv, envp);
    const char* why = std::strerror(errno);
    (void)!write(errPipe, "exec failed: ", 13);
    (void)!write(errPipe, why, std::strlen(why));
    _exit(127);
}

} // namespace

ProcessOutcome runProcess(const ProcessSpec& spec, std::stop_token stop) {
    ProcessOutcome outcome;
    std::vector<char*> argv;
    for (const auto& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    // The environment is built before fork: setenv is not async-signal-safe.
    std::vector<std::string> envStrings;
    const auto overridden = [&](const char* e) {
        for (const auto& x : spec.extraEnv)
            if (const auto eq = x.find('='); eq != std::string::npos && std::strncmp(e, x.c_str(), eq + 1) == 0) return true;
        return false;
    };
    for (char** e = environ; *e; ++e)
        if (!overridden(*e)) envStrings.emplace_back(*e);
    for (const auto& e : spec.extraEnv) envStrings.push_back(e);
    std::vector<char*> envp;
    for (auto& e : envStrings) envp.push_back(e.data());
    envp.push_back(nullptr);

    int errPipe[2];
    if (pipe2(errPipe, O_CLOEXEC) != 0) {
        outcome.startError = std::string("pipe: ") + std::strerror(errno);
        return outcome;
    }
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid < 0) {
        outcome.startError = std::string("fork: ") + std::strerror(errno);
        close(errPipe[0]);
        close(errPipe[1]);
        return outcome;
    }
    if (pid == 0) {
        close(errPipe[0]);
        childExec(spec, argv.data(), envp.data(), errPipe[1]);
    }
    close(errPipe[1]);
    // The error pipe closes on a successful exec; anything read is a start failure.
    char buf[256];
    const ssize_t n = read(errPipe[0], buf, sizeof buf);
    close(errPipe[0]);
    if (n > 0) outcome.startError.assign(buf, static_cast<std::size_t>(n));

    const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
    int status = 0;
    bool killed = false;
    for (;;) {
        const pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid) break;
        if (done < 0 && errno != EINTR) break;
        const double elapsed = seconds(start);
        const bool overTime = spec.limits.wallSeconds > 0 && elapsed > spec.limits.wallSeconds;
        if (!killed && (overTime || stop.stop_requested())) {
            outcome.timedOut = overTime;
            outcome.stopped = !overTime;
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            killed = true;
        }
        if (pidfd >= 0) {
            pollfd p{pidfd, POLLIN, 0};
            poll(&p, 1, 20);
        } else {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    }
    if (pidfd >= 0) close(pidfd);
    kill(-pid, SIGKILL); // stragglers left in the group
    outcome.wallSeconds = seconds(start);
    outcome.started = outcome.startError.empty();
    if (WIFEXITED(status)) outcome.exitCode = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
    return outcome;
}

std::string torchPython() {
    const char* set = std::getenv("KW_PYTHON");
    return set && *set ? std::string(set) : findExecutable("python3");
}

std::string findExecutable(const std::string& name) {
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "/usr/bin:/bin");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        const auto candidate = std::filesystem::path(dir) / name;
        if (access(candidate.c_str(), X_OK) == 0) return candidate.string();
    }
    return {};
}

std::uint64_t countTasksOfUser(unsigned uid) {
    std::uint64_t tasks = 0;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
        const auto name = entry.path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream status(entry.path() / "status");
        std::string line;
        unsigned realUid = ~0u;
        std::uint64_t threads = 1;
        while (std::getline(status, line)) {
            if (line.rfind("Uid:", 0) == 0)
                realUid = static_cast<unsigned>(std::strtoul(line.c_str() + 4, nullptr, 10));
            else if (line.rfind("Threads:", 0) == 0)
                threads = std::strtoull(line.c_str() + 8, nullptr, 10);
        }
        if (realUid == uid) tasks += threads;
    }
    return tasks;
}

} // namespace kw::eval
