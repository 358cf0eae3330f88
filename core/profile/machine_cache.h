#pragma once
// One machine model per host, kept as JSON in
// $XDG_CACHE_HOME/kernelsmith/machines/<host>.json: probing takes seconds and
// must not disturb a search, so it runs once per host and again on demand.
// GPU hosts probed elsewhere are stored under their own names.
#include "profile/machine_model.h"
#include "profile/machine_probe.h"

#include <filesystem>
#include <optional>

namespace ks::profile {

std::filesystem::path machineCacheDir();
std::filesystem::path machineCachePath(const std::string& host);

// NotFound when the host was never probed; ParseError names the file to delete.
Result<MachineModel> loadMachine(const std::string& host);
Status saveMachine(const MachineModel& model);

// This host's model: the cached one, or a fresh probe (saved) when there is
// none, it is unreadable, or `reprobe` is set.
Result<MachineModel> localMachine(bool reprobe = false, const ProbeOptions& options = {});

} // namespace ks::profile
