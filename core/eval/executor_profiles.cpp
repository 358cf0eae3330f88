#include "eval/executor_profiles.h"

#include "util/files.h"
#include "util/paths.h"
#include "util/text.h"

#include <nlohmann/json.hpp>

#include <set>

namespace kw::eval {
namespace {

using nlohmann::json;

// Reads one profile's keys, naming the file, profile and key in every error.
class ProfileReader {
  public:
    ProfileReader(const json& object, std::string where) : object_(object), where_(std::move(where)) {}

    Error error(const std::string& key, const std::string& expected) const {
        return makeError(ErrorCode::Validation, where_ + ": \"" + key + "\" must be " + expected);
    }
    // Keys this kind does not know are mistakes (a typo would silently do nothing).
    Status onlyKnown(const std::set<std::string>& known) const {
        for (auto it = object_.begin(); it != object_.end(); ++it)
            if (!known.count(it.key())) {
                std::string names;
                for (const auto& k : known) names += (names.empty() ? "" : ", ") + k;
                return makeError(ErrorCode::Validation,
                                 where_ + ": unknown key \"" + it.key() + "\" (known here: " + names + ")");
            }
        return {};
    }
    Status text(const std::string& key, std::string& out) const {
        if (!object_.contains(key)) return {};
        if (!object_[key].is_string()) return error(key, "a string");
        out = object_[key].get<std::string>();
        return {};
    }
    Status count(const std::string& key, std::size_t& out, std::size_t minimum) const {
        if (!object_.contains(key)) return {};
        const auto& v = object_[key];
        if (!v.is_number_integer() || v.get<long long>() < static_cast<long long>(minimum))
            return error(key, "a whole number of at least " + std::to_string(minimum));
        out = v.get<std::size_t>();
        return {};
    }
    Status seconds(const std::string& key, double& out, bool zeroAllowed = false) const {
        if (!object_.contains(key)) return {};
        if (!object_[key].is_number() || object_[key].get<double>() < 0 || (!zeroAllowed && object_[key].get<double>() == 0))
            return error(key, zeroAllowed ? "a number of seconds, 0 or more" : "a positive number of seconds");
        out = object_[key].get<double>();
        return {};
    }
    // A list of strings; a single string is split at commas.
    Status list(const std::string& key, std::vector<std::string>& out) const {
        if (!object_.contains(key)) return {};
        const auto& v = object_[key];
        if (v.is_string()) {
            out = splitComma(v.get<std::string>());
            return {};
        }
        if (!v.is_array()) return error(key, "a list of strings");
        out.clear();
        for (const auto& item : v) {
            if (!item.is_string()) return error(key, "a list of strings");
            out.push_back(item.get<std::string>());
        }
        return {};
    }

  private:
    const json& object_;
    std::string where_;
};

#define KW_TRY(expr)                                                                                                             \
    if (auto s_ = (expr); !s_) return s_.error()

Result<ExecutorChoice> readProfile(const json& p, const std::string& where) {
    if (!p.is_object()) return makeError(ErrorCode::Validation, where + ": a profile must be an object with a \"kind\"");
    if (!p.contains("kind") || !p["kind"].is_string())
        return makeError(ErrorCode::Validation, where + ": \"kind\" is missing (local, ssh or slurm)");
    auto kind = parseExecutorKind(p["kind"].get<std::string>());
    if (!kind) return makeError(ErrorCode::Validation, where + ": " + kind.error().message);
    ExecutorChoice c;
    c.kind = *kind;
    ProfileReader r(p, where);
    // "sandbox" holds for every kind: ssh hosts and Slurm nodes too.
    std::string sandbox;
    KW_TRY(r.text("sandbox", sandbox));
    if (!sandbox.empty()) {
        auto policy = parseSandboxPolicy(sandbox);
        if (!policy) return makeError(ErrorCode::Validation, where + ": " + policy.error().message);
        c.local.sandbox = c.ssh.sandbox = c.slurm.sandbox = *policy;
    }
    switch (c.kind) {
    case ExecutorKind::Local: {
        KW_TRY(r.onlyKnown({"kind", "workers", "sandbox"}));
        KW_TRY(r.count("workers", c.local.workers, 0));
        break;
    }
    case ExecutorKind::Ssh: {
        KW_TRY(r.onlyKnown({"kind", "hosts", "key", "dir", "slots", "gpus", "options", "sandbox"}));
        std::vector<std::string> targets, options;
        KW_TRY(r.list("hosts", targets));
        if (targets.empty()) return r.error("hosts", "a list of one or more USER@HOST[:PORT]");
        SshHost shared;
        std::string key;
        KW_TRY(r.text("key", key));
        shared.identityFile = key;
        KW_TRY(r.text("dir", shared.remoteDir));
        KW_TRY(r.list("gpus", shared.gpus));
        shared.slotCount = shared.gpus.empty() ? 1 : shared.gpus.size();
        KW_TRY(r.count("slots", shared.slotCount, 1));
        KW_TRY(r.list("options", options));
        for (const auto& o : options) c.ssh.extraSshOptions.insert(c.ssh.extraSshOptions.end(), {"-o", o});
        for (const auto& t : targets) {
            auto parsed = parseSshTarget(t);
            if (!parsed) return makeError(ErrorCode::Validation, where + ": " + parsed.error().message);
            SshHost h = shared;
            h.host = parsed->host;
            h.user = parsed->user;
            h.port = parsed->port;
            c.ssh.hosts.push_back(h);
        }
        break;
    }
    case ExecutorKind::Slurm: {
        KW_TRY(r.onlyKnown({"kind", "dir", "partition", "account", "qos", "gres", "time", "jobs", "args", "requeue", "poll",
                            "max_poll", "linger", "sandbox"}));
        std::string dir;
        KW_TRY(r.text("dir", dir));
        if (dir.empty()) return r.error("dir", "the shared dir for job dirs, an absolute path the compute nodes see");
        c.slurm.sharedDir = dir;
        KW_TRY(r.text("partition", c.slurm.submit.partition));
        KW_TRY(r.text("account", c.slurm.submit.account));
        KW_TRY(r.text("qos", c.slurm.submit.qos));
        KW_TRY(r.text("gres", c.slurm.submit.gres));
        KW_TRY(r.text("time", c.slurm.submit.timeLimit));
        KW_TRY(r.count("jobs", c.slurm.maxJobs, 1));
        KW_TRY(r.list("args", c.slurm.submit.extraArgs));
        std::size_t requeue = static_cast<std::size_t>(c.slurm.requeueAttempts);
        KW_TRY(r.count("requeue", requeue, 0));
        c.slurm.requeueAttempts = static_cast<int>(requeue);
        KW_TRY(r.seconds("poll", c.slurm.pollIntervalS));
        c.slurm.maxPollIntervalS = std::max(c.slurm.maxPollIntervalS, c.slurm.pollIntervalS);
        KW_TRY(r.seconds("max_poll", c.slurm.maxPollIntervalS));
        KW_TRY(r.seconds("linger", c.slurm.lingerS, true));
        break;
    }
    }
    return c;
}

#undef KW_TRY

} // namespace

std::string executorKindName(ExecutorKind kind) {
    switch (kind) {
    case ExecutorKind::Local:
        return "local";
    case ExecutorKind::Ssh:
        return "ssh";
    case ExecutorKind::Slurm:
        return "slurm";
    }
    return "local";
}

Result<ExecutorKind> parseExecutorKind(const std::string& text) {
    for (auto k : {ExecutorKind::Local, ExecutorKind::Ssh, ExecutorKind::Slurm})
        if (text == executorKindName(k)) return k;
    return makeError(ErrorCode::InvalidArgument, "unknown executor kind '" + text + "' (local, ssh or slurm)");
}

std::filesystem::path defaultExecutorProfilesFile() {
    return paths::configDir() / "executors.json";
}

Result<std::map<std::string, ExecutorChoice>> parseExecutorProfiles(const std::string& text, const std::string& origin) {
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        return makeError(ErrorCode::ParseError, origin + ": not valid JSON: " + e.what());
    }
    if (!doc.is_object() || !doc.contains("profiles") || !doc["profiles"].is_object())
        return makeError(ErrorCode::Validation,
                         origin + ": expected {\"profiles\": {\"NAME\": {\"kind\": \"local|ssh|slurm\", ...}, ...}}");
    std::map<std::string, ExecutorChoice> profiles;
    for (auto it = doc["profiles"].begin(); it != doc["profiles"].end(); ++it) {
        auto choice = readProfile(it.value(), origin + ": profile \"" + it.key() + "\"");
        if (!choice) return choice.error();
        profiles.emplace(it.key(), std::move(*choice));
    }
    return profiles;
}

Result<std::map<std::string, ExecutorChoice>> loadExecutorProfiles(const std::filesystem::path& file) {
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) return std::map<std::string, ExecutorChoice>{};
    auto text = readTextFile(file);
    if (!text) return text.error();
    return parseExecutorProfiles(*text, file.string());
}

Result<ExecutorChoice> findExecutorProfile(const std::filesystem::path& file, const std::string& name) {
    auto profiles = loadExecutorProfiles(file);
    if (!profiles) return profiles.error();
    if (auto it = profiles->find(name); it != profiles->end()) return it->second;
    std::string names;
    for (const auto& [n, c] : *profiles) names += (names.empty() ? "" : ", ") + n;
    return makeError(ErrorCode::NotFound, "no executor profile '" + name + "' in " + file.string() +
                                              (names.empty() ? " (it defines none)" : " (it has: " + names + ")"));
}

Result<std::unique_ptr<Executor>> makeExecutor(const ExecutorChoice& choice) {
    const auto made = [](auto result) -> Result<std::unique_ptr<Executor>> {
        if (!result) return result.error();
        return std::unique_ptr<Executor>(std::move(*result));
    };
    switch (choice.kind) {
    case ExecutorKind::Ssh:
        return made(SshExecutor::create(choice.ssh));
    case ExecutorKind::Slurm:
        return made(SlurmExecutor::create(choice.slurm));
    case ExecutorKind::Local:
        break;
    }
    return made(LocalExecutor::create(choice.local));
}

} // namespace kw::eval
