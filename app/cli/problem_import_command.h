#pragma once
// problem import: KernelBench-format files into problem folders (see problem_import_command.cpp).
#include "importer/torch_problem_import.h"

#include <filesystem>
#include <string>
#include <vector>

namespace kw::cli {

// One file into a problem folder, or a folder of files into a suite (`jobs`
// files at once, spread over `gpus` when named); the exit code.
// `defaults` carries the import's choices (forbidden ops, random draws).
int importProblems(const std::filesystem::path& from, const std::string& out, const std::string& name, int jobs = 1,
                   const std::vector<std::string>& gpus = {}, const importer::ImportOptions& defaults = {});

} // namespace kw::cli
