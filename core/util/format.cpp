#include "util/format.h"

#include <cmath>
#include <cstdio>

namespace kw {

std::string formatSeconds(double s) {
    char buf[32];
    if (s >= 1000)
        std::snprintf(buf, sizeof buf, "%.0f s", s);
    else if (s >= 1)
        std::snprintf(buf, sizeof buf, "%.3g s", s);
    else if (s >= 1e-3)
        std::snprintf(buf, sizeof buf, "%.3g ms", s * 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.3g us", s * 1e6);
    return buf;
}

std::string formatDuration(double s) {
    if (!std::isfinite(s) || s < 0) return "-";
    const long long whole = std::llround(s);
    char buf[48];
    if (whole < 60)
        std::snprintf(buf, sizeof buf, "%lld s", whole);
    else if (whole < 600) // seconds still mean something under ten minutes
        std::snprintf(buf, sizeof buf, "%lld min %02lld s", whole / 60, whole % 60);
    else if (whole < 3600)
        std::snprintf(buf, sizeof buf, "%lld min", (whole + 30) / 60);
    else {
        const long long minutes = (whole + 30) / 60;
        std::snprintf(buf, sizeof buf, "%lld h %02lld min", minutes / 60, minutes % 60);
    }
    return buf;
}

std::string formatNumber(const char* format, double value) {
    char text[64];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

} // namespace kw
