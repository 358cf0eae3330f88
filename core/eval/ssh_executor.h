#pragma once
// Runs jobs on other hosts over ssh (ARCHITECTURE.md, "Jobs"): the job dir
// goes over as a tar stream, run.sh runs there under the job's wall limit,
// result.json and the logs come back the same way. A host needs bash,
// coreutils, tar, setsid and the job's toolchain; nothing of ours. Candidates
// run there as the ssh user, in bubblewrap where the host has it
// (remote_sandbox.h; SshExecutorConfig::sandbox decides what happens where it
// has not).
#include "eval/executor.h"
#include "eval/job_pool.h"
#include "eval/sandbox.h"
#include "util/result.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace kw::eval {

struct SshHost {
    std::string host;
    std::string user; // empty: ssh's default (~/.ssh/config, the local user)
    int port = 22;
    std::filesystem::path identityFile;               // empty: ssh's default keys and agent
    std::string remoteDir = "/tmp/kernelwright-jobs"; // absolute, or ~/...
    std::size_t slotCount = 1;                        // jobs at once on this host (not `slots`: a Qt macro)
    std::vector<std::string> gpus;                    // one per slot ("" = none), or none at all
};

struct SshExecutorConfig {
    std::vector<SshHost> hosts;
    int connectAttempts = 3; // per step; ssh's exit 255 (no or lost connection) is retried
    double retryBaseS = 1;   // backoff: base, 2 base, 4 base, ...
    double connectTimeoutS = 10;
    std::filesystem::path knownHostsFile; // empty: accept-new into ~/.ssh/known_hosts
    // Raw ssh arguments put before ours (e.g. {"-o", "ProxyJump=gate"}); ssh
    // keeps the first value it sees of an option, so these win.
    std::vector<std::string> extraSshOptions;
    // Candidates run in bubblewrap on hosts that have it (remote_sandbox.h);
    // Required refuses hosts without it, Off never uses it.
    SandboxPolicy sandbox = SandboxPolicy::Preferred;
};

// "USER@HOST[:PORT]", "HOST", "USER@[::1]:2222" -> host, user, port (the rest default).
Result<SshHost> parseSshTarget(const std::string& text);

// One worker thread per slot of every host. Slot i of a host sets
// CUDA_VISIBLE_DEVICES to its GPU; slots sharing a GPU (or sharing none) take
// turns for their timing phases, like the local executor's workers.
// Failures to reach a host are retried, then reported as JobOutcome::infraError;
// what run.sh does there is reported exactly as LocalExecutor reports it.
class SshExecutor final : public Executor {
  public:
    // Checks the config and that ssh and tar are installed here; it does not
    // connect (an unreachable host shows in the jobs' outcomes).
    static Result<std::unique_ptr<SshExecutor>> create(SshExecutorConfig config);
    ~SshExecutor() override;

    ExecutorKind kind() const override { return ExecutorKind::Ssh; }
    std::string name() const override { return "ssh"; }
    // "ssh:USER@HOST:PORT[GPU,...] ..." for every host.
    std::string placement() const override;
    std::size_t slotCount() const override { return pool_->size(); }
    std::future<JobOutcome> submit(JobRequest request) override;

    const SshExecutorConfig& config() const { return config_; }

  private:
    struct Slot {
        std::size_t host = 0;
        std::string gpu;
    };
    struct CallFiles {
        std::filesystem::path in, out, err;
    };
    struct Call {
        bool connected = false; // the remote command ran; exitCode is its status
        int exitCode = -1;
        bool stopped = false;
        std::string error; // neither connected nor stopped: why, for JobOutcome::infraError
        double wallSeconds = 0;
    };

    SshExecutor(SshExecutorConfig config, std::string localHost);
    JobOutcome runJob(std::size_t slot, const JobRequest& request) const;
    Call call(const SshHost& host, const std::string& remoteCommand, const CallFiles& files, double wallS, int attempts,
              std::stop_token stop) const;
    std::vector<std::string> sshCommand(const SshHost& host, const std::string& remoteCommand) const;

    SshExecutorConfig config_;
    std::string localHost_; // prefixes remote job dirs: clients sharing a host never collide
    std::vector<Slot> slots_;
    std::unique_ptr<JobPool> pool_; // last: its threads stop before the members they use go
};

} // namespace kw::eval
