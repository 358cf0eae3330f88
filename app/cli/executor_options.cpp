#include "executor_options.h"

#include "eval/executor_profiles.h"
#include "util/text.h"

namespace kw::cli {
namespace {

Error usage(const std::string& message) {
    return makeError(ErrorCode::InvalidArgument, message);
}

const char* const kSshOptions[] = {"ssh-host", "ssh-key", "ssh-dir", "ssh-slots", "ssh-gpus", "ssh-option"};
const char* const kSlurmOptions[] = {"slurm-dir",  "slurm-partition", "slurm-account", "slurm-qos",     "slurm-gres",
                                     "slurm-time", "slurm-jobs",      "slurm-arg",     "slurm-requeue", "slurm-linger"};

Result<std::size_t> count(const Args& args, const std::string& option, std::size_t minimum, const std::string& what) {
    const auto text = *args.value(option);
    try {
        std::size_t used = 0;
        const long n = std::stol(text, &used);
        if (used != text.size() || n < static_cast<long>(minimum)) throw std::invalid_argument(text);
        return static_cast<std::size_t>(n);
    } catch (const std::exception&) {
        return usage("--" + option + " expects " + what + " (" + std::to_string(minimum) + " or more), got '" + text + "'");
    }
}

// The --ssh-* options over the profile's ssh settings.
Status applySshOptions(const Args& args, eval::SshExecutorConfig& config) {
    eval::SshHost shared = config.hosts.empty() ? eval::SshHost{} : config.hosts.front();
    if (auto key = args.value("ssh-key")) shared.identityFile = *key;
    if (auto dir = args.value("ssh-dir")) shared.remoteDir = *dir;
    if (auto gpus = args.value("ssh-gpus")) {
        shared.gpus = splitComma(*gpus);
        shared.slotCount = shared.gpus.size();
    }
    if (args.has("ssh-slots")) {
        auto n = count(args, "ssh-slots", 1, "a number of jobs per host");
        if (!n) return n.error();
        shared.slotCount = *n;
    }
    for (const auto& option : args.all("ssh-option")) config.extraSshOptions.insert(config.extraSshOptions.end(), {"-o", option});
    std::vector<eval::SshHost> hosts;
    if (args.has("ssh-host"))
        for (const auto& text : args.all("ssh-host")) {
            auto parsed = eval::parseSshTarget(text);
            if (!parsed) return parsed.error();
            hosts.push_back(shared);
            hosts.back().host = parsed->host;
            hosts.back().user = parsed->user;
            hosts.back().port = parsed->port;
        }
    else
        for (const auto& h : config.hosts) {
            hosts.push_back(shared);
            hosts.back().host = h.host;
            hosts.back().user = h.user;
            hosts.back().port = h.port;
        }
    config.hosts = hosts;
    return {};
}

// The --slurm-* options over the profile's Slurm settings.
Status applySlurmOptions(const Args& args, eval::SlurmExecutorConfig& config) {
    if (auto dir = args.value("slurm-dir")) config.sharedDir = *dir;
    auto& s = config.submit;
    for (auto [option, field] : {std::pair{"slurm-partition", &s.partition},
                                 {"slurm-account", &s.account},
                                 {"slurm-qos", &s.qos},
                                 {"slurm-gres", &s.gres},
                                 {"slurm-time", &s.timeLimit}})
        if (auto v = args.value(option)) *field = *v;
    for (const auto& a : args.all("slurm-arg")) s.extraArgs.push_back(a);
    if (args.has("slurm-jobs")) {
        auto n = count(args, "slurm-jobs", 1, "a number of jobs at once");
        if (!n) return n.error();
        config.maxJobs = *n;
    }
    if (args.has("slurm-requeue")) {
        auto n = count(args, "slurm-requeue", 0, "a number of resubmissions");
        if (!n) return n.error();
        config.requeueAttempts = static_cast<int>(*n);
    }
    if (auto text = args.value("slurm-linger")) {
        try {
            std::size_t used = 0;
            const double seconds = std::stod(*text, &used);
            if (used != text->size() || !(seconds >= 0) || seconds > 3600) throw std::invalid_argument(*text);
            config.lingerS = seconds;
        } catch (const std::exception&) {
            return usage("--slurm-linger expects seconds from 0 to 3600 (0: one evaluation per Slurm job), got '" + *text + "'");
        }
    }
    return {};
}

} // namespace

const char* const kExecutorHelp = R"(  --executor local|ssh|slurm
                         where candidates run (default local; --ssh-host implies ssh,
                         --slurm-dir slurm)
  --gpus 0,1,...         local: one worker per GPU, its jobs see only that GPU
                         (CUDA_VISIBLE_DEVICES); timing takes turns per GPU, not across them
  --executor-profile NAME
                         a named executor from $XDG_CONFIG_HOME/kernelwright/executors.json;
                         the options below override its settings
  --ssh-host USER@HOST[:PORT]
                         a GPU or build host to run jobs on over ssh (repeatable);
                         it needs bash, tar and the problem's toolchain, nothing of ours
  --ssh-key FILE         the private key for the hosts (default: ssh's own)
  --ssh-dir DIR          where job dirs go on the hosts (default /tmp/kernelwright-jobs)
  --ssh-slots N          jobs at once per host (default 1, or one per --ssh-gpus entry)
  --ssh-gpus 0,1,...     one GPU per slot, set as CUDA_VISIBLE_DEVICES for its jobs
  --ssh-option K=V       an ssh option (ssh -o K=V; repeatable), e.g. ProxyJump=gate
  --slurm-dir DIR        a dir on a file system the compute nodes share, same path there;
                         job dirs are copied into it and run with sbatch
  --slurm-partition P, --slurm-account A, --slurm-qos Q
                         sbatch's --partition, --account, --qos
  --slurm-gres G         generic resources per job, e.g. gpu:1
  --slurm-time T         Slurm's time limit per job (default: the job's wall limit + 1 min)
  --slurm-jobs N         jobs queued or running at once (default 4)
  --slurm-arg ARG        an sbatch argument (repeatable), e.g. --slurm-arg=--constraint=h100
  --slurm-requeue N      resubmissions of a job the cluster lost (default 2)
  --slurm-linger S       an allocation waits S seconds after its job for the next one,
                         which then starts at once (default 3; 0: one job per allocation)
)";

std::set<std::string> withExecutorOptions(std::set<std::string> valued) {
    valued.insert({"executor", "executor-profile", "gpus"});
    for (const char* o : kSshOptions) valued.insert(o);
    for (const char* o : kSlurmOptions) valued.insert(o);
    return valued;
}

Result<eval::ExecutorChoice> executorChoice(const Args& args, std::size_t localWorkers) {
    eval::ExecutorChoice choice;
    if (auto name = args.value("executor-profile")) {
        auto profile = eval::findExecutorProfile(eval::defaultExecutorProfilesFile(), *name);
        if (!profile) return profile.error();
        choice = *profile;
    } else if (args.has("ssh-host")) {
        choice.kind = eval::ExecutorKind::Ssh;
    } else if (args.has("slurm-dir")) {
        choice.kind = eval::ExecutorKind::Slurm;
    }
    if (auto kind = args.value("executor")) {
        auto parsed = eval::parseExecutorKind(*kind);
        if (!parsed) return usage("--executor expects local, ssh or slurm, got '" + *kind + "'");
        choice.kind = *parsed;
    }
    const auto refuse = [&](const auto& options, const char* kind) -> Status {
        for (const char* option : options)
            if (args.has(option))
                return usage(std::string("--") + option + " applies to --executor " + kind + ", not " +
                             eval::executorKindName(choice.kind));
        return {};
    };
    if (choice.kind != eval::ExecutorKind::Ssh)
        if (auto s = refuse(kSshOptions, "ssh"); !s) return s.error();
    if (choice.kind != eval::ExecutorKind::Slurm)
        if (auto s = refuse(kSlurmOptions, "slurm"); !s) return s.error();
    if (choice.kind != eval::ExecutorKind::Local && args.has("gpus"))
        return usage("--gpus applies to --executor local (ssh hosts take --ssh-gpus; Slurm, --slurm-gres)");
    // --sandbox holds wherever jobs run: on ssh hosts and Slurm nodes too.
    std::optional<eval::SandboxPolicy> sandbox;
    if (auto policy = args.value("sandbox")) {
        auto parsed = eval::parseSandboxPolicy(*policy);
        if (!parsed) return usage(parsed.error().message);
        sandbox = *parsed;
    }
    switch (choice.kind) {
    case eval::ExecutorKind::Ssh:
        if (auto s = applySshOptions(args, choice.ssh); !s) return s.error();
        if (sandbox) choice.ssh.sandbox = *sandbox;
        break;
    case eval::ExecutorKind::Slurm:
        if (auto s = applySlurmOptions(args, choice.slurm); !s) return s.error();
        if (sandbox) choice.slurm.sandbox = *sandbox;
        break;
    case eval::ExecutorKind::Local:
        if (localWorkers > 0 || choice.local.workers == 0) choice.local.workers = localWorkers;
        if (auto gpus = args.value("gpus")) {
            choice.local.gpus = splitComma(*gpus);
            choice.local.workers = choice.local.gpus.size();
        }
        if (sandbox) choice.local.sandbox = *sandbox;
        break;
    }
    return choice;
}

Result<std::unique_ptr<eval::Executor>> makeExecutor(const Args& args, std::size_t localWorkers) {
    auto choice = executorChoice(args, localWorkers);
    if (!choice) return choice.error();
    return eval::makeExecutor(*choice);
}

} // namespace kw::cli
