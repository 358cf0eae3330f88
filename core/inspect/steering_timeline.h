#pragma once
// A search's steering as it happened: every command posted to it (pause,
// budget, prune, pin, boost, hint, a manual child), who posted it (the CLI
// or the workbench), when, when the search applied it and with what
// outcome. Read from the workspace's commands table; nodes named by their
// number in the search (#N), as everywhere a person reads them.
#include "store/search_store.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kw::inspect {

struct SteeringEntry {
    std::int64_t id = 0;
    std::string postedAt;  // ISO 8601, UTC
    std::string origin;    // "cli", "workbench", or "" (posted before origins were kept)
    std::string verb;      // the command (steering.h's verbs)
    std::int64_t node = 0; // the node's number in the search (#N), 0 for search-wide commands
    std::string detail;    // its arguments in words ("to 64 evaluations", "by 2", the hint's text)
    std::string appliedAt; // "" while the search has not applied it
    std::string outcome;   // what applying it did, or why it was refused
};

// The entries of `commands` (oldest first), each node id turned into its
// number through `seqOfNode` (workspace node id -> #N).
std::vector<SteeringEntry> steeringTimeline(const std::vector<store::CommandRecord>& commands,
                                            const std::map<std::int64_t, std::int64_t>& seqOfNode);

} // namespace kw::inspect
