#include "executor_options.h"

#include "eval/local_executor.h"
#include "eval/ssh_executor.h"
#include "util/text.h"

namespace ks::cli {
namespace {

Error usage(const std::string& message) {
    return makeError(ErrorCode::InvalidArgument, message);
}

Result<std::unique_ptr<eval::Executor>> makeSshExecutor(const Args& args) {
    eval::SshHost shared;
    if (auto key = args.value("ssh-key")) shared.identityFile = *key;
    if (auto dir = args.value("ssh-dir")) shared.remoteDir = *dir;
    if (auto gpus = args.value("ssh-gpus")) {
        shared.gpus = splitComma(*gpus);
        shared.slotCount = shared.gpus.size();
    }
    if (auto slots = args.value("ssh-slots")) {
        try {
            std::size_t used = 0;
            const long n = std::stol(*slots, &used);
            if (used != slots->size() || n < 1) throw std::invalid_argument(*slots);
            shared.slotCount = static_cast<std::size_t>(n);
        } catch (const std::exception&) {
            return usage("--ssh-slots expects a number of jobs per host (1 or more), got '" + *slots + "'");
        }
    }
    eval::SshExecutorConfig config;
    for (const auto& option : args.all("ssh-option")) config.extraSshOptions.insert(config.extraSshOptions.end(), {"-o", option});
    for (const auto& text : args.all("ssh-host")) {
        auto parsed = eval::parseSshTarget(text);
        if (!parsed) return parsed.error();
        eval::SshHost host = shared;
        host.host = parsed->host;
        host.user = parsed->user;
        host.port = parsed->port;
        config.hosts.push_back(host);
    }
    auto executor = eval::SshExecutor::create(config);
    if (!executor) return executor.error();
    return std::unique_ptr<eval::Executor>(std::move(*executor));
}

} // namespace

const char* const kExecutorHelp = R"(  --executor local|ssh   where candidates run (default local; --ssh-host implies ssh)
  --ssh-host USER@HOST[:PORT]
                         a GPU or build host to run jobs on over ssh (repeatable);
                         it needs bash, tar and the problem's toolchain, nothing of ours
  --ssh-key FILE         the private key for the hosts (default: ssh's own)
  --ssh-dir DIR          where job dirs go on the hosts (default /tmp/kernelsmith-jobs)
  --ssh-slots N          jobs at once per host (default 1, or one per --ssh-gpus entry)
  --ssh-gpus 0,1,...     one GPU per slot, set as CUDA_VISIBLE_DEVICES for its jobs
  --ssh-option K=V       an ssh option (ssh -o K=V; repeatable), e.g. ProxyJump=gate
)";

std::set<std::string> withExecutorOptions(std::set<std::string> valued) {
    valued.insert({"executor", "ssh-host", "ssh-key", "ssh-dir", "ssh-slots", "ssh-gpus", "ssh-option"});
    return valued;
}

Result<std::unique_ptr<eval::Executor>> makeExecutor(const Args& args, std::size_t localWorkers) {
    const std::string kind = args.value("executor").value_or(args.has("ssh-host") ? "ssh" : "local");
    if (kind == "ssh") return makeSshExecutor(args);
    if (kind != "local") return usage("--executor expects local or ssh, got '" + kind + "'");
    for (const char* option : {"ssh-host", "ssh-key", "ssh-dir", "ssh-slots", "ssh-gpus", "ssh-option"})
        if (args.has(option)) return usage(std::string("--") + option + " applies to --executor ssh, not local");
    eval::LocalExecutorConfig config;
    config.workers = localWorkers;
    if (auto policy = args.value("sandbox")) {
        auto parsed = eval::parseSandboxPolicy(*policy);
        if (!parsed) return usage(parsed.error().message);
        config.sandbox = *parsed;
    }
    auto executor = eval::LocalExecutor::create(config);
    if (!executor) return executor.error();
    return std::unique_ptr<eval::Executor>(std::move(*executor));
}

} // namespace ks::cli
