#include "util/isa_cap.h"

#include "util/log.h"

#include <cstdlib>
#include <string>

namespace kw {

bool capAtAvx2() {
    static const bool capped = [] {
        const char* v = std::getenv("KW_MAX_ISA");
        if (!v || !*v) return false;
        if (std::string(v) == "avx2") return true;
        log::profile()->warn("KW_MAX_ISA={} is not understood (the one cap is avx2); ignored", v);
        return false;
    }();
    return capped;
}

bool avx512Usable() {
    return __builtin_cpu_supports("avx512f") && !capAtAvx2();
}

} // namespace kw
