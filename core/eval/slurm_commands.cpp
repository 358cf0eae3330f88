#include "eval/slurm_commands.h"

#include "util/text.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace kw::eval {
namespace {

std::vector<std::string> splitFields(const std::string& line, char separator) {
    std::vector<std::string> fields;
    std::string field;
    std::istringstream in(line);
    while (std::getline(in, field, separator)) fields.push_back(trim(field));
    return fields;
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!trim(line).empty()) out.push_back(line);
    return out;
}

// squeue's exit_code is the raw wait status: 768 is exit 3, 15 is signal 15.
std::string describeWaitStatus(const std::string& raw) {
    try {
        std::size_t used = 0;
        const long status = std::stol(raw, &used);
        if (used != raw.size() || status < 0) return {};
        if (status & 0x7f) return "signal " + std::to_string(status & 0x7f);
        return "exit " + std::to_string(status >> 8);
    } catch (const std::exception&) {
        return {};
    }
}

// sacct's ExitCode is "EXIT:SIGNAL".
std::string describeExitSignal(const std::string& text) {
    const auto colon = text.find(':');
    if (colon == std::string::npos) return {};
    const std::string code = text.substr(0, colon), signal = text.substr(colon + 1);
    if (!signal.empty() && signal != "0") return "signal " + signal;
    return code.empty() ? std::string() : "exit " + code;
}

} // namespace

const char* const kSlurmBatchScript = R"sh(#!/bin/bash
# A Kernelwright evaluation on Slurm (no #SBATCH lines: sbatch gets its options
# from the command line). $1/<array task> links to the job's shared dir.
# With $2 (milliseconds) and $3 (the runners dir), the allocation then lingers
# that long for another job the client hands it as the link $3/<this job's
# id>/next, and so on: back-to-back evaluations skip Slurm's scheduling delay.
# Going, it renames its inbox first, so a hand-off racing with that lands in
# the renamed dir and still runs; a hand-off after it finds no inbox.
ulimit -c 0
# A prebuild job records the CPU it built the harness and reference for
# (-march=native); other jobs use them only on that CPU, else run.sh builds
# them again. No candidate code has run in a job dir before: the record is ours.
sig=$( { uname -m; grep -m1 '^model name' /proc/cpuinfo; grep -m1 '^flags' /proc/cpuinfo; } 2>/dev/null | cksum | cut -d' ' -f1)
# Jobs on one node take turns timing, as the local executor's workers do.
lock="${TMPDIR:-/tmp}/kernelwright-timing-$(id -u)-${SLURM_JOB_GPUS:-${CUDA_VISIBLE_DEVICES:-cpu}}.lock"
# OpenMP code keeps to the CPUs Slurm gave the job even where it does not bind
# them (as the local executor pins each worker to its own).
[ -z "$OMP_NUM_THREADS" ] && [ -n "${SLURM_CPUS_ON_NODE:-}" ] && export OMP_NUM_THREADS=$SLURM_CPUS_ON_NODE

run_entry() {
  if ! cd "$1/job" 2>/dev/null; then
    echo "kernelwright: cannot enter $1/job on $(hostname): is the shared dir mounted at the same path on this node?" >&2
    exit 97
  fi
  local limit rc start end
  echo "$me" > ../claimed
  limit=$(cat ../limit 2>/dev/null || echo 0)
  mkdir -p build
  if [ ! -f build/prebuild-only ] && [ "$(cat build/prebuilt-on 2>/dev/null)" != "$sig" ]; then rm -f build/harness build/*.so; fi
  exec 3>>"$lock" || exec 3>/dev/null
  start=$EPOCHREALTIME
  # In bubblewrap where the node has it (the policy in ../sandbox; build/kw-sandbox.sh came with the job).
  KW_TIMING_LOCK_FD=3 timeout -k 5 "$limit" bash --norc build/kw-sandbox.sh "$(cat ../sandbox 2>/dev/null || echo preferred)" \
    bash --norc run.sh > build/runsh.out 2> build/runsh.err < /dev/null
  rc=$?
  end=$EPOCHREALTIME
  exec 3>&-
  [ -f build/prebuild-only ] && echo "$sig" > build/prebuilt-on
  printf '%s %s %s %s\n' "$rc" "$start" "$end" "$(hostname)" > ../rc.tmp && mv ../rc.tmp ../rc
}

me=${SLURM_ARRAY_JOB_ID:+${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}}
me=${me:-$SLURM_JOB_ID}
linger=${2:-0}
inbox=
# Before the first run record: the client may hand over a job the moment it sees one.
if [ "$linger" -gt 0 ] 2>/dev/null && [ -n "$3" ] && [ -n "$me" ] && mkdir -p "$3/$me" 2>/dev/null; then inbox="$3/$me"; fi
run_entry "$1/${SLURM_ARRAY_TASK_ID:-0}"
[ -n "$inbox" ] || exit 0
while :; do
  waited=0
  while [ ! -L "$inbox/next" ] && [ "$waited" -lt "$linger" ]; do sleep 0.02; waited=$((waited + 20)); done
  if [ -L "$inbox/next" ]; then
    next=$(readlink "$inbox/next")
    rm -f "$inbox/next"
    run_entry "$next"
    continue
  fi
  mv "$inbox" "$inbox.closed" 2>/dev/null || exit 0
  next=$(readlink "$inbox.closed/next" 2>/dev/null)
  rm -rf "$inbox.closed"
  [ -n "$next" ] && run_entry "$next"
  exit 0
done
)sh";

std::string slurmTimeLimit(double seconds) {
    long long minutes = std::max(1LL, static_cast<long long>(std::ceil(seconds / 60.0)));
    const long long days = minutes / (24 * 60);
    minutes -= days * 24 * 60;
    char text[64];
    std::snprintf(text, sizeof text, "%lld-%02lld:%02lld:00", days, minutes / 60, minutes % 60);
    return text;
}

std::optional<double> parseSlurmTimeLimit(const std::string& text) {
    const std::string t = trim(text);
    if (t == "UNLIMITED" || t == "INFINITE" || t == "-1") return std::numeric_limits<double>::infinity();
    std::vector<long long> parts;
    long long days = 0;
    std::string rest = t;
    const auto dash = t.find('-');
    const auto number = [](const std::string& s, long long& out) {
        if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos) return false;
        out = std::stoll(s);
        return true;
    };
    if (dash != std::string::npos) {
        if (!number(t.substr(0, dash), days)) return std::nullopt;
        rest = t.substr(dash + 1);
    }
    for (const auto& field : splitFields(rest, ':')) {
        long long v = 0;
        if (!number(field, v)) return std::nullopt;
        parts.push_back(v);
    }
    if (parts.empty() || parts.size() > 3 || rest.empty() || rest.back() == ':') return std::nullopt;
    double seconds = 0;
    if (dash != std::string::npos) {
        // days-hours[:minutes[:seconds]]
        const long long scale[] = {3600, 60, 1};
        for (std::size_t i = 0; i < parts.size(); ++i) seconds += static_cast<double>(parts[i] * scale[i]);
        return seconds + static_cast<double>(days) * 86400;
    }
    // minutes, minutes:seconds, hours:minutes:seconds
    if (parts.size() == 1) return static_cast<double>(parts[0] * 60);
    if (parts.size() == 2) return static_cast<double>(parts[0] * 60 + parts[1]);
    return static_cast<double>(parts[0] * 3600 + parts[1] * 60 + parts[2]);
}

std::vector<std::string> sbatchCommand(const SlurmSubmitOptions& options, const SlurmBatch& batch) {
    std::vector<std::string> argv{"sbatch", "--parsable", "--job-name=" + options.jobName,
                                  // Our own resubmission replaces Slurm's: it counts attempts and starts from a clean dir.
                                  "--no-requeue"};
    if (!options.partition.empty()) argv.push_back("--partition=" + options.partition);
    if (!options.account.empty()) argv.push_back("--account=" + options.account);
    if (!options.qos.empty()) argv.push_back("--qos=" + options.qos);
    if (!options.gres.empty()) argv.push_back("--gres=" + options.gres);
    // The job's own wall limit (timeout in the script) ends it first; Slurm's
    // limit leaves a margin for the script around run.sh.
    if (!options.timeLimit.empty())
        argv.push_back("--time=" + options.timeLimit);
    else if (batch.wallLimitS > 0)
        argv.push_back("--time=" + slurmTimeLimit(batch.wallLimitS + 60));
    const std::string dir = batch.batchDir.string();
    if (batch.tasks > 1) {
        argv.push_back("--array=0-" + std::to_string(batch.tasks - 1));
        argv.push_back("--output=" + dir + "/%a/slurm.out");
    } else {
        argv.push_back("--output=" + dir + "/0/slurm.out");
    }
    argv.push_back("--chdir=" + dir);
    // Last, so that a user's argument overrides ours (sbatch keeps the last value).
    argv.insert(argv.end(), options.extraArgs.begin(), options.extraArgs.end());
    argv.push_back(batch.script.string());
    argv.push_back(dir);
    if (batch.lingerS > 0 && !batch.runnersDir.empty()) {
        argv.push_back(std::to_string(static_cast<long long>(std::llround(batch.lingerS * 1000))));
        argv.push_back(batch.runnersDir.string());
    }
    return argv;
}

Result<std::vector<std::string>> parseSbatchOutput(const std::string& output, std::size_t tasks) {
    const auto all = lines(output);
    const std::string last = all.empty() ? std::string() : trim(all.back());
    const std::string id = last.substr(0, last.find(';'));
    if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
        return makeError(ErrorCode::ParseError,
                         "sbatch printed no job id (expected a number from --parsable, got '" + last.substr(0, 200) + "')");
    std::vector<std::string> ids;
    if (tasks <= 1)
        ids.push_back(id);
    else
        for (std::size_t i = 0; i < tasks; ++i) ids.push_back(id + "_" + std::to_string(i));
    return ids;
}

std::vector<std::string> squeueCommand(const std::string& jobName) {
    // -r: one line per array task; -t all: ended jobs too, while slurmctld
    // still holds them (MinJobAge, 300 s by default).
    return {"squeue",       "--noheader",        "--array",
            "--states=all", "--name=" + jobName, "--Format=JobArrayID:|,State:|,Reason:|,exit_code:|,NodeList:|"};
}

std::map<std::string, SlurmJobState> parseSqueueOutput(const std::string& output) {
    std::map<std::string, SlurmJobState> jobs;
    for (const auto& line : lines(output)) {
        const auto f = splitFields(line, '|');
        if (f.size() < 4 || f[0].empty()) continue;
        SlurmJobState s{f[0], f[1], f[2], describeWaitStatus(f[3]), f.size() > 4 ? f[4] : std::string()};
        // A pending array not yet split prints as "123_[4-7]"; its tasks are all pending.
        if (const auto open = s.id.find("_["); open != std::string::npos) {
            const std::string base = s.id.substr(0, open);
            std::string range = s.id.substr(open + 2);
            range = range.substr(0, range.find(']'));
            for (const auto& part : splitComma(range)) {
                const auto dash = part.find('-');
                try {
                    const long first = std::stol(part.substr(0, dash));
                    const long last =
                        dash == std::string::npos ? first : std::stol(part.substr(dash + 1, part.find('%') - dash - 1));
                    for (long i = first; i <= last && i - first < 100000; ++i) {
                        auto task = s;
                        task.id = base + "_" + std::to_string(i);
                        jobs[task.id] = task;
                    }
                } catch (const std::exception&) {
                }
            }
            continue;
        }
        jobs[s.id] = s;
    }
    return jobs;
}

std::vector<std::string> sacctCommand(const std::vector<std::string>& ids, bool completionLog) {
    std::vector<std::string> argv{"sacct", "--noheader", "--parsable2", "--allocations"};
    if (completionLog) argv.push_back("--completion");
    argv.push_back("--jobs=" + joinComma(ids));
    argv.push_back("--format=JobID,State,Reason,ExitCode,NodeList");
    return argv;
}

std::map<std::string, SlurmJobState> parseSacctOutput(const std::string& output) {
    std::map<std::string, SlurmJobState> jobs;
    for (const auto& line : lines(output)) {
        const auto f = splitFields(line, '|');
        // Job steps ("123.batch") say less than the job itself.
        if (f.size() < 4 || f[0].empty() || f[0].find('.') != std::string::npos) continue;
        jobs[f[0]] = SlurmJobState{f[0], f[1], f[2], describeExitSignal(f[3]), f.size() > 4 ? f[4] : std::string()};
    }
    return jobs;
}

std::vector<std::string> scancelCommand(const std::vector<std::string>& ids) {
    std::vector<std::string> argv{"scancel"};
    argv.insert(argv.end(), ids.begin(), ids.end());
    return argv;
}

std::string baseSlurmState(const std::string& state) {
    return state.substr(0, state.find(' '));
}

bool slurmStateIsFinal(const std::string& state) {
    static const char* const kFinal[] = {"BOOT_FAIL", "CANCELLED",     "COMPLETED", "DEADLINE", "FAILED",
                                         "NODE_FAIL", "OUT_OF_MEMORY", "PREEMPTED", "REVOKED",  "TIMEOUT"};
    const std::string base = baseSlurmState(state);
    for (const char* f : kFinal)
        if (base == f) return true;
    return false;
}

std::string describeLostJob(const SlurmJobState& job) {
    const std::string base = baseSlurmState(job.state);
    std::string text = job.state.empty() ? "no longer known to Slurm" : job.state;
    std::vector<std::string> details;
    if (!job.reason.empty() && job.reason != "None") details.push_back("reason " + job.reason);
    if (!job.exit.empty()) details.push_back(job.exit);
    if (!job.node.empty() && job.node != "None assigned") details.push_back("node " + job.node);
    if (!details.empty()) {
        text += " (";
        for (std::size_t i = 0; i < details.size(); ++i) text += (i ? ", " : "") + details[i];
        text += ")";
    }
    std::string why;
    if (base == "NODE_FAIL" || base == "BOOT_FAIL")
        why = "its node failed";
    else if (base == "PREEMPTED")
        why = "a job of higher priority preempted it";
    else if (base == "TIMEOUT" || base == "DEADLINE")
        why = "Slurm's time limit ended it before its own wall limit did (raise --slurm-time)";
    else if (base == "OUT_OF_MEMORY")
        why = "its node's memory limit killed it (ask for more with --slurm-arg=--mem=...)";
    else if (base == "CANCELLED")
        why = "it was cancelled outside Kernelwright (scancel, or an administrator)";
    else if (base == "FAILED" || base == "COMPLETED")
        why = "the batch script ended before run.sh did: is the shared dir mounted at the same path on the node?";
    else if (job.state.empty())
        why = "it ended long ago or slurmctld lost its state";
    return why.empty() ? text : text + ": " + why;
}

std::optional<SlurmRunRecord> parseRunRecord(const std::string& text) {
    // $EPOCHREALTIME takes the node's locale: "1700000000,25" in some.
    std::string plain = text;
    for (char& c : plain)
        if (c == ',') c = '.';
    std::istringstream in(plain);
    SlurmRunRecord r;
    double start = 0, end = 0;
    if (!(in >> r.exitCode >> start >> end)) return std::nullopt;
    in >> r.host;
    r.wallSeconds = std::max(0.0, end - start);
    return r;
}

} // namespace kw::eval
