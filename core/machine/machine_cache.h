#pragma once
// One machine model per host, kept as JSON in
// $XDG_CACHE_HOME/kernelwright/machines/<host>.json: probing takes seconds and
// must not disturb a search, so it runs once per host and again on demand.
// GPU hosts probed elsewhere are stored under their own names.
#include "machine/machine_model.h"
#include "machine/machine_probe.h"

#include <filesystem>
#include <optional>

namespace kw::machine {

std::filesystem::path machineCacheDir();
std::filesystem::path machineCachePath(const std::string& host);

// NotFound when the host was never probed; ParseError names the file to delete.
Result<MachineModel> loadMachine(const std::string& host);
Status saveMachine(const MachineModel& model);

// What the caller's roofs need from this host's model: its CPU measured, or
// only its GPUs (every problem runs on a GPU: the floor is the GPU's).
enum class RoofsOf { Cpu, GpusOnly };

// This host's model: the cached one, or a fresh probe (saved, keeping the
// GPUs imported for this host) when there is none, it is unreadable,
// `reprobe` is set, or the CPU is needed and the cached model holds GPUs
// only (machine import-gpu on a host never probed).
Result<MachineModel> localMachine(bool reprobe = false, const ProbeOptions& options = {}, RoofsOf need = RoofsOf::Cpu);

} // namespace kw::machine
