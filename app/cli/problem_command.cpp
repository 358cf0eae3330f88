// kernelwright-cli problem check DIR | problem list | problem import FILE|DIR
#include "args.h"
#include "command_table.h"
#include "commands.h"
#include "exit_codes.h"
#include "problem_import_command.h"
#include "util/text.h"

#include "eval/cuda_compile_check.h"
#include "eval/cuda_harness_generator.h"
#include "problem/problem_loader.h"
#include "util/paths.h"

#include <cstdio>
#include <filesystem>
#include <iostream>

#include <unistd.h>

namespace kw::cli {

std::string resolveProblemDir(const std::string& nameOrDir) {
    std::error_code ec;
    if (std::filesystem::is_directory(nameOrDir, ec)) return nameOrDir;
    const auto bundled = paths::bundledProblemsDir();
    if (std::filesystem::is_directory(bundled / nameOrDir, ec)) return (bundled / nameOrDir).string();
    for (const auto& dir : problem::findProblemDirs(bundled))
        if (dir.filename() == nameOrDir) return dir.string();
    return nameOrDir; // the loader reports it as missing
}

namespace {

const char* kProblemHelp = R"(usage: kernelwright-cli problem check DIR|NAME
       kernelwright-cli problem list
       kernelwright-cli problem import FILE.py|DIR [--out DIR] [--name NAME] [--jobs N] [--gpus 0,1,...]
                                       [--forbid-reference-ops] [--allow-random]

  check   validate a problem folder; prints the kernel's prototype, sizes,
          shapes, and each seed's tunable parameters. For a cuda problem on a
          machine with nvcc, also builds the reference, baselines and seeds
          (compile only). Exit 10 when invalid.
  list    the bundled problems
  import  turn a PyTorch module in KernelBench's format (class Model,
          get_inputs, get_init_inputs, module-level sizes) into a torch
          problem folder (default ./NAME): finds the sizes, keeps the check
          shapes the reference runs on (1, 17, 33, ... for every size that
          sizes an input tensor), measures bytes (and flops with PyTorch 2.1+)
          at the file's own sizes, sets tolerances from the reference's own
          rounding (its answer in float64 against its own dtype, and two runs
          on the device), and reports what it could not infer. The policy is
          KernelBench's: a candidate may call library ops (graded against eager
          and torch.compile, so delegating earns about 1x);
          --forbid-reference-ops forbids the reference's compute ops instead
          (never allocation, indexing or helpers such as arange and cumsum). A
          forward that draws random numbers is refused (draw them in __init__
          or get_inputs) unless --allow-random. Runs the reference with KW_PYTHON
          or python3 (GPU when visible, else CPU). A DIR imports every .py in
          it as a suite (DIR-suite/, with suite.json), --jobs N files at once
          (default 1; each runs its reference in a Python of its own, spread
          over --gpus when given; a file that runs out of memory beside the
          others is imported again alone). Importing a DIR again into the
          same folder keeps each problem an earlier import finished from the
          same, unchanged file (a stopped import goes on). Exit 1 when a file
          is not importable, with what to fix.
)";

// The cuda problem's own sources, built with nvcc as its jobs would build them
// (compile only, default params): "" when all build, else what did not.
std::string buildCudaSources(const problem::ProblemSpec& p) {
    const auto scratch =
        std::filesystem::temp_directory_path() / ("kernelwright-check-" + p.name + "-" + std::to_string(::getpid()));
    std::vector<std::pair<std::string, const std::string*>> sources{{"reference", &p.reference.text}};
    for (const auto& b : p.baselines) sources.emplace_back("baseline " + b.name, &b.text);
    for (const auto& s : p.seeds) sources.emplace_back("seed " + s.name, &s.text);
    std::string failed, built;
    for (const auto& [what, text] : sources) {
        auto space = problem::parseParamDeclarations(*text, what);
        auto params = space ? space->complete({}) : Result<problem::ParamAssignment>(space.error());
        if (!params) {
            failed += "  " + what + ": " + params.error().message + "\n";
            continue;
        }
        const auto dir = scratch / std::to_string(&what - &sources.front().first);
        auto job = eval::CudaHarnessGenerator::write(p, eval::Candidate{what, *text, *params}, *space, eval::EvalOptions{}, dir);
        if (!job) {
            failed += "  " + what + ": " + job.error().message + "\n";
            continue;
        }
        const auto result = eval::compileCudaCandidate(dir, p.limits.compileTimeoutS);
        if (!result.ran)
            failed += "  " + what + ": " + result.note + "\n";
        else if (!result.built)
            failed += "  " + what + " does not build:\n" + result.log + "\n";
        else
            built += (built.empty() ? "" : ", ") + what;
    }
    std::error_code ec;
    std::filesystem::remove_all(scratch, ec);
    if (failed.empty()) std::printf("  nvcc        builds for %s: %s\n", p.cudaArch.c_str(), built.c_str());
    return failed;
}

int check(const std::string& target) {
    const auto dir = resolveProblemDir(target);
    auto spec = problem::loadProblem(dir);
    if (!spec) {
        std::fprintf(stderr, "%s: invalid problem\n%s\n", dir.c_str(), spec.error().message.c_str());
        return kExitInvalidProblem;
    }
    const auto& p = *spec;
    std::printf("%s: ok\n", dir.c_str());
    std::printf("  name        %s (%s backend)\n", p.name.c_str(), problem::backendName(p.backend));
    if (p.backend == problem::Backend::Torch) {
        std::string sizes = joinComma(p.sizes), forbidden;
        for (const auto& f : p.forbidden) forbidden += (forbidden.empty() ? "" : ", ") + ("\"" + f + "\"");
        std::printf("  module      class ModelNew(torch.nn.Module), replacing %s's Model\n", p.reference.path.filename().c_str());
        std::printf("  sizes       %s\n", sizes.c_str());
        std::printf("  shapes      %zu check, %zu timing\n", p.checkShapes.size(), p.timeShapes.size());
        std::printf("  baselines   reference (eager), torch.compile\n");
        if (!forbidden.empty()) std::printf("  forbidden   %s\n", forbidden.c_str());
    } else {
        std::printf("  kernel      extern \"C\" %s\n", p.prototype().c_str());
        if (p.backend == problem::Backend::Cuda)
            std::printf("  launcher    takes device pointers and launches its kernels; nvcc -arch=%s\n", p.cudaArch.c_str());
        std::printf("  arguments   ");
        for (std::size_t i = 0; i < p.arguments.size(); ++i) {
            const auto& a = p.arguments[i];
            std::string shape;
            for (const auto& d : a.shape) shape += (shape.empty() ? "" : ", ") + d.text();
            std::printf("%s%s %s[%s]%s", i ? ", " : "", std::string(problem::dtypeName(a.dtype)).c_str(), a.name.c_str(),
                        shape.c_str(), a.output ? " (out)" : "");
        }
        std::printf("\n  shapes      %zu check, %zu timing\n", p.checkShapes.size(), p.timeShapes.size());
        std::printf("  baselines   reference%s", p.baselines.empty() ? "" : ", ");
        for (std::size_t i = 0; i < p.baselines.size(); ++i) std::printf("%s%s", i ? ", " : "", p.baselines[i].name.c_str());
        std::printf("\n");
    }
    for (const auto& s : p.seeds) {
        std::printf("  seed        %s: %zu params, %llu configurations\n", s.name.c_str(), s.params.params.size(),
                    static_cast<unsigned long long>(s.params.size()));
        for (const auto& d : s.params.params)
            std::printf("                %s: %s = %s\n", d.name.c_str(), d.describe().c_str(), d.defaultValue.c_str());
    }
    if (p.backend == problem::Backend::Cuda) {
        if (eval::findNvcc().empty()) {
            std::printf("  nvcc        not on this machine: the sources were not built (KW_NVCC, PATH, /usr/local/cuda/bin)\n");
        } else if (const auto failed = buildCudaSources(p); !failed.empty()) {
            std::fprintf(stderr, "%s: the problem's CUDA sources do not all build:\n%s", dir.c_str(), failed.c_str());
            return kExitInvalidProblem;
        }
    }
    return kExitOk;
}

int list() {
    const auto root = paths::bundledProblemsDir();
    const auto dirs = problem::findProblemDirs(root);
    if (dirs.empty()) {
        std::fprintf(stderr, "no bundled problems under %s (set KW_RESOURCES_DIR?)\n", root.c_str());
        return kExitError;
    }
    for (const auto& dir : dirs) {
        auto spec = problem::loadProblem(dir);
        const auto rel = std::filesystem::relative(dir, root).string();
        if (spec)
            std::printf("%-28s %s\n", rel.c_str(), spec->title.c_str());
        else
            std::printf("%-28s INVALID: %s\n", rel.c_str(), spec.error().message.substr(0, 100).c_str());
    }
    return kExitOk;
}

} // namespace

int runProblemCommand(const std::vector<std::string>& argv, const GlobalOptions&) {
    std::string error;
    auto args = Args::parse(argv, verb("problem").valued, verb("problem").flags, error, "problem");
    if (!args) {
        std::fprintf(stderr, "problem: %s\n", error.c_str());
        return kExitUsage;
    }
    const auto& pos = args->positional();
    if (args->has("help") || pos.empty()) {
        std::fputs(kProblemHelp, args->has("help") ? stdout : stderr);
        return args->has("help") ? kExitOk : kExitUsage;
    }
    if (pos[0] == "check" && pos.size() == 2) return check(pos[1]);
    if (pos[0] == "list" && pos.size() == 1) return list();
    if (pos[0] == "import" && pos.size() == 2) {
        const int jobs = std::stoi(args->value("jobs").value_or("1")); // checked by the parser (option_types.cpp)
        const auto gpus = splitComma(args->value("gpus").value_or(""));
        importer::ImportOptions defaults;
        defaults.forbidReferenceOps = args->has("forbid-reference-ops");
        defaults.allowRandom = args->has("allow-random");
        return importProblems(pos[1], args->value("out").value_or(""), args->value("name").value_or(""), jobs, gpus, defaults);
    }
    std::fputs(kProblemHelp, stderr);
    return kExitUsage;
}

} // namespace kw::cli
