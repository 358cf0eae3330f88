#pragma once
// The records the store, UI and benchmark tests start their workspaces from:
// a search (only the problem and the status vary), an evaluation of a result,
// and a finished node of one source.
#include "eval/evaluation_result.h"
#include "store/evaluation_store.h"
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

// An evaluation of saxpy holding result (its status and speedup as the row's).
inline store::EvaluationRecord evaluationRecord(const std::string& key, const eval::EvaluationResult& result,
                                                const std::string& candidateHash = "c") {
    store::EvaluationRecord e;
    e.cacheKey = key;
    e.problem = "saxpy";
    e.problemHash = "h";
    e.candidateHash = candidateHash;
    e.paramsJson = "{}";
    e.status = eval::statusName(result.status);
    e.speedup = result.speedup;
    e.resultJson = eval::toJson(result).dump();
    return e;
}

// A node of search searchId, done and correct, its source stored as "src".
inline store::NodeRecord doneNode(std::int64_t searchId, int seq) {
    store::NodeRecord n;
    n.searchId = searchId;
    n.seq = seq;
    n.origin = "seed";
    n.sourceName = "k";
    n.sourceHash = "src";
    n.paramsJson = "{}";
    n.state = "done";
    n.status = "ok";
    return n;
}

} // namespace kw::test
