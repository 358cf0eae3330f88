#include "store/workspace_files.h"

#include <array>
#include <string>
#include <system_error>

namespace kw::store {

bool isWorkspaceFile(const std::filesystem::path& file, const std::filesystem::path& database) {
    if (file.empty() || database.empty()) return false;
    const std::string base = database.string();
    const std::array<std::filesystem::path, 4> own = {database, base + "-wal", base + "-shm", base + "-journal"};
    std::error_code ec;
    for (const auto& f : own) {
        if (std::filesystem::equivalent(file, f, ec) && !ec) return true;
        ec.clear();
        // Made absolute first: weakly_canonical leaves a relative path whose
        // first part does not exist as it is.
        const auto a = std::filesystem::weakly_canonical(std::filesystem::absolute(file, ec), ec);
        if (ec) continue;
        const auto b = std::filesystem::weakly_canonical(std::filesystem::absolute(f, ec), ec);
        if (!ec && a == b) return true;
        ec.clear();
    }
    return false;
}

} // namespace kw::store
