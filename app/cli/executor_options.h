#pragma once
// Where evaluations run: --executor local|ssh|slurm, --executor-profile NAME,
// and the --ssh-* and --slurm-* options, read the same way by eval, search
// start/resume and bench.
#include "args.h"

#include "eval/executor.h"
#include "eval/executor_profiles.h"
#include "util/result.h"

#include <memory>
#include <set>
#include <string>

namespace kw::cli {

// `valued` plus the executor's valued options, for Args::parse.
std::set<std::string> withExecutorOptions(std::set<std::string> valued);

// The options' help, for the commands' usage text.
extern const char* const kExecutorHelp;

// `localWorkers`: the local pool's size (0: one per core). Reads --sandbox
// too where the command takes it. Errors with code InvalidArgument are the
// command line's.
// Where jobs run, from --executor, --executor-profile and their options;
// localWorkers (when > 0) sets a local executor's slots.
Result<eval::ExecutorChoice> executorChoice(const Args& args, std::size_t localWorkers);
Result<std::unique_ptr<eval::Executor>> makeExecutor(const Args& args, std::size_t localWorkers);

} // namespace kw::cli
