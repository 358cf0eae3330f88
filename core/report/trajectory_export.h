#pragma once
// Search trajectories for post-training: one record per LLM expansion (the
// prompt as sent, the reply, what the evaluation said, the reward), as JSON
// lines. The schema is docs/export-format.md; change both together.
#include "report/secret_scrubber.h"
#include "store/database.h"
#include "util/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kw::report {

enum class TrajectoryFormat {
    OpenAiChat, // {"messages": [system, user, assistant], "metadata": {...}}
    Jsonl,      // one flat object per expansion
};

// "openai-chat" or "jsonl"; nullopt for anything else.
std::optional<TrajectoryFormat> parseTrajectoryFormat(const std::string& name);

struct TrajectoryFilter {
    bool correctOnly = false;         // only expansions whose kernel was correct
    std::optional<double> minSpeedup; // only correct ones at least this fast (implies correctOnly)
};

struct TrajectoryExport {
    std::string text;            // JSON lines, each ending in '\n'
    std::size_t records = 0;     // lines written
    std::size_t filteredOut = 0; // expansions the filter dropped
    std::size_t unevaluated = 0; // expansions whose node has no result yet (never exported: no reward)
};

// Every LLM call of the searches that produced a node with a result, oldest
// first per search. Each string passes through the scrubber.
Result<TrajectoryExport> exportTrajectories(const store::Database& db, const std::vector<std::int64_t>& searchIds,
                                            TrajectoryFormat format, const TrajectoryFilter& filter,
                                            const SecretScrubber& scrubber);

} // namespace kw::report
