#include "util/files.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace kw {

Result<std::string> readTextFile(const std::filesystem::path& path, std::uintmax_t maxBytes) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return makeError(ErrorCode::NotFound, path.string() + ": no such file");
    if (std::filesystem::is_directory(path, ec))
        return makeError(ErrorCode::InvalidArgument, path.string() + ": is a directory, expected a file");
    if (!std::filesystem::is_regular_file(path, ec))
        return makeError(ErrorCode::InvalidArgument,
                         path.string() + ": is not a regular file (a device or a pipe); expected a file");
    std::ifstream in(path, std::ios::binary);
    if (!in) return makeError(ErrorCode::Io, path.string() + ": cannot open: " + std::strerror(errno));
    std::string text;
    char buf[65536];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        text.append(buf, static_cast<std::size_t>(in.gcount()));
        if (text.size() > maxBytes)
            return makeError(ErrorCode::InvalidArgument, path.string() + ": larger than " + std::to_string(maxBytes >> 20) +
                                                             " MiB, the most this file may hold");
    }
    return text;
}

Result<std::string> readFileEnds(const std::filesystem::path& path, std::size_t headBytes, std::size_t tailBytes) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        return makeError(ErrorCode::NotFound, path.string() + ": no such regular file");
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) return makeError(ErrorCode::Io, path.string() + ": " + ec.message());
    if (size <= headBytes + tailBytes) return readTextFile(path, headBytes + tailBytes);
    std::ifstream in(path, std::ios::binary);
    if (!in) return makeError(ErrorCode::Io, path.string() + ": cannot open: " + std::strerror(errno));
    std::string head(headBytes, '\0'), tail(tailBytes, '\0');
    in.read(head.data(), static_cast<std::streamsize>(headBytes));
    head.resize(static_cast<std::size_t>(in.gcount()));
    in.clear();
    in.seekg(static_cast<std::streamoff>(size - tailBytes));
    in.read(tail.data(), static_cast<std::streamsize>(tailBytes));
    tail.resize(static_cast<std::size_t>(in.gcount()));
    return head + "\n[... " + std::to_string(size - headBytes - tailBytes) + " bytes cut ...]\n" + tail;
}

Status writeFileAtomic(const std::filesystem::path& path, const std::string& content) {
    const auto temp = path.string() + ".tmp";
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        if (!out) return makeError(ErrorCode::Io, temp + ": cannot write: " + std::strerror(errno));
        out << content;
        if (!out.flush()) return makeError(ErrorCode::Io, temp + ": write failed: " + std::strerror(errno));
    }
    std::error_code ec;
    std::filesystem::rename(temp, path, ec);
    if (ec) return makeError(ErrorCode::Io, path.string() + ": cannot replace: " + ec.message());
    return {};
}

std::string truncateMiddle(const std::string& text, std::size_t headBytes, std::size_t tailBytes) {
    if (text.size() <= headBytes + tailBytes) return text;
    const auto cut = text.size() - headBytes - tailBytes;
    return text.substr(0, headBytes) + "\n[... " + std::to_string(cut) + " bytes cut ...]\n" +
           text.substr(text.size() - tailBytes);
}

} // namespace kw
