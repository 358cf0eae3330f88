#pragma once
// JSON text from values that may hold bytes from anywhere (file names,
// compiler logs, a candidate's output, a server's reply): invalid UTF-8 is
// written as U+FFFD instead of throwing out of nlohmann::json::dump.
#include <nlohmann/json.hpp>

#include <string>

namespace kw {

inline std::string jsonText(const nlohmann::json& value, int indent = -1) {
    return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace kw
