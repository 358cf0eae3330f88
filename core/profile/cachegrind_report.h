#pragma once
// Cachegrind's simulated instruction counts and cache misses for one call of
// the candidate, summed over the functions the candidate's shared object
// defines (so input generation and the harness do not count). Works on any
// machine valgrind runs on; the simulation, not the hardware, decides misses.
#include "util/result.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace kw::profile {

struct CachegrindReport {
    std::vector<std::string> events;                       // "Ir", "Dr", "D1mr", ...
    std::map<std::string, double> candidate, program;      // event -> count
    std::vector<std::pair<std::string, double>> functions; // candidate functions by Ir, largest first
    std::string llDescription;                             // e.g. "LL cache: 33554432 B, 64 B, 16-way associative"

    double count(const std::string& event) const; // the candidate's, 0 when absent
    double d1MissRate() const;                    // (D1mr + D1mw) / (Dr + Dw)
    double llMisses() const;                      // DLmr + DLmw
};

// `symbols` is `nm -C --defined-only` of the candidate's shared object.
Result<CachegrindReport> parseCachegrind(const std::string& out, const std::string& symbols);
nlohmann::json toJson(const CachegrindReport& report);

} // namespace kw::profile
