#pragma once
// How deep an evaluation looks at a candidate's performance. Each level adds
// to the previous one's: roofline metrics need nothing but the timing; the
// deeper levels run an extra profiling step in the job (see docs/profiling.md).
#include <optional>
#include <string>

namespace kw::eval {

enum class ProfileLevel {
    None,       // timing only
    Roofline,   // achieved GB/s and GFLOP/s against the machine model
    Counters,   // + perf_event_open counters of the timed calls (CPU)
    Cachegrind, // + one call under valgrind's cachegrind (CPU, simulated caches)
    Ncu,        // + Nsight Compute metrics (GPU backends)
};

std::string profileLevelName(ProfileLevel level);
std::optional<ProfileLevel> parseProfileLevel(const std::string& name);
// Levels that add a step to the job (and so bypass the result cache).
inline bool profileRunsInJob(ProfileLevel level) {
    return level == ProfileLevel::Counters || level == ProfileLevel::Cachegrind || level == ProfileLevel::Ncu;
}

} // namespace kw::eval
