#include "eval/job_files.h"

#include "util/files.h"
#include "util/log.h"
#include "util/text.h"

#include <cctype>

namespace kw::eval {

Status makeJobDir(const std::filesystem::path& jobDir) {
    std::error_code ec;
    std::filesystem::create_directories(jobDir / "src", ec);
    if (!ec) std::filesystem::create_directories(jobDir / "build", ec);
    if (ec) return makeError(ErrorCode::Io, jobDir.string() + ": cannot create job dir: " + ec.message());
    return {};
}

std::string fileSafeName(std::string name) {
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
    return name;
}

std::string lastLineOf(const std::filesystem::path& file) {
    auto text = readFileEnds(file, 0, 4096); // a last line, however long the file
    if (!text) return {};
    const std::string t = trim(*text);
    const auto nl = t.find_last_of('\n');
    return trim(nl == std::string::npos ? t : t.substr(nl + 1)).substr(0, 500);
}

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
    if (auto err = readFileEnds(dir / "build" / "runsh.err", 2000, 6000)) outcome.logTail = *err;
    outcome.profileFiles = readProfileFiles(dir / "profile");
    if (auto result = readTextFile(dir / "result.json"))
        outcome.resultJson = *result;
    else if (!outcome.timedOut && !outcome.stopped)
        outcome.infraError = "run.sh ended (" + endedHow + ") without writing result.json";
}

void copyJobOutputs(const std::filesystem::path& from, const std::filesystem::path& to) {
    std::error_code ec;
    const auto copyPlain = [&](const std::filesystem::path& rel) {
        if (!std::filesystem::is_regular_file(std::filesystem::symlink_status(from / rel, ec))) return;
        std::filesystem::create_directories((to / rel).parent_path(), ec);
        std::filesystem::copy_file(from / rel, to / rel, std::filesystem::copy_options::overwrite_existing, ec);
        if (ec) log::eval()->warn("could not copy {} back: {}", (from / rel).string(), ec.message());
    };
    for (const char* rel : {"result.json", "build/times", "build/phase", "build/harness.rc", "build/run.err", "build/runsh.out",
                            "build/runsh.err", "build/sandbox"})
        copyPlain(rel);
    for (const char* sub : {"build", "profile"}) {
        if (!std::filesystem::is_directory(std::filesystem::symlink_status(from / sub, ec))) continue;
        for (const auto& entry : std::filesystem::directory_iterator(from / sub, ec)) {
            const auto name = entry.path().filename();
            if (std::string(sub) == "profile" || name.extension() == ".log") copyPlain(std::filesystem::path(sub) / name);
        }
    }
}

} // namespace kw::eval
