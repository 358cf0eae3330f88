#pragma once
// Small string helpers shared across core.
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace ks {

// s without leading and trailing whitespace (space, tab, CR, LF, FF, VT).
inline std::string trim(std::string_view s) {
    constexpr std::string_view ws = " \t\r\n\f\v";
    const auto b = s.find_first_not_of(ws);
    if (b == std::string_view::npos) return {};
    const auto e = s.find_last_not_of(ws);
    return std::string(s.substr(b, e - b + 1));
}

// "a,b,c": how short lists are kept in one database column.
inline std::string joinComma(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
    return s;
}

// The inverse of joinComma; empty items are dropped.
inline std::vector<std::string> splitComma(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string item; std::getline(in, item, ',');)
        if (!item.empty()) out.push_back(item);
    return out;
}

// For a POSIX shell: single quotes, a quote inside written as '\''; safe for any text.
inline std::string shellQuote(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// Each word shell-quoted, joined by spaces.
inline std::string shellWords(const std::vector<std::string>& words) {
    std::string s;
    for (const auto& w : words) s += (s.empty() ? "" : " ") + shellQuote(w);
    return s;
}

} // namespace ks
