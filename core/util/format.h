#pragma once
// Human-readable numbers shared by the CLI, the GUI and the prompts.
#include <string>

namespace ks {

// 3 significant digits with a unit: "1.23 s", "45.6 ms", "789 us".
std::string formatSeconds(double seconds);

} // namespace ks
