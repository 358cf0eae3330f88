#pragma once
// The cuda backend's compile-only stage: before a job leaves for a GPU host,
// its candidate is built here, wherever this machine has nvcc, so that a build
// error costs seconds on this machine instead of a trip to the GPU and a slot
// there. The job's own run.sh does the building (`run.sh compile-only`), so
// the flags are exactly those the GPU host will use; it runs sandboxed.
#include <filesystem>
#include <stop_token>
#include <string>

namespace kw::eval {

struct CompileCheck {
    bool ran = false;   // false: no nvcc here, or the stage itself could not run (see `note`)
    bool built = false; // the candidate compiled
    std::string log;    // nvcc's output when it did not
    std::string note;   // why the stage did not run, for the log
    double seconds = 0;
};

// nvcc on this machine: $KW_NVCC, then PATH, then /usr/local/cuda/bin/nvcc; empty when none.
std::filesystem::path findNvcc();

// Runs the job dir's `run.sh compile-only` (written by CudaHarnessGenerator).
CompileCheck compileCudaCandidate(const std::filesystem::path& jobDir, double timeoutS, std::stop_token stop = {});

} // namespace kw::eval
