#pragma once
#include <filesystem>

namespace ks::paths {

// $XDG_DATA_HOME/kernelsmith (default ~/.local/share/kernelsmith).
std::filesystem::path dataDir();
// $XDG_CACHE_HOME/kernelsmith (default ~/.cache/kernelsmith): what can be measured again.
std::filesystem::path cacheDir();
// $XDG_CONFIG_HOME/kernelsmith (default ~/.config/kernelsmith): what a person sets up.
std::filesystem::path configDir();
// The default workspace database inside dataDir().
std::filesystem::path defaultDatabase();
// resources/ of the build tree or the installed share/kernelsmith;
// KS_RESOURCES_DIR overrides both.
std::filesystem::path resourcesDir();
std::filesystem::path bundledProblemsDir();
// The knowledge base that ships: kb/ of the source tree beside the build tree's
// resources, share/kernelsmith/kb when installed (or under KS_RESOURCES_DIR).
std::filesystem::path shippedKbDir();

} // namespace ks::paths
