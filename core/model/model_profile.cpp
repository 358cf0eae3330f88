#include "model/model_profile.h"

#include "eval/embedded_templates.h"
#include "eval/process_runner.h"
#include "util/files.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <unistd.h>

namespace kw::model {
namespace fs = std::filesystem;
using nlohmann::json;

Result<ModelProfile> parseModelProfile(const std::string& answer) {
    const json r = json::parse(answer, nullptr, false);
    if (!r.is_object()) return makeError(ErrorCode::ParseError, "the model profiler gave no answer");
    if (!r.value("ok", false)) return makeError(ErrorCode::Validation, r.value("error", std::string("the model did not run")));
    try {
        ModelProfile p;
        p.device = r.value("device", std::string());
        p.steps = r.value("steps", 0);
        p.stepSeconds = r.value("step_s", 0.0);
        for (const auto& o : r.value("ops", json::array()))
            p.ops.push_back({o.at("name").get<std::string>(), o.value("calls", 0), o.value("time_s", 0.0), o.value("share", 0.0),
                             o.value("shapes", std::vector<std::string>{})});
        for (const auto& g : r.value("regions", json::array()))
            p.regions.push_back({g.at("name").get<std::string>(), g.value("kind", std::string()), g.value("calls", 0),
                                 g.value("time_s", 0.0), g.value("share", 0.0), g.value("bytes", std::int64_t{0})});
        return p;
    } catch (const json::exception& e) {
        return makeError(ErrorCode::ParseError, std::string("the model profiler's answer is malformed: ") + e.what());
    }
}

Result<ModelProfile> profileModel(const fs::path& file, const ProfileOptions& options) {
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) return makeError(ErrorCode::NotFound, file.string() + ": no such file");
    const std::string python = eval::torchPython();
    if (python.empty())
        return makeError(ErrorCode::NotFound, "python3 is not on PATH: the profile runs the model; install python3 with "
                                              "PyTorch, or set KW_PYTHON");
    const fs::path dir =
        fs::temp_directory_path() / ("kernelwright-model-" + std::to_string(::getpid()) + "-" + file.stem().string());
    fs::create_directories(dir, ec);
    std::ofstream(dir / "model_profile.py", std::ios::binary) << eval::embeddedTemplates().at("model_profile.py");
    eval::ProcessSpec spec;
    spec.argv = {python, (dir / "model_profile.py").string(), fs::absolute(file).string(), std::to_string(options.steps)};
    spec.workDir = dir;
    spec.stdoutFile = dir / "out.json";
    spec.stderrFile = dir / "err.txt";
    spec.limits.wallSeconds = options.timeoutS;
    if (!options.gpu.empty()) spec.extraEnv.push_back("CUDA_VISIBLE_DEVICES=" + options.gpu);
    const auto o = eval::runProcess(spec);
    const auto out = readTextFile(spec.stdoutFile), err = readTextFile(spec.stderrFile);
    fs::remove_all(dir, ec);
    if (!o.started) return makeError(ErrorCode::Io, "cannot start " + python + ": " + o.startError);
    if (o.timedOut)
        return makeError(ErrorCode::Io, file.string() + ": the model's steps did not finish within " +
                                            std::to_string(static_cast<int>(options.timeoutS)) +
                                            " s; profile fewer steps (--steps) or smaller inputs");
    // The last line is the profiler's answer; a model that prints keeps its prints before it.
    std::string text = out ? *out : std::string();
    while (!text.empty() && text.back() == '\n') text.pop_back();
    const auto nl = text.find_last_of('\n');
    auto profile = parseModelProfile(nl == std::string::npos ? text : text.substr(nl + 1));
    if (!profile && profile.error().code == ErrorCode::ParseError) {
        const std::string why = err ? err->substr(err->size() > 600 ? err->size() - 600 : 0) : std::string();
        return makeError(ErrorCode::Io, file.string() + ": the model profiler gave no answer (exit " +
                                            std::to_string(o.exitCode) +
                                            (o.signal ? ", signal " + std::to_string(o.signal) : std::string()) + "): " + why);
    }
    return profile;
}

} // namespace kw::model
