#include "util/paths.h"

#include <cstdlib>

namespace kw::paths {

std::filesystem::path dataDir() {
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) return std::filesystem::path(xdg) / "kernelwright";
    const char* home = std::getenv("HOME");
    return std::filesystem::path(home && *home ? home : ".") / ".local/share/kernelwright";
}

std::filesystem::path cacheDir() {
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::filesystem::path(xdg) / "kernelwright";
    const char* home = std::getenv("HOME");
    return std::filesystem::path(home && *home ? home : ".") / ".cache/kernelwright";
}

std::filesystem::path configDir() {
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return std::filesystem::path(xdg) / "kernelwright";
    const char* home = std::getenv("HOME");
    return std::filesystem::path(home && *home ? home : "/tmp") / ".config/kernelwright";
}

std::filesystem::path defaultDatabase() {
    return dataDir() / "workspace.db";
}

std::filesystem::path resourcesDir() {
    if (const char* env = std::getenv("KW_RESOURCES_DIR"); env && *env) return env;
    // A binary run from the build tree uses the sources' resources, so edits to
    // bundled problems show up without installing.
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec).string();
    const std::string buildDir = KW_BUILD_DIR;
    if (!ec && exe.compare(0, buildDir.size(), buildDir) == 0) return KW_SOURCE_RESOURCES_DIR;
    // PREFIX/bin/kernelwright-cli finds PREFIX/share/kernelwright wherever PREFIX
    // is: a package built for /usr, a tree unpacked with dpkg -x, an install
    // under another prefix than the one configured.
    if (!ec) {
        const auto beside = std::filesystem::path(exe).parent_path().parent_path() / "share/kernelwright";
        if (std::filesystem::exists(beside / "problems", ec)) return beside;
    }
    const std::filesystem::path installed = KW_INSTALL_DATA_DIR;
    if (std::filesystem::exists(installed / "problems", ec)) return installed;
    return KW_SOURCE_RESOURCES_DIR;
}

std::filesystem::path bundledProblemsDir() {
    return resourcesDir() / "problems";
}

std::filesystem::path shippedKbDir() {
    const auto resources = resourcesDir();
    std::error_code ec;
    // Installed, the KB sits among the resources; in the source tree it is a
    // folder of its own at the top.
    if (resources != std::filesystem::path(KW_SOURCE_RESOURCES_DIR) && std::filesystem::exists(resources / "kb", ec))
        return resources / "kb";
    return KW_SOURCE_KB_DIR;
}

} // namespace kw::paths
