#pragma once
// Bring your own operator: a PyTorch module in KernelBench's format (class
// Model, get_inputs, get_init_inputs, module-level sizes) becomes a torch
// problem folder. The file runs in a Python of its own (torch_import.py,
// KW_PYTHON or python3 on PATH, on the GPU when one is visible, else the
// CPU): it finds the sizes, keeps the check shapes the reference runs on,
// measures bytes and flops, and proposes forbidden ops and tolerances. What
// could not be inferred is reported, never guessed silently.
#include "util/result.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kw::importer {

struct ImportOptions {
    std::filesystem::path outDir; // the problem folder to create (must not hold a problem.json)
    std::string name;             // the problem's name ("" : from the file name)
    double timeoutS = 900;        // the reference runs at every tried shape
    std::string gpu;              // CUDA_VISIBLE_DEVICES for the importer ("" : inherited)
    // KernelBench's rules by default: a candidate may call library ops (it is
    // graded against eager and torch.compile). Set, the reference's compute
    // ops are written as "forbidden" (never allocation, indexing or helpers).
    bool forbidReferenceOps = false;
    // A forward that draws random numbers is refused unless set: its answer
    // is then checked by giving every compared call one generator state.
    bool allowRandom = false;
};

struct ImportReport {
    std::string name;
    std::filesystem::path dir;
    std::vector<std::string> varied; // sizes the check shapes vary
    std::vector<std::string> fixed;  // sizes held at the file's values
    int checkShapes = 0;
    std::vector<std::string> rejected;     // tried shapes the reference did not run on, with why
    std::vector<std::string> forbidden;    // written to problem.json (forbidReferenceOps)
    std::vector<std::string> referenceOps; // the compute ops the reference calls, forbidden or not
    std::string tolerance;                 // how the tolerances were set, for the report
    std::string bytes, flops;              // as written to problem.json
    std::vector<std::string> notes;        // what was not inferred, and what to do about it
    std::string device;                    // where the reference ran (cpu | cuda)
};

// A problem name from a file name: lower case, [a-z0-9_], not starting with a digit.
std::string problemNameFor(const std::filesystem::path& file);

// Imports `file` into options.outDir. Errors say what to fix in the file.
Result<ImportReport> importTorchProblem(const std::filesystem::path& file, const ImportOptions& options);

// The problem an earlier import of `file` left in `outDir`, when that import
// finished and the file is unchanged since (its reference.py is the file's
// text): a folder import that was stopped goes on without redoing it.
std::optional<ImportReport> earlierImport(const std::filesystem::path& file, const std::filesystem::path& outDir);

} // namespace kw::importer
