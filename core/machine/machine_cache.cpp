#include "machine/machine_cache.h"
#include "util/json_text.h"

#include "machine/machine_info.h"
#include "util/files.h"
#include "util/isa_cap.h"
#include "util/log.h"
#include "util/paths.h"

#include <cctype>

namespace kw::machine {

std::filesystem::path machineCacheDir() {
    return paths::cacheDir() / "machines";
}

std::filesystem::path machineCachePath(const std::string& host) {
    // A host name becomes a file name: anything but [A-Za-z0-9._-] turns into '_'.
    std::string safe;
    for (char c : host) safe += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' ? c : '_';
    if (safe.empty() || safe == "." || safe == "..") safe = "unnamed-host";
    // A host measured under KW_MAX_ISA=avx2 is another machine model.
    return machineCacheDir() / (safe + (capAtAvx2() ? "-avx2" : "") + ".json");
}

Result<MachineModel> loadMachine(const std::string& host) {
    const auto path = machineCachePath(host);
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        return makeError(ErrorCode::NotFound, "no machine model for host '" + host + "' (run: kernelwright-cli machine probe)");
    auto text = readTextFile(path);
    if (!text) return text.error();
    auto j = nlohmann::json::parse(*text, nullptr, false);
    if (j.is_discarded())
        return makeError(ErrorCode::ParseError,
                         path.string() + " is not valid JSON: delete it and run kernelwright-cli machine probe");
    auto model = machineFromJson(j);
    if (!model) return makeError(ErrorCode::ParseError, path.string() + ": " + model.error().message);
    return model;
}

Status saveMachine(const MachineModel& model) {
    const auto path = machineCachePath(model.host);
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec) return makeError(ErrorCode::Io, "cannot create " + path.parent_path().string() + ": " + ec.message());
    return writeFileAtomic(path, jsonText(toJson(model), 2) + "\n");
}

Result<MachineModel> localMachine(bool reprobe, const ProbeOptions& options, RoofsOf need) {
    const std::string host = machine::machineInfo("c++").host;
    if (!reprobe) {
        auto cached = loadMachine(host);
        if (cached && (cached->cpuProbed() || (need == RoofsOf::GpusOnly && !cached->gpus.empty()))) return cached;
        if (cached)
            log::profile()->info("the machine model of {} has no CPU measurement (machine import-gpu made it); probing", host);
        else if (cached.error().code != ErrorCode::NotFound)
            log::profile()->warn("{}; probing again", cached.error().message);
    }
    MachineModel model = probeMachine(options);
    // Keep GPUs imported for this host: the CPU probe does not see them.
    if (auto old = loadMachine(host); old && model.gpus.empty()) model.gpus = old->gpus;
    if (auto saved = saveMachine(model); !saved) log::profile()->warn("machine model not cached: {}", saved.error().message);
    return model;
}

} // namespace kw::machine
