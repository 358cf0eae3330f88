#include "model/model_helper.h"

#include "eval/embedded_templates.h"
#include "eval/process_runner.h"
#include "util/files.h"

#include <atomic>
#include <fstream>
#include <unistd.h>

namespace kw::model {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The scripts import one another: all of them go into the helper's folder.
const char* const kScripts[] = {"model_profile.py", "model_regions.py",        "model_kernels.py",
                                "model_swap.py",    "model_torch_problems.py", "torch_sizes.py"};

} // namespace

Result<json> runModelHelper(const HelperRun& run) {
    const std::string python = eval::torchPython();
    if (python.empty())
        return makeError(ErrorCode::NotFound, "python3 is not on PATH: " + run.what +
                                                  " runs the model; install python3 with PyTorch, or set KW_PYTHON");
    static std::atomic<int> serial{0};
    const fs::path dir =
        fs::temp_directory_path() / ("kernelwright-model-" + std::to_string(::getpid()) + "-" + std::to_string(serial++));
    std::error_code ec;
    fs::create_directories(dir, ec);
    for (const char* name : kScripts) std::ofstream(dir / name, std::ios::binary) << eval::embeddedTemplates().at(name);
    eval::ProcessSpec spec;
    spec.argv = {python, (dir / run.script).string()};
    spec.argv.insert(spec.argv.end(), run.args.begin(), run.args.end());
    spec.workDir = dir;
    spec.stdoutFile = dir / "out.json";
    spec.stderrFile = dir / "err.txt";
    spec.limits.wallSeconds = run.timeoutS;
    if (!run.gpu.empty()) spec.extraEnv.push_back("CUDA_VISIBLE_DEVICES=" + run.gpu);
    const auto o = eval::runProcess(spec);
    const auto out = readTextFile(spec.stdoutFile), err = readTextFile(spec.stderrFile);
    fs::remove_all(dir, ec);
    if (!o.started) return makeError(ErrorCode::Io, "cannot start " + python + ": " + o.startError);
    if (o.timedOut)
        return makeError(ErrorCode::Io, run.what + " did not finish within " + std::to_string(static_cast<int>(run.timeoutS)) +
                                            " s" + (run.hint.empty() ? "" : "; " + run.hint));
    // The last line is the answer; a model that prints keeps its prints before it.
    std::string text = out ? *out : std::string();
    while (!text.empty() && text.back() == '\n') text.pop_back();
    const auto nl = text.find_last_of('\n');
    json answer = json::parse(nl == std::string::npos ? text : text.substr(nl + 1), nullptr, false);
    if (!answer.is_object()) {
        const std::string why = err ? err->substr(err->size() > 600 ? err->size() - 600 : 0) : std::string();
        return makeError(ErrorCode::Io, run.what + " gave no answer (exit " + std::to_string(o.exitCode) +
                                            (o.signal ? ", signal " + std::to_string(o.signal) : std::string()) + "): " + why);
    }
    if (!answer.value("ok", false))
        return makeError(ErrorCode::Validation, answer.value("error", run.what + " failed without saying why"));
    return answer;
}

} // namespace kw::model
