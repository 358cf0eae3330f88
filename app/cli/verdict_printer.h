#pragma once
#include "eval/evaluation_result.h"
#include "util/format.h"

#include <cstdio>
#include <string>

namespace kw::cli {

// The human-readable verdict of `eval`: status, failing cases with their
// first mismatch, the timing table and the speedup.
void printVerdict(std::FILE* out, const std::string& title, const eval::EvaluationResult& result);
using kw::formatSeconds;

} // namespace kw::cli
