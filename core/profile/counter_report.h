#pragma once
// Hardware and software counters of the candidate's timed calls, measured by
// the harness through perf_event_open (`harness profile counters`) and written
// to profile/counters.json. The harness runs candidate code in its process,
// so these numbers inform a diagnosis; they never decide a score.
#include "util/result.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>

namespace kw::profile {

struct CounterReport {
    bool available = false;     // at least one hardware counter counted
    std::string reason;         // why hardware counters are missing
    int calls = 0, threads = 0; // profiled calls; threads counted
    double secondsPerCall = 0;
    std::map<std::string, double> perCall;      // event -> count per call ("cycles", "task_clock_ns", ...)
    std::map<std::string, std::string> missing; // event -> why it was not counted

    double ipc() const;           // instructions per cycle, 0 when unknown
    double cacheMissRate() const; // cache_misses / cache_references, 0 when unknown
    double coresBusy() const;     // task clock / wall: how many cores worked on average
};

Result<CounterReport> parseCounterReport(const std::string& text);
nlohmann::json toJson(const CounterReport& report);

} // namespace kw::profile
