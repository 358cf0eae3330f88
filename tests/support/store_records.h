#pragma once
// The search record the store, UI and benchmark tests start their workspaces
// from: only the problem and the status vary between them.
#include "store/search_store.h"

#include <string>

namespace kw::test {

inline store::SearchRecord searchRecord(const std::string& problem, const std::string& status,
                                        const std::string& problemDir = "/nowhere") {
    store::SearchRecord s;
    s.problem = problem;
    s.problemDir = problemDir;
    s.problemHash = "h";
    s.configJson = "{}";
    s.status = status;
    return s;
}

} // namespace kw::test
