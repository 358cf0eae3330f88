#pragma once
// Reading back what a job wrote besides result.json. The job dir is written
// by untrusted code, so only plain files (no links), few and bounded in size.
#include "eval/executor.h"
#include "util/result.h"

#include <filesystem>
#include <map>
#include <string>

namespace kw::eval {

// Creates a job dir with its src/ and build/ folders; the error names the dir.
Status makeJobDir(const std::filesystem::path& jobDir);

// Only characters that make a plain file name on any host.
std::string fileSafeName(std::string name);

// A file's last non-empty line, trimmed and bounded (for error messages).
std::string lastLineOf(const std::filesystem::path& file);

// The plain files directly in `dir` (file name -> text); none when it is missing.
std::map<std::string, std::string> readProfileFiles(const std::filesystem::path& dir);

// What run.sh left in its job dir, read alike whichever executor ran it:
// build/runsh.err (its stderr) becomes the log tail, profile/ the profile
// files, result.json the result. A run that ended by itself (neither timed out
// nor stopped) without a result.json is an infra error; `endedHow` says how
// run.sh ended ("exit 3").
void readJobOutputs(const std::filesystem::path& dir, const std::string& endedHow, JobOutcome& outcome);

// Copies what readJobOutputs and the crash classifier read (result.json,
// profile/, build/'s logs, times and phase) from a job dir run elsewhere into
// `to`. Plain files only: links the candidate planted stay behind.
void copyJobOutputs(const std::filesystem::path& from, const std::filesystem::path& to);

} // namespace kw::eval
