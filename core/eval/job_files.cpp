#include "eval/job_files.h"

#include "util/files.h"
#include "util/log.h"

namespace ks::eval {

std::map<std::string, std::string> readProfileFiles(const std::filesystem::path& dir) {
    constexpr std::size_t kMaxFiles = 16;
    constexpr std::uintmax_t kMaxBytes = 16u << 20;
    std::map<std::string, std::string> files;
    std::error_code ec;
    if (!std::filesystem::is_directory(std::filesystem::symlink_status(dir, ec))) return files;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        // symlink_status: a link planted by the candidate must not make us read another file.
        if (!std::filesystem::is_regular_file(entry.symlink_status(ec))) continue;
        const auto size = entry.file_size(ec);
        if (ec || size > kMaxBytes) {
            log::eval()->warn("skipping profile file {} ({} bytes)", entry.path().string(), size);
            continue;
        }
        if (auto text = readTextFile(entry.path())) files[entry.path().filename().string()] = *text;
        if (files.size() >= kMaxFiles) break;
    }
    return files;
}

} // namespace ks::eval
