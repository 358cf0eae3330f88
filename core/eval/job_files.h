#pragma once
// Reading back what a job wrote besides result.json. The job dir is written
// by untrusted code, so only plain files (no links), few and bounded in size.
#include "eval/executor.h"

#include <filesystem>
#include <map>
#include <string>

namespace ks::eval {

// The plain files directly in `dir` (file name -> text); none when it is missing.
std::map<std::string, std::string> readProfileFiles(const std::filesystem::path& dir);

// What run.sh left in its job dir, read alike whichever executor ran it:
// build/runsh.err (its stderr) becomes the log tail, profile/ the profile
// files, result.json the result. A run that ended by itself (neither timed out
// nor stopped) without a result.json is an infra error; `endedHow` says how
// run.sh ended ("exit 3").
void readJobOutputs(const std::filesystem::path& dir, const std::string& endedHow, JobOutcome& outcome);

} // namespace ks::eval
