#pragma once
#include "util/result.h"

#include <cstdint>
#include <filesystem>
#include <string>

namespace kw {

// Reads a whole regular file; refuses devices and pipes (/dev/zero never
// ends) and files larger than maxBytes, saying so.
Result<std::string> readTextFile(const std::filesystem::path& path, std::uintmax_t maxBytes = 256ull << 20);
// Writes to a sibling temporary file and renames it over the target, so a
// reader never sees half a file and a crash leaves the old one intact.
Status writeFileAtomic(const std::filesystem::path& path, const std::string& content);
// The first `headBytes` and last `tailBytes` of a regular file, the cut
// marked as truncateMiddle marks it, reading no more than that: for logs a
// candidate fills (a gigabyte of stderr costs a seek, not a read).
Result<std::string> readFileEnds(const std::filesystem::path& path, std::size_t headBytes, std::size_t tailBytes);
// Keeps the first `headBytes` and last `tailBytes` of a long text, marking the cut.
std::string truncateMiddle(const std::string& text, std::size_t headBytes, std::size_t tailBytes);

} // namespace kw
