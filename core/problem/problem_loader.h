#pragma once
#include "problem/problem_spec.h"
#include "util/result.h"

#include <filesystem>
#include <string>
#include <vector>

namespace kw::problem {

// Loads and validates a problem folder. On failure the error lists every
// problem found, one per line, as "FILE: /json/path: what was expected".
Result<ProblemSpec> loadProblem(const std::filesystem::path& dir);

// Problem folders (those holding a problem.json) below `root`, sorted.
std::vector<std::filesystem::path> findProblemDirs(const std::filesystem::path& root);

} // namespace kw::problem
