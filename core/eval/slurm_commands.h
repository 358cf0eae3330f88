#pragma once
// The Slurm command lines the Slurm executor runs and the output it reads
// back, apart from the executor so that both can be checked without a cluster.
#include "util/result.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kw::eval {

// What every submission asks Slurm for (SlurmExecutorConfig's sbatch part).
struct SlurmSubmitOptions {
    std::string partition, account, qos;
    std::string gres;      // e.g. "gpu:1"
    std::string timeLimit; // Slurm's --time; empty: the batch's wall limit plus a margin
    std::vector<std::string> extraArgs;
    std::string jobName = "kernelwright"; // squeue finds our jobs by it
};

// One sbatch call: a single job, or a job array whose task i runs the job
// linked as `<batchDir>/<i>`.
struct SlurmBatch {
    std::filesystem::path script;   // the batch script; its one argument is batchDir
    std::filesystem::path batchDir; // <i> -> the shared dir of the i-th job
    std::size_t tasks = 1;          // more than one: a job array 0..tasks-1
    double wallLimitS = 0;          // the longest wall limit of its jobs; 0: none
    // > 0: each allocation lingers this long after its job for another one
    // the client hands it through runnersDir/<Slurm id>/next.
    double lingerS = 0;
    std::filesystem::path runnersDir;
};

std::vector<std::string> sbatchCommand(const SlurmSubmitOptions& options, const SlurmBatch& batch);

// sbatch --parsable prints "ID" or "ID;CLUSTER"; the ids of the batch's jobs
// as squeue and scancel name them ("ID" alone, or "ID_0", "ID_1", ...).
Result<std::vector<std::string>> parseSbatchOutput(const std::string& output, std::size_t tasks);

// Slurm's --time for a wall limit: whole minutes (at least one), D-HH:MM:SS.
std::string slurmTimeLimit(double seconds);
// Seconds of a --time value in any of Slurm's forms (M, M:S, H:M:S, D-H,
// D-H:M, D-H:M:S; UNLIMITED is infinity); nullopt when it is none of them.
std::optional<double> parseSlurmTimeLimit(const std::string& text);

// What Slurm says about one job (one array task).
struct SlurmJobState {
    std::string id;     // "123" or "123_4"
    std::string state;  // PENDING, RUNNING, COMPLETED, NODE_FAIL, ...
    std::string reason; // "None", "Resources", "NonZeroExitCode", ...
    std::string exit;   // "exit 3", "signal 15", or empty when unknown
    std::string node;
};

// One call lists our jobs, queued, running and recently ended, array tasks
// one per line, by their job name.
std::vector<std::string> squeueCommand(const std::string& jobName);
std::map<std::string, SlurmJobState> parseSqueueOutput(const std::string& output);

// For jobs squeue no longer lists. Without a Slurm database, `completionLog`
// reads the job completion log instead (JobCompType=jobcomp/filetxt).
std::vector<std::string> sacctCommand(const std::vector<std::string>& ids, bool completionLog);
std::map<std::string, SlurmJobState> parseSacctOutput(const std::string& output);

std::vector<std::string> scancelCommand(const std::vector<std::string>& ids);

// A job that will not change state again.
bool slurmStateIsFinal(const std::string& state);
// "CANCELLED by 0" -> "CANCELLED".
std::string baseSlurmState(const std::string& state);

// How a job that ended without running to its end ended, for an infra error:
// "NODE_FAIL (reason: ..., exit ..., node ...): the node failed; ...".
std::string describeLostJob(const SlurmJobState& job);

// The record the batch script leaves after run.sh: "RC START END HOST".
struct SlurmRunRecord {
    int exitCode = -1; // run.sh's status under timeout(1): 124/137 when the wall limit ended it
    double wallSeconds = 0;
    std::string host;
};
std::optional<SlurmRunRecord> parseRunRecord(const std::string& text);

// The batch script every job runs. It reads its job from batchDir/<task>,
// runs run.sh under the job's wall limit with a timing lock of the node, and
// writes the run record last, so that its presence means run.sh has ended.
// With a linger time it then waits that long for a handed-over job (see
// SlurmBatch::lingerS), runs it the same way, and so on.
extern const char* const kSlurmBatchScript;

} // namespace kw::eval
