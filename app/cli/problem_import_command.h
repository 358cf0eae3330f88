#pragma once
// problem import: KernelBench-format files into problem folders (see problem_import_command.cpp).
#include <filesystem>
#include <string>

namespace ks::cli {

// One file into a problem folder, or a folder of files into a suite; the exit code.
int importProblems(const std::filesystem::path& from, const std::string& out, const std::string& name);

} // namespace ks::cli
