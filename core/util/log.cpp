#include "util/log.h"

#include <spdlog/sinks/stdout_color_sinks.h>

#include <mutex>

namespace kw::log {
namespace {
std::mutex gMutex;
spdlog::level::level_enum gLevel = spdlog::level::warn;
} // namespace

std::shared_ptr<spdlog::logger> get(const std::string& subsystem) {
    std::lock_guard lock(gMutex);
    if (auto existing = spdlog::get(subsystem)) return existing;
    auto logger = spdlog::stderr_color_mt(subsystem);
    logger->set_level(gLevel);
    logger->set_pattern("[%H:%M:%S.%e] [%n] [%^%l%$] %v");
    return logger;
}

void setLevel(spdlog::level::level_enum level) {
    std::lock_guard lock(gMutex);
    gLevel = level;
    spdlog::apply_all([level](const std::shared_ptr<spdlog::logger>& l) { l->set_level(level); });
}

} // namespace kw::log
