#include "util/paths.h"

#include <cstdlib>

namespace ks::paths {

std::filesystem::path dataDir() {
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) return std::filesystem::path(xdg) / "kernelsmith";
    const char* home = std::getenv("HOME");
    return std::filesystem::path(home && *home ? home : ".") / ".local/share/kernelsmith";
}

std::filesystem::path cacheDir() {
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::filesystem::path(xdg) / "kernelsmith";
    const char* home = std::getenv("HOME");
    return std::filesystem::path(home && *home ? home : ".") / ".cache/kernelsmith";
}

std::filesystem::path configDir() {
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return std::filesystem::path(xdg) / "kernelsmith";
    const char* home = std::getenv("HOME");
    return std::filesystem::path(home && *home ? home : "/tmp") / ".config/kernelsmith";
}

std::filesystem::path defaultDatabase() {
    return dataDir() / "workspace.db";
}

std::filesystem::path resourcesDir() {
    if (const char* env = std::getenv("KS_RESOURCES_DIR"); env && *env) return env;
    // A binary run from the build tree uses the sources' resources, so edits to
    // bundled problems show up without installing.
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec).string();
    const std::string buildDir = KS_BUILD_DIR;
    if (!ec && exe.compare(0, buildDir.size(), buildDir) == 0) return KS_SOURCE_RESOURCES_DIR;
    // PREFIX/bin/kernelsmith-cli finds PREFIX/share/kernelsmith wherever PREFIX
    // is: a package built for /usr, a tree unpacked with dpkg -x, an install
    // under another prefix than the one configured.
    if (!ec) {
        const auto beside = std::filesystem::path(exe).parent_path().parent_path() / "share/kernelsmith";
        if (std::filesystem::exists(beside / "problems", ec)) return beside;
    }
    const std::filesystem::path installed = KS_INSTALL_DATA_DIR;
    if (std::filesystem::exists(installed / "problems", ec)) return installed;
    return KS_SOURCE_RESOURCES_DIR;
}

std::filesystem::path bundledProblemsDir() {
    return resourcesDir() / "problems";
}

std::filesystem::path shippedKbDir() {
    const auto resources = resourcesDir();
    std::error_code ec;
    // Installed, the KB sits among the resources; in the source tree it is a
    // folder of its own at the top.
    if (resources != std::filesystem::path(KS_SOURCE_RESOURCES_DIR) && std::filesystem::exists(resources / "kb", ec))
        return resources / "kb";
    return KS_SOURCE_KB_DIR;
}

} // namespace ks::paths
