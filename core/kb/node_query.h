#pragma once
// The retrieval an LLM expansion of a node makes, rebuilt from the workspace:
// the problem's words, the node's status and the diagnosis stored with its
// evaluation's latest profile, on this host's platform. The synthesizer's
// retriever and the workbench's retrieval tester both build their query here,
// so what the tester shows for a node is what its next prompt gets.
#include "kb/kb_index.h"
#include "problem/problem_spec.h"
#include "store/database.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kw::kb {

// The KB platform a problem's kernels run on: this host's for CPU problems,
// hopper for cuda problems built for sm_90, none (every platform) for other
// GPU targets and for torch problems, whose GPU is the executor's.
std::string retrievalPlatform(const problem::ProblemSpec& problem);

// The query for a problem and a node's signals (status first, then diagnosis).
RetrievalQuery retrievalQueryFor(const problem::ProblemSpec& problem, std::vector<std::string> signalNames, std::string platform);

// The same for node `nodeId` of search `searchId`, on the problem's
// retrievalPlatform: its problem is read from the dir the search recorded. Errors name the search, the node or the problem dir.
Result<RetrievalQuery> retrievalQueryForNode(const store::Database& db, std::int64_t searchId, std::int64_t nodeId);

} // namespace kw::kb
