#pragma once
// Turns what a dead `harness run` left behind (its exit code, its last phase,
// the marker lines of its signal handlers and allocation guard) into a status
// and a message. Runs in Kernelwright, never inside the job: only text is read.
#include "eval/evaluation_result.h"

#include <filesystem>
#include <optional>
#include <string>

namespace kw::eval {

struct CrashEvidence {
    int exitCode = 0;       // as bash reports it: 128+N when killed by signal N
    std::string phase;      // build/phase
    std::string stderrText; // build/run.err
};

EvaluationResult classifyCrash(const CrashEvidence& evidence);
// Reads the evidence from a job dir; nullopt when the harness never ran.
std::optional<CrashEvidence> readCrashEvidence(const std::filesystem::path& jobDir);

} // namespace kw::eval
