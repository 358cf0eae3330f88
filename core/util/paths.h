#pragma once
#include <filesystem>

namespace kw::paths {

// $XDG_DATA_HOME/kernelwright (default ~/.local/share/kernelwright).
std::filesystem::path dataDir();
// $XDG_CACHE_HOME/kernelwright (default ~/.cache/kernelwright): what can be measured again.
std::filesystem::path cacheDir();
// $XDG_CONFIG_HOME/kernelwright (default ~/.config/kernelwright): what a person sets up.
std::filesystem::path configDir();
// The default workspace database inside dataDir().
std::filesystem::path defaultDatabase();
// resources/ of the build tree or the installed share/kernelwright;
// KW_RESOURCES_DIR overrides both.
std::filesystem::path resourcesDir();
std::filesystem::path bundledProblemsDir();
// The knowledge base that ships: kb/ of the source tree beside the build tree's
// resources, share/kernelwright/kb when installed (or under KW_RESOURCES_DIR).
std::filesystem::path shippedKbDir();

} // namespace kw::paths
