#include "eval/ssh_executor.h"

#include "eval/job_files.h"
#include "eval/process_runner.h"
#include "eval/remote_sandbox.h"
#include "util/files.h"
#include "util/log.h"
#include "util/text.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

namespace kw::eval {
namespace {

// A remote path as the remote shell must see it: "~/x" is "$HOME"/'x'.
std::string remotePath(const std::string& path) {
    if (path.rfind("~/", 0) == 0) return "\"$HOME\"/" + shellQuote(path.substr(2));
    return shellQuote(path);
}

std::string target(const SshHost& h) {
    return (h.user.empty() ? "" : h.user + "@") + h.host + ":" + std::to_string(h.port);
}

bool sleepUnlessStopped(double seconds, std::stop_token stop) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < until) {
        if (stop.stop_requested()) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return !stop.stop_requested();
}

// Local tar; the error's last line when it fails.
std::string runTar(std::vector<std::string> args, const std::filesystem::path& scratch) {
    ProcessSpec spec;
    spec.argv = {"tar"};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.workDir = scratch;
    spec.stdoutFile = scratch / "tar.out";
    spec.stderrFile = scratch / "tar.err";
    const auto p = runProcess(spec);
    if (!p.started) return p.startError;
    if (p.exitCode != 0) return "tar ended with exit " + std::to_string(p.exitCode) + ": " + lastLineOf(spec.stderrFile);
    return {};
}

// Exit statuses of the job command for its own failures (tar's are 1 and 2).
constexpr int kNoJobDir = 97; // the job dir cannot be made or entered (kJobScript's exit 97)
constexpr int kNoUpload = 98; // the job dir did not unpack (its exit 98)

// One connection per job: the job dir arrives on stdin, run.sh runs, the
// results leave on stdout as a tar stream (result.json, the profiling step's
// files, and what the evaluator reads from build/: times, crash evidence,
// logs). run.sh runs in a session of its own (setsid), so that a lost
// connection neither kills it nor loses its exit status. The command is
// re-entrant: run again after a lost connection, it skips the upload and
// waits for the job already started instead of starting it twice.
// @LIMIT@ 0 means no limit, as locally.
constexpr const char* kJobScript = R"sh(umask 077
mkdir -p @JOB@ && cd @JOB@ || exit 97
if [ -e build/runsh.pid ]; then
  cat > /dev/null
else
  find . -mindepth 1 -delete && tar -xf - --no-same-owner || exit 98
  mkdir -p build && exec 3>>@LOCK@ || exit 97
  @ENV@ setsid bash --norc -c 'ulimit -c 0; ulimit -f 1048576
    timeout -k 5 @LIMIT@ bash --norc "$0/build/kw-sandbox.sh" @SANDBOX@ bash --norc "$0/run.sh" > build/runsh.out 2> build/runsh.err < /dev/null &
    echo $! > build/runsh.tpid
    wait $!
    echo $? > build/runsh.rc.tmp && mv build/runsh.rc.tmp build/runsh.rc' "$PWD" < /dev/null > /dev/null 2>&1 &
  echo $! > build/runsh.pid
  exec 3>&-
  wait $!
fi
pid=$(cat build/runsh.pid)
while [ ! -e build/runsh.rc ] && kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
tar -cf - --ignore-failed-read result.json profile build/times build/phase build/harness.rc build/run.err \
  build/runsh.out build/runsh.err build/runsh.rc build/sandbox build/*.log
)sh";

std::string fillIn(std::string text, const std::vector<std::pair<std::string, std::string>>& values) {
    for (const auto& [key, value] : values)
        for (auto at = text.find(key); at != std::string::npos; at = text.find(key, at + value.size()))
            text.replace(at, key.size(), value);
    return text;
}

std::string jobCommand(const std::string& job, const std::string& lockFile, const std::string& gpu, double wallLimitS,
                       SandboxPolicy sandbox) {
    const std::string env = "KW_TIMING_LOCK_FD=3" + (gpu.empty() ? std::string() : " CUDA_VISIBLE_DEVICES=" + shellQuote(gpu));
    return fillIn(kJobScript, {{"@JOB@", job},
                               {"@LOCK@", lockFile},
                               {"@ENV@", env},
                               {"@SANDBOX@", sandboxPolicyName(sandbox)},
                               {"@LIMIT@", std::to_string(static_cast<long long>(std::ceil(wallLimitS)))}});
}

// Kills what still runs of the job and removes its dir. The job's processes
// are two process groups, by the ids it recorded: its runner's, and the one
// timeout(1) makes for run.sh and everything it starts.
constexpr const char* kRemoveScript = R"sh(if cd @JOB@ 2>/dev/null && [ ! -e build/runsh.rc ]; then
  for f in build/runsh.pid build/runsh.tpid; do [ -e $f ] && kill -KILL -"$(cat $f)" 2>/dev/null; done
fi
cd / && rm -rf @JOB@
)sh";

// Moves the plain files that came back into the job dir, where run.sh would
// have left them on this machine. Links and other odd entries the candidate
// may have planted stay behind, and so does anything nested deeper.
void adoptReturnedFiles(const std::filesystem::path& from, const std::filesystem::path& jobDir) {
    std::vector<std::filesystem::path> files;
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(from, ec); it != std::filesystem::recursive_directory_iterator();
         it.increment(ec)) {
        if (ec) break;
        const auto status = it->symlink_status(ec);
        if (std::filesystem::is_directory(status) && it.depth() >= 1) it.disable_recursion_pending();
        if (std::filesystem::is_regular_file(status)) files.push_back(it->path().lexically_relative(from));
    }
    for (const auto& rel : files) {
        std::filesystem::create_directories(jobDir / rel.parent_path(), ec);
        std::filesystem::rename(from / rel, jobDir / rel, ec);
    }
}

std::string describeExit(int rc) {
    return "exit " + std::to_string(rc) + (rc > 128 ? ", signal " + std::to_string(rc - 128) : "");
}

} // namespace

Result<SshHost> parseSshTarget(const std::string& text) {
    SshHost h;
    std::string rest = text;
    if (const auto at = rest.rfind('@'); at != std::string::npos) {
        h.user = rest.substr(0, at);
        rest = rest.substr(at + 1);
    }
    std::string port;
    if (!rest.empty() && rest.front() == '[') { // [v6-address]:port
        const auto close = rest.find(']');
        if (close == std::string::npos)
            return makeError(ErrorCode::InvalidArgument, "ssh host '" + text + "': a '[' without its ']'");
        if (close + 1 < rest.size() && rest[close + 1] == ':') port = rest.substr(close + 2);
        rest = rest.substr(1, close - 1);
    } else if (const auto colon = rest.find(':'); colon != std::string::npos && rest.find(':', colon + 1) == std::string::npos) {
        port = rest.substr(colon + 1);
        rest = rest.substr(0, colon);
    }
    h.host = rest;
    if (!port.empty()) {
        try {
            std::size_t used = 0;
            h.port = std::stoi(port, &used);
            if (used != port.size()) throw std::invalid_argument(port);
        } catch (const std::exception&) {
            return makeError(ErrorCode::InvalidArgument,
                             "ssh host '" + text + "': the port '" + port + "' is not a number (USER@HOST[:PORT])");
        }
    }
    if (h.host.empty() || (!text.empty() && text.back() == '@'))
        return makeError(ErrorCode::InvalidArgument, "ssh host '" + text + "' names no host (USER@HOST[:PORT])");
    return h;
}

Result<std::unique_ptr<SshExecutor>> SshExecutor::create(SshExecutorConfig config) {
    const auto invalid = [](const std::string& m) { return makeError(ErrorCode::InvalidArgument, m); };
    if (config.hosts.empty()) return invalid("the ssh executor needs at least one host (--ssh-host USER@HOST[:PORT])");
    for (std::size_t i = 0; i < config.hosts.size(); ++i) {
        auto& h = config.hosts[i];
        const std::string which = h.host.empty() ? "ssh host #" + std::to_string(i + 1) : "ssh host " + target(h);
        if (h.host.empty()) return invalid(which + ": the host name is empty");
        if (h.host.front() == '-' || (!h.user.empty() && h.user.front() == '-') ||
            h.host.find_first_of(" \t\n'\"") != std::string::npos || h.user.find_first_of(" \t\n'\"") != std::string::npos)
            return invalid(which + ": not a host name or user name ssh can take");
        if (h.port < 1 || h.port > 65535) return invalid(which + ": the port must be in 1..65535");
        if (h.slotCount == 0) return invalid(which + ": slots must be at least 1 (--ssh-slots N)");
        if (!h.gpus.empty() && h.gpus.size() != h.slotCount)
            return invalid(which + ": " + std::to_string(h.gpus.size()) + " GPU(s) given for " + std::to_string(h.slotCount) +
                           " slot(s); give one GPU per slot (--ssh-gpus 0,1,...) or none");
        if (!h.identityFile.empty()) {
            std::error_code ec;
            h.identityFile = std::filesystem::absolute(h.identityFile, ec);
            if (!std::filesystem::is_regular_file(h.identityFile, ec))
                return invalid(which + ": the identity file " + h.identityFile.string() + " does not exist (--ssh-key FILE)");
        }
        if (h.remoteDir.empty() || (h.remoteDir.front() != '/' && h.remoteDir.rfind("~/", 0) != 0) ||
            h.remoteDir.find('\n') != std::string::npos)
            return invalid(which + ": the remote dir '" + h.remoteDir + "' must be absolute or start with ~/ (--ssh-dir DIR)");
    }
    if (config.connectAttempts < 1) return invalid("ssh: connectAttempts must be at least 1");
    if (!(config.connectTimeoutS > 0) || config.retryBaseS < 0)
        return invalid("ssh: the connect timeout must be positive and the retry delay not negative");
    for (const char* tool : {"ssh", "tar"})
        if (findExecutable(tool).empty())
            return makeError(ErrorCode::NotFound, std::string("the ssh executor needs `") + tool + "` on PATH here: install " +
                                                      (std::string(tool) == "ssh" ? "openssh-client" : "tar"));
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0) std::snprintf(name, sizeof name, "kernelwright");
    return std::unique_ptr<SshExecutor>(new SshExecutor(std::move(config), fileSafeName(name)));
}

SshExecutor::SshExecutor(SshExecutorConfig config, std::string localHost)
    : config_(std::move(config)), localHost_(std::move(localHost)) {
    for (std::size_t h = 0; h < config_.hosts.size(); ++h)
        for (std::size_t s = 0; s < config_.hosts[h].slotCount; ++s)
            slots_.push_back({h, config_.hosts[h].gpus.empty() ? "" : config_.hosts[h].gpus[s]});
    pool_ = std::make_unique<JobPool>(slots_.size(), [this](std::size_t slot, const JobRequest& r) { return runJob(slot, r); });
}

SshExecutor::~SshExecutor() = default;

std::string SshExecutor::placement() const {
    std::string s = "ssh:";
    for (const auto& h : config_.hosts) {
        s += " " + target(h) + "[";
        for (std::size_t i = 0; i < h.gpus.size(); ++i) s += (i ? "," : "") + h.gpus[i];
        s += "]";
    }
    return s;
}

std::future<JobOutcome> SshExecutor::submit(JobRequest request) {
    return pool_->submit(std::move(request));
}

std::vector<std::string> SshExecutor::sshCommand(const SshHost& host, const std::string& remoteCommand) const {
    std::vector<std::string> argv{"ssh"};
    argv.insert(argv.end(), config_.extraSshOptions.begin(), config_.extraSshOptions.end());
    const auto option = [&](const std::string& o) { argv.insert(argv.end(), {"-o", o}); };
    option("BatchMode=yes");
    option("StrictHostKeyChecking=accept-new");
    option("ConnectTimeout=" + std::to_string(static_cast<long long>(std::ceil(config_.connectTimeoutS))));
    option("ServerAliveInterval=10"); // a dead connection ends the call within ~30 s
    option("ServerAliveCountMax=3");
    option("LogLevel=ERROR"); // keeps notices out of the stderr that errors are read from
    if (!config_.knownHostsFile.empty()) option("UserKnownHostsFile=" + config_.knownHostsFile.string());
    if (!host.identityFile.empty()) {
        argv.insert(argv.end(), {"-i", host.identityFile.string()});
        option("IdentitiesOnly=yes");
    }
    argv.insert(argv.end(), {"-T", "-p", std::to_string(host.port)});
    if (!host.user.empty()) argv.insert(argv.end(), {"-l", host.user});
    // Through bash whatever the login shell is. That shell has read the
    // account's startup files (PATH to the toolchain); --norc: bash, started
    // under ssh, would read ~/.bashrc once more.
    argv.insert(argv.end(), {"--", host.host, "bash --norc -c " + shellQuote(remoteCommand)});
    return argv;
}

SshExecutor::Call SshExecutor::call(const SshHost& host, const std::string& remoteCommand, const CallFiles& files, double wallS,
                                    int attempts, std::stop_token stop) const {
    Call result;
    const auto start = std::chrono::steady_clock::now();
    const auto finish = [&]() -> Call {
        result.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return result;
    };
    for (int attempt = 1;; ++attempt) {
        ProcessSpec spec;
        spec.argv = sshCommand(host, remoteCommand);
        spec.workDir = files.out.parent_path();
        spec.stdinFile = files.in;
        spec.stdoutFile = files.out;
        spec.stderrFile = files.err;
        spec.limits.wallSeconds = wallS;
        const auto p = runProcess(spec, stop);
        if (!p.started) {
            result.error = "cannot start ssh: " + p.startError;
            return finish();
        }
        if (p.stopped) {
            result.stopped = true;
            return finish();
        }
        // 255 is ssh's own failure: no connection, a lost one, refused keys.
        if (!p.timedOut && p.signal == 0 && p.exitCode != 255) {
            result.connected = true;
            result.exitCode = p.exitCode;
            return finish();
        }
        std::string why =
            p.timedOut ? "no answer within " + std::to_string(static_cast<long long>(wallS)) + " s" : lastLineOf(files.err);
        if (why.empty()) why = p.signal ? "ssh was killed by signal " + std::to_string(p.signal) : "ssh failed (exit 255)";
        if (attempt >= attempts) {
            result.error = "ssh " + target(host) + ": " + why + " (after " + std::to_string(attempt) +
                           (attempt == 1 ? " attempt)" : " attempts)");
            return finish();
        }
        const double delay = config_.retryBaseS * std::pow(2.0, attempt - 1);
        log::eval()->warn("ssh {}: {} (attempt {}/{}); retrying in {:.1f} s", target(host), why, attempt, attempts, delay);
        if (!sleepUnlessStopped(delay, stop)) {
            result.stopped = true;
            return finish();
        }
    }
}

JobOutcome SshExecutor::runJob(std::size_t slotIndex, const JobRequest& request) const {
    JobOutcome outcome;
    if (request.stop.stop_requested()) {
        outcome.stopped = true;
        return outcome;
    }
    const Slot& slot = slots_[slotIndex];
    const SshHost& host = config_.hosts[slot.host];
    const auto dir = std::filesystem::absolute(request.dir);
    const std::string jobName = fileSafeName(localHost_ + "-" + dir.filename().string());
    const std::string job = remotePath(host.remoteDir + "/" + jobName);
    // Slots that share a GPU, or share none, take turns timing (see LocalExecutorConfig::exclusiveTiming).
    const std::string lock = remotePath(host.remoteDir + "/.timing-" +
                                        (slot.gpu.empty() ? std::string("cpu") : "gpu-" + fileSafeName(slot.gpu)) + ".lock");

    // The tarballs and ssh's own output stay beside the job dir, out of what is copied.
    const auto scratch = dir.parent_path() / (dir.filename().string() + ".ssh");
    std::error_code ec;
    std::filesystem::remove_all(scratch, ec);
    std::filesystem::create_directories(scratch / "back", ec);
    struct RemoveScratch {
        std::filesystem::path dir;
        ~RemoveScratch() {
            std::error_code ignored;
            std::filesystem::remove_all(dir, ignored);
        }
    } removeScratch{scratch};
    const auto sshErr = scratch / "ssh.err", sshOut = scratch / "ssh.out";
    // Calls end within these or count as lost connections.
    const double slack = config_.connectTimeoutS + 60;
    const double transferS = 600 + slack;
    const int attempts = config_.connectAttempts;

    // One try: after a failure to connect, the host is likely down and the dir never made.
    const auto removeRemote = [&] {
        const auto r = call(host, fillIn(kRemoveScript, {{"@JOB@", job}}), {{}, sshOut, sshErr}, slack, 1, {});
        if (!r.connected || r.exitCode != 0)
            log::eval()->warn("ssh {}: could not remove {} there: {}", target(host), jobName,
                              r.connected ? lastLineOf(sshErr) : r.error);
    };
    // A failed call: stopped, or an infra error saying which step and why.
    const auto failed = [&](const Call& c, const std::string& step) {
        outcome.stopped = c.stopped;
        if (c.stopped) {
            removeRemote();
            return outcome;
        }
        outcome.infraError = c.connected ? "ssh " + target(host) + ": " + step + " failed (exit " + std::to_string(c.exitCode) +
                                               "): " + lastLineOf(sshErr)
                                         : c.error;
        if (c.connected) removeRemote();
        log::eval()->warn("{}", outcome.infraError);
        return outcome;
    };

    if (auto w = writeRemoteSandbox(dir); !w) {
        outcome.infraError = "cannot write the sandbox script into " + dir.string() + ": " + w.error().message;
        return outcome;
    }
    if (auto err = runTar({"-C", dir.string(), "-cf", (scratch / "job.tar").string(), "."}, scratch); !err.empty()) {
        outcome.infraError = "cannot pack the job dir " + dir.string() + ": " + err;
        return outcome;
    }
    log::eval()->debug("ssh {}: job {} on slot {}{}", target(host), jobName, slotIndex,
                       slot.gpu.empty() ? "" : " (GPU " + slot.gpu + ")");
    const double limit = request.limits.wallTimeoutS;
    const auto run =
        call(host, jobCommand(job, lock, slot.gpu, limit, config_.sandbox), {scratch / "job.tar", scratch / "back.tar", sshErr},
             limit > 0 ? limit + 5 + transferS : 0, attempts, request.stop);
    outcome.wallSeconds = run.wallSeconds;
    if (!run.connected || run.exitCode != 0)
        return failed(run, run.exitCode == kNoJobDir
                               ? "making the job dir in " + host.remoteDir + " (is it writable there? --ssh-dir)"
                           : run.exitCode == kNoUpload ? "unpacking the job dir there"
                                                       : "copying the results back");
    removeRemote();
    log::eval()->debug("ssh {}: job {} done in {:.2f} s", target(host), jobName, run.wallSeconds);
    if (auto err = runTar({"-xf", (scratch / "back.tar").string(), "-C", (scratch / "back").string(), "--no-same-owner",
                           "--no-same-permissions"},
                          scratch);
        !err.empty()) {
        outcome.infraError = "ssh " + target(host) + ": the results that came back are unreadable: " + err;
        return outcome;
    }
    const std::string status = lastLineOf(scratch / "back" / "build" / "runsh.rc");
    adoptReturnedFiles(scratch / "back", dir);

    int rc = -1;
    try {
        rc = std::stoi(status);
    } catch (const std::exception&) {
        rc = -1;
    }
    // timeout(1) ends with 124 when TERM stopped run.sh, 137 when it needed KILL.
    outcome.timedOut = limit > 0 && (rc == 124 || (rc == 137 && run.wallSeconds >= limit));
    if (rc == kNoSandboxExit && refusedForNoSandbox(dir)) {
        outcome.infraError = "ssh " + noSandboxMessage(dir, target(host));
        return outcome;
    }
    readJobOutputs(dir, describeExit(rc), outcome);
    if (rc < 0 && !outcome.resultJson)
        outcome.infraError =
            "ssh " + target(host) + ": the job's processes there ended without an exit status (killed on the host?)";
    return outcome;
}

} // namespace kw::eval
