#pragma once
// Where a search's candidates run, chosen per search: this machine, hosts over
// ssh, or a Slurm cluster. Named choices live in a profiles file,
// $XDG_CONFIG_HOME/kernelwright/executors.json:
//   {"profiles": {
//      "gpu-cluster": {"kind": "slurm", "dir": "/shared/kw-jobs", "partition": "gpu", "gres": "gpu:1", "jobs": 16},
//      "h100box": {"kind": "ssh", "hosts": ["me@h100"], "gpus": ["0", "1"]},
//      "here": {"kind": "local", "workers": 2}}}
// The CLI (--executor-profile NAME) and the workbench's New Search dialog read it.
#include "eval/local_executor.h"
#include "eval/slurm_executor.h"
#include "eval/ssh_executor.h"
#include "util/result.h"

#include <filesystem>
#include <map>
#include <memory>
#include <string>

namespace kw::eval {

std::string executorKindName(ExecutorKind kind);
// "local", "ssh", "slurm".
Result<ExecutorKind> parseExecutorKind(const std::string& text);

struct ExecutorChoice {
    ExecutorKind kind = ExecutorKind::Local;
    LocalExecutorConfig local;
    SshExecutorConfig ssh;
    SlurmExecutorConfig slurm;
};

std::filesystem::path defaultExecutorProfilesFile();

// Profile name -> choice. Errors name the file, the profile and the key.
Result<std::map<std::string, ExecutorChoice>> parseExecutorProfiles(const std::string& text, const std::string& origin);
// A missing file holds no profiles.
Result<std::map<std::string, ExecutorChoice>> loadExecutorProfiles(const std::filesystem::path& file);
// An unknown name is an error that lists the known ones.
Result<ExecutorChoice> findExecutorProfile(const std::filesystem::path& file, const std::string& name);

Result<std::unique_ptr<Executor>> makeExecutor(const ExecutorChoice& choice);

} // namespace kw::eval
