#include "eval/profile_level.h"

namespace kw::eval {

std::string profileLevelName(ProfileLevel level) {
    switch (level) {
    case ProfileLevel::None:
        return "none";
    case ProfileLevel::Roofline:
        return "roofline";
    case ProfileLevel::Counters:
        return "counters";
    case ProfileLevel::Cachegrind:
        return "cachegrind";
    case ProfileLevel::Ncu:
        return "ncu";
    }
    return "none";
}

std::optional<ProfileLevel> parseProfileLevel(const std::string& name) {
    for (auto l :
         {ProfileLevel::None, ProfileLevel::Roofline, ProfileLevel::Counters, ProfileLevel::Cachegrind, ProfileLevel::Ncu})
        if (profileLevelName(l) == name) return l;
    return std::nullopt;
}

} // namespace kw::eval
