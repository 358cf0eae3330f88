#pragma once
// Human-readable numbers shared by the CLI, the GUI and the prompts.
#include <string>

namespace kw {

// A measured time, 3 significant digits with a unit: "1.23 s", "45.6 ms",
// "789 us"; whole seconds from 1000 s on ("1234 s", never "1.23e+03 s").
std::string formatSeconds(double seconds);

// A wall-clock span as a person says it (ETAs, a run's length): "45 s",
// "3 min 20 s", "27 min", "2 h 05 min". Negative or not finite: "-".
std::string formatDuration(double seconds);

// One number through a printf format ("%.2f", "%.4g"): tables and reports.
std::string formatNumber(const char* format, double value);

} // namespace kw
