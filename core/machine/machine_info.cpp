#include "machine/machine_info.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>

namespace kw::machine {
namespace {

std::string firstLineOf(const std::string& command) {
    std::string line;
    if (FILE* pipe = popen(command.c_str(), "r")) {
        char buf[512];
        if (std::fgets(buf, sizeof buf, pipe)) line = buf;
        pclose(pipe);
    }
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    return line;
}

std::string cpuModel() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            return colon == std::string::npos ? line : line.substr(colon + 2);
        }
    return "unknown";
}

} // namespace

const MachineInfo& machineInfo(const std::string& compiler) {
    static std::mutex mutex;
    static std::map<std::string, MachineInfo> cache;
    std::lock_guard lock(mutex);
    auto it = cache.find(compiler);
    if (it != cache.end()) return it->second;
    MachineInfo info;
    char host[256] = {0};
    gethostname(host, sizeof host - 1);
    info.host = host;
    info.cpu = cpuModel();
    // The compiler name comes from our own options, never from candidate input.
    info.compilerVersion = firstLineOf(compiler + " --version 2>/dev/null");
    if (info.compilerVersion.empty()) info.compilerVersion = "unknown (" + compiler + " not found)";
    return cache.emplace(compiler, info).first->second;
}

} // namespace kw::machine
