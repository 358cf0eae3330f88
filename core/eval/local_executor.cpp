#include "eval/local_executor.h"

#include "eval/job_files.h"

#include "eval/process_runner.h"
#include "util/files.h"
#include "util/log.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

namespace kw::eval {
namespace {

std::uint64_t physicalMemory() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : (8ull << 30);
}

// The sandbox user must own the job dir; done before the job starts.
void chownTree(const std::filesystem::path& dir, unsigned uid) {
    std::error_code ec;
    (void)!chown(dir.c_str(), uid, uid);
    for (auto it = std::filesystem::recursive_directory_iterator(dir, ec); it != std::filesystem::recursive_directory_iterator();
         it.increment(ec)) {
        if (ec) break;
        (void)!lchown(it->path().c_str(), uid, uid);
    }
}

// The sandbox user needs search permission on every folder above the job dir.
std::string unreachableAncestor(const std::filesystem::path& dir) {
    for (auto p = dir.parent_path(); !p.empty() && p != p.parent_path(); p = p.parent_path()) {
        struct stat st {};
        if (stat(p.c_str(), &st) == 0 && !(st.st_mode & S_IXOTH)) return p.string();
    }
    return {};
}

} // namespace

// GPU g's timing lock, next to the host's: timing.lock -> timing-gpu<g>.lock.
static std::filesystem::path gpuLockFile(const std::filesystem::path& hostLock, const std::string& gpu) {
    return hostLock.parent_path() / (hostLock.stem().string() + "-gpu" + gpu + hostLock.extension().string());
}

Result<std::unique_ptr<LocalExecutor>> LocalExecutor::create(LocalExecutorConfig config) {
    SandboxStatus sandbox;
    if (config.sandbox != SandboxPolicy::Off) {
        sandbox = probeSandbox();
        if (!sandbox.available) {
            if (config.sandbox == SandboxPolicy::Required)
                return makeError(ErrorCode::Sandbox,
                                 "refusing to run candidates unsandboxed (sandbox policy 'required'): " + sandbox.reason);
            log::eval()->warn("*** candidates will run WITHOUT a sandbox, with resource limits only: {} ***", sandbox.reason);
        }
    }
    if (config.exclusiveTiming && config.timingLockFile.empty())
        config.timingLockFile =
            std::filesystem::temp_directory_path() / ("kernelwright-" + std::to_string(getuid())) / "timing.lock";
    for (const auto& g : config.gpus)
        if (g.empty() || g.find_first_not_of("0123456789") != std::string::npos)
            return makeError(ErrorCode::InvalidArgument, "--gpus expects CUDA device numbers such as 0,1,3, got '" + g + "'");
    if (!config.gpus.empty()) config.workers = config.gpus.size();
    if (config.exclusiveTiming) {
        std::error_code ec;
        std::filesystem::create_directories(config.timingLockFile.parent_path(), ec);
        std::vector<std::filesystem::path> locks{config.timingLockFile};
        for (const auto& g : config.gpus) locks.push_back(gpuLockFile(config.timingLockFile, g));
        for (const auto& lock : locks) {
            const int fd = open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
            if (fd < 0)
                return makeError(ErrorCode::Io, "cannot create the timing lock " + lock.string() + ": " + std::strerror(errno) +
                                                    " (set TMPDIR to a writable folder)");
            close(fd);
        }
    }
    if (config.workers == 0) config.workers = std::max(1u, std::thread::hardware_concurrency());
    if (config.memoryLimitBytes == 0)
        config.memoryLimitBytes = std::max<std::uint64_t>(2ull << 30, physicalMemory() / 2 / config.workers);
    return std::unique_ptr<LocalExecutor>(new LocalExecutor(config, sandbox));
}

// Claims the first free block of 64 sandbox uids on this machine: an flock on
// <tmp>/kernelwright-uids/block-N.lock, held until the executor goes. Returns
// the block's index and the locked descriptor.
static std::pair<unsigned, int> claimUidBlock(std::size_t workers) {
    constexpr unsigned kBlocks = 512;
    const auto dir = std::filesystem::temp_directory_path() / "kernelwright-uids";
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    const unsigned perBlock = 64;
    const unsigned need = static_cast<unsigned>((workers + perBlock - 1) / perBlock);
    for (unsigned n = 0; n + need <= kBlocks; n += need) {
        const auto file = dir / ("block-" + std::to_string(n) + ".lock");
        const int fd = open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (fd < 0) break;
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) return {n, fd};
        close(fd);
    }
    log::eval()->warn("every sandbox uid block is taken; sharing block 0 with another session");
    return {0, -1};
}

LocalExecutor::LocalExecutor(LocalExecutorConfig config, SandboxStatus sandbox) : config_(config), sandbox_(std::move(sandbox)) {
    if (geteuid() == 0) {
        const auto [block, fd] = claimUidBlock(config_.workers);
        uidBlockStart_ = config_.sandboxUidBase + block * 64;
        uidBlockLock_ = fd;
    }
    pool_ = std::make_unique<JobPool>(config_.workers, [this](std::size_t slot, const JobRequest& r) { return runJob(slot, r); });
}

LocalExecutor::~LocalExecutor() {
    pool_.reset(); // the workers end before the block is given back
    if (uidBlockLock_ >= 0) close(uidBlockLock_);
}

std::filesystem::path LocalExecutor::timingLockOf(std::size_t slot) const {
    if (config_.gpus.empty()) return config_.timingLockFile;
    return gpuLockFile(config_.timingLockFile, config_.gpus[slot % config_.gpus.size()]);
}

std::future<JobOutcome> LocalExecutor::submit(JobRequest request) {
    return pool_->submit(std::move(request));
}

JobOutcome LocalExecutor::runJob(std::size_t slot, const JobRequest& request) const {
    JobOutcome outcome;
    if (request.stop.stop_requested()) {
        outcome.stopped = true;
        return outcome;
    }
    const auto dir = std::filesystem::absolute(request.dir);
    ProcessSpec spec;
    spec.argv = sandboxedCommand(sandbox_, dir, {"/bin/bash", "run.sh"});
    spec.workDir = dir;
    spec.stdoutFile = dir / "build" / "runsh.out";
    spec.stderrFile = dir / "build" / "runsh.err";
    spec.limits.wallSeconds = request.limits.wallTimeoutS;
    if (request.limits.mapsDeviceMemory)
        spec.limits.dataBytes = config_.memoryLimitBytes;
    else
        spec.limits.addressSpaceBytes = config_.memoryLimitBytes;
    spec.limits.fileSizeBytes = config_.fileSizeLimitBytes;
    spec.limits.cpuSeconds =
        static_cast<std::uint64_t>(request.limits.wallTimeoutS * std::max(1u, std::thread::hardware_concurrency())) + 10;
    // RLIMIT_NPROC counts every task of the user and never binds root: as root,
    // each worker runs its jobs as a user of its own so that one job's fork bomb
    // cannot starve another's compiler.
    unsigned uid = geteuid();
    if (uid == 0) {
        if (const auto blocked = unreachableAncestor(dir); !blocked.empty()) {
            outcome.infraError = "the job dir " + dir.string() + " is not reachable by the sandbox user: " + blocked +
                                 " lacks search permission for others (chmod o+x it, or choose another --jobs-dir)";
            return outcome;
        }
        uid = sandboxUid(slot);
        spec.runAsUid = uid;
        chownTree(dir, uid);
    }
    const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
    if (config_.pinCpus && config_.workers > 1 && config_.workers <= cores) {
        const std::size_t per = cores / config_.workers;
        for (std::size_t c = slot * per; c < (slot + 1) * per; ++c) spec.cpus.push_back(static_cast<int>(c));
    }
    spec.limits.maxProcesses = countTasksOfUser(uid) + jobTaskBudget(config_, spec.cpus.empty() ? cores : spec.cpus.size());

    // Each job opens the lock itself: flock excludes open file descriptions,
    // so a descriptor shared by all jobs would exclude nothing.
    if (!config_.gpus.empty()) spec.extraEnv.push_back("CUDA_VISIBLE_DEVICES=" + config_.gpus[slot % config_.gpus.size()]);
    int lockFd = -1;
    if (config_.exclusiveTiming) {
        const auto lock = timingLockOf(slot);
        lockFd = open(lock.c_str(), O_RDWR | O_CLOEXEC);
        if (lockFd < 0) {
            outcome.infraError = "cannot open the timing lock " + lock.string() + ": " + std::strerror(errno);
            return outcome;
        }
        spec.passFd = lockFd;
        spec.extraEnv.push_back("KW_TIMING_LOCK_FD=3");
    }

    log::eval()->debug("slot {}: running {}", slot, dir.string());
    const auto p = runProcess(spec, request.stop);
    if (lockFd >= 0) close(lockFd);
    outcome.wallSeconds = p.wallSeconds;
    outcome.timedOut = p.timedOut;
    outcome.stopped = p.stopped;
    if (!p.started) {
        outcome.infraError = "could not start the job: " + p.startError;
        return outcome;
    }
    readJobOutputs(dir, "exit " + std::to_string(p.exitCode) + (p.signal ? ", signal " + std::to_string(p.signal) : ""), outcome);
    return outcome;
}

} // namespace kw::eval
