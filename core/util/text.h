#pragma once
// Small string helpers shared across core.
#include <string>
#include <string_view>

namespace ks {

// s without leading and trailing whitespace (space, tab, CR, LF, FF, VT).
inline std::string trim(std::string_view s) {
    constexpr std::string_view ws = " \t\r\n\f\v";
    const auto b = s.find_first_not_of(ws);
    if (b == std::string_view::npos) return {};
    const auto e = s.find_last_not_of(ws);
    return std::string(s.substr(b, e - b + 1));
}

} // namespace ks
