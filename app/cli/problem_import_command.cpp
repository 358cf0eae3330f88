// kernelwright-cli problem import FILE.py|DIR [--out DIR] [--name NAME] [--jobs N]: a
// KernelBench-format file (or a folder of them, as a suite) becomes problems.
#include "problem_import_command.h"

#include "eval/out_of_memory.h"
#include "exit_codes.h"
#include "importer/torch_problem_import.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <optional>
#include <thread>

namespace kw::cli {
namespace {

namespace fs = std::filesystem;

void printReport(const importer::ImportReport& r) {
    std::printf("%s -> %s\n", r.name.c_str(), r.dir.c_str());
    auto list = [](const std::vector<std::string>& v) {
        std::string s;
        for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
        return s.empty() ? std::string("none") : s;
    };
    std::printf("  sizes varied   %s\n", list(r.varied).c_str());
    std::printf("  sizes fixed    %s\n", list(r.fixed).c_str());
    std::printf("  check shapes   %d kept (the reference ran on %s)\n", r.checkShapes, r.device.c_str());
    for (const auto& x : r.rejected) std::printf("    not kept     %s\n", x.c_str());
    std::printf("  bytes          %s at the time shape\n", r.bytes.c_str());
    std::printf("  flops          %s\n", r.flops.c_str());
    if (r.forbidden.empty())
        std::printf("  policy         library: a candidate may call library ops beside its own kernels, graded against eager "
                    "and torch.compile (--forbid-reference-ops forbids the reference's ops: %s)\n",
                    list(r.referenceOps).c_str());
    else
        std::printf("  forbidden      %s\n", list(r.forbidden).c_str());
    if (!r.tolerance.empty()) std::printf("  tolerance      %s\n", r.tolerance.c_str());
    for (const auto& n : r.notes) std::printf("  note           %s\n", n.c_str());
}

} // namespace

int importProblems(const fs::path& from, const std::string& outArg, const std::string& name, int jobs,
                   const std::vector<std::string>& gpus, const importer::ImportOptions& defaults) {
    std::error_code ec;
    if (fs::is_directory(from, ec)) {
        // A folder of files: a suite, one problem folder each, and suite.json listing them.
        std::vector<fs::path> files;
        for (const auto& e : fs::directory_iterator(from, ec))
            if (e.is_regular_file() && e.path().extension() == ".py") files.push_back(e.path());
        std::sort(files.begin(), files.end());
        if (files.empty()) {
            std::fprintf(stderr, "problem import: %s holds no .py files\n", from.c_str());
            return kExitError;
        }
        const fs::path out = outArg.empty() ? fs::path(fs::absolute(from).filename().string() + "-suite") : fs::path(outArg);
        nlohmann::json suite{{"name", name.empty() ? fs::absolute(from).filename().string() : name},
                             {"problems", nlohmann::json::array()},
                             {"not_imported", nlohmann::json::array()}};
        // Each file imports in a Python of its own, `jobs` at a time (worker w
        // on gpus[w % n] when GPUs are named); reports print whole and the
        // suite lists the problems in the files' order.
        std::vector<std::optional<Result<importer::ImportReport>>> results(files.size());
        std::mutex printMutex;
        const auto importOne = [&](std::size_t i, const std::string& gpu) {
            const auto problemName = importer::problemNameFor(files[i]);
            importer::ImportOptions options = defaults;
            options.outDir = out / problemName;
            options.name = problemName;
            options.gpu = gpu;
            // An earlier import into this folder that finished (a level's
            // import stopped partway goes on where it stopped).
            if (auto earlier = importer::earlierImport(files[i], options.outDir)) {
                std::lock_guard lock(printMutex);
                std::printf("%s -> %s (imported before, from the same file: kept)\n", earlier->name.c_str(),
                            earlier->dir.c_str());
                results[i] = std::move(*earlier);
                return;
            }
            auto r = importer::importTorchProblem(files[i], options);
            std::lock_guard lock(printMutex);
            if (r)
                printReport(*r);
            else if (!eval::mentionsOutOfMemory(r.error().message) || jobs == 1)
                std::fprintf(stderr, "problem import: %s: %s\n", files[i].c_str(), r.error().message.c_str());
            std::fflush(stdout);
            results[i] = std::move(r);
        };
        std::atomic<std::size_t> next{0};
        {
            std::vector<std::jthread> workers;
            for (int w = 0; w < std::max(1, jobs); ++w)
                workers.emplace_back([&, w] {
                    const std::string gpu = gpus.empty() ? "" : gpus[static_cast<std::size_t>(w) % gpus.size()];
                    for (std::size_t i; (i = next++) < files.size();) importOne(i, gpu);
                });
        }
        // A file that ran out of memory beside the others gets the device alone.
        if (jobs > 1)
            for (std::size_t i = 0; i < files.size(); ++i)
                if (!*results[i] && eval::mentionsOutOfMemory(results[i]->error().message)) {
                    std::fprintf(stderr, "problem import: %s ran out of memory beside other imports; again alone\n",
                                 files[i].c_str());
                    fs::remove_all(out / importer::problemNameFor(files[i]), ec);
                    jobs = 1; // its error, if it fails again, is printed
                    importOne(i, gpus.empty() ? "" : gpus.front());
                }
        int failed = 0;
        for (std::size_t i = 0; i < files.size(); ++i) {
            const auto& r = *results[i];
            if (r) {
                suite["problems"].push_back(r->name);
            } else {
                ++failed;
                suite["not_imported"].push_back({{"file", files[i].filename().string()}, {"error", r.error().message}});
            }
        }
        fs::create_directories(out, ec);
        std::ofstream(out / "suite.json") << suite.dump(2) << "\n";
        std::printf("suite %s: %zu of %zu files imported into %s\n", suite["name"].get<std::string>().c_str(),
                    suite["problems"].size(), files.size(), out.c_str());
        return failed ? kExitError : kExitOk;
    }
    const auto problemName = name.empty() ? importer::problemNameFor(from) : name;
    const fs::path out = outArg.empty() ? fs::path(problemName) : fs::path(outArg);
    importer::ImportOptions options = defaults;
    options.outDir = out;
    options.name = problemName;
    auto r = importer::importTorchProblem(from, options);
    if (!r) {
        std::fprintf(stderr, "problem import: %s\n", r.error().message.c_str());
        return kExitError;
    }
    printReport(*r);
    std::printf("check it with: kernelwright-cli problem check %s\n", out.c_str());
    return kExitOk;
}

} // namespace kw::cli
