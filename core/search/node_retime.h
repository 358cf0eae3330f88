#pragma once
// A search's nodes timed again alone: each node's kernel in a fresh job (no
// cached result), one after another, with a longer timing budget than a
// search spends, beside what the search measured. What the workbench's
// "Re-time Alone" and `search retime` show, so that a speedup read under
// the search's load (its workers, the noise of the moment) can be checked
// before it is trusted. Each re-timing is stored as an evaluation of the
// workspace like any other.
#include "eval/executor_profiles.h"
#include "util/result.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

namespace kw::search {

struct RetimeRow {
    std::int64_t nodeId = 0, seq = 0;
    double inSearch = 0;                        // the speedup the search stored
    std::pair<double, double> inSearchInterval; // its 95 % interval ({0, 0}: none)
    double alone = 0;                           // the speedup timed again (0: not correct, or not timed)
    std::pair<double, double> aloneInterval;
    std::string status;  // the re-timing's verdict (eval's status name)
    std::string message; // why it failed, when it did
};

struct RetimeRequest {
    std::filesystem::path database;
    std::int64_t searchId = 0;
    std::vector<std::int64_t> nodeIds; // workspace ids, in the order to time them
    double timeBudgetS = 2.0;          // per timing shape: steadier than a search's 0.5 s
    eval::ExecutorChoice executor;     // where the jobs run (default: this machine, one at a time)
};

// The speedup's 95 % interval over every timing shape of a result: the
// geometric means of the lows and of the highs, as a node's speedup is the
// geometric mean of its shapes' ({0, 0} when a shape has none).
std::pair<double, double> combinedInterval(const std::vector<std::pair<double, double>>& perShape);

// Times each node once more; onRow sees each row as it is done (from this
// thread). Stops between nodes when `stop` is requested. Errors only when
// nothing can start (no such search, its problem no longer loads, no
// executor); a node that fails says so in its row.
Result<std::vector<RetimeRow>> retimeNodes(const RetimeRequest& request, const std::function<void(const RetimeRow&)>& onRow = {},
                                           std::stop_token stop = {});

} // namespace kw::search
