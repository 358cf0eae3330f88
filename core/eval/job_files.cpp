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

void readJobOutputs(const std::filesystem::path& dir, const std::string& endedHow, JobOutcome& outcome) {
    if (auto err = readTextFile(dir / "build" / "runsh.err")) outcome.logTail = truncateMiddle(*err, 2000, 6000);
    outcome.profileFiles = readProfileFiles(dir / "profile");
    if (auto result = readTextFile(dir / "result.json")) outcome.resultJson = *result;
    else if (!outcome.timedOut && !outcome.stopped)
        outcome.infraError = "run.sh ended (" + endedHow + ") without writing result.json";
}

} // namespace ks::eval
