#include "model/model_profile.h"

#include "model/model_helper.h"

#include <nlohmann/json.hpp>

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
                                 g.value("time_s", 0.0), g.value("share", 0.0), g.value("device_s", 0.0), g.value("host_s", 0.0),
                                 g.value("bytes", std::int64_t{0})});
        return p;
    } catch (const json::exception& e) {
        return makeError(ErrorCode::ParseError, std::string("the model profiler's answer is malformed: ") + e.what());
    }
}

Result<ModelProfile> profileModel(const fs::path& file, const ProfileOptions& options) {
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) return makeError(ErrorCode::NotFound, file.string() + ": no such file");
    auto answer = runModelHelper({"model_profile.py",
                                  {fs::absolute(file).string(), std::to_string(options.steps)},
                                  options.timeoutS,
                                  options.gpu,
                                  file.string() + ": the model's steps",
                                  "profile fewer steps (--steps) or smaller inputs"});
    if (!answer) return answer.error();
    return parseModelProfile(answer->dump());
}

} // namespace kw::model
