#pragma once
// One named logger per subsystem. Loggers write to stderr; the CLI picks the
// level (-v / -q). Nothing secret is ever passed to a logger.
#include <spdlog/spdlog.h>

#include <memory>
#include <string>

namespace kw::log {

std::shared_ptr<spdlog::logger> get(const std::string& subsystem);

inline std::shared_ptr<spdlog::logger> eval() {
    return get("eval");
}
inline std::shared_ptr<spdlog::logger> store() {
    return get("store");
}
inline std::shared_ptr<spdlog::logger> problem() {
    return get("problem");
}
inline std::shared_ptr<spdlog::logger> search() {
    return get("search");
}
inline std::shared_ptr<spdlog::logger> llm() {
    return get("llm");
}
inline std::shared_ptr<spdlog::logger> profile() {
    return get("profile");
}

// Applies to every subsystem logger, existing and future.
void setLevel(spdlog::level::level_enum level);

} // namespace kw::log
