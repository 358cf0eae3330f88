#include "util/format.h"

#include <cstdio>

namespace ks {

std::string formatSeconds(double s) {
    char buf[32];
    if (s >= 1)
        std::snprintf(buf, sizeof buf, "%.3g s", s);
    else if (s >= 1e-3)
        std::snprintf(buf, sizeof buf, "%.3g ms", s * 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.3g us", s * 1e6);
    return buf;
}

} // namespace ks
