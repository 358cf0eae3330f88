#pragma once
// A search's best kernel as a folder someone else can use and check: the
// source with its params baked in (standaloneKernel), and a README.md with
// what it measured (per timing shape, against every baseline, on which
// machine) and the exact command that evaluates it again.
#include "report/secret_scrubber.h"
#include "store/database.h"
#include "util/result.h"

#include <cstdint>
#include <filesystem>
#include <string>

namespace kw::report {

struct BestKernelExport {
    std::int64_t searchId = 0, nodeId = 0;
    std::int64_t nodeNumber = 0; // the node's number in its search (#N), what people see
    double speedup = 0;
    std::string kernelFile;    // a file name: the source's name and the backend's extension
    std::string kernel;        // the standalone source
    std::string readme;        // markdown
    std::string verifyCommand; // kernelwright-cli eval ... --candidate DIR/kernelFile, shell-quoted
};

// The best node of the search (an error when it has none yet), to be written
// to `dir` (the command in the README names the kernel there).
Result<BestKernelExport> exportBestKernel(const store::Database& db, std::int64_t searchId, const std::filesystem::path& dir,
                                          const SecretScrubber& scrubber);

// Writes DIR/kernelFile and DIR/README.md, creating DIR.
Status writeBestKernelExport(const BestKernelExport& exported, const std::filesystem::path& dir);

} // namespace kw::report
