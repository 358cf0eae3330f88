#pragma once
// Reading back what a job wrote besides result.json. The job dir is written
// by untrusted code, so only plain files (no links), few and bounded in size.
#include <filesystem>
#include <map>
#include <string>

namespace ks::eval {

// The plain files directly in `dir` (file name -> text); none when it is missing.
std::map<std::string, std::string> readProfileFiles(const std::filesystem::path& dir);

} // namespace ks::eval
