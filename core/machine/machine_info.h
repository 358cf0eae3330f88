#pragma once
#include <string>

namespace kw::machine {

// Identity of this host and toolchain, as far as results depend on them.
struct MachineInfo {
    std::string host;
    std::string cpu;
    std::string compilerVersion; // first line of `CXX --version`
};

// Probed once per process and compiler.
const MachineInfo& machineInfo(const std::string& compiler);

} // namespace kw::machine
