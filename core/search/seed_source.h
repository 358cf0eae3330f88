#pragma once
// Where a search's tree starts: the problem's seed candidates (its reference
// when it has none) and, when asked, the best kernels of earlier searches of
// the same problem on this workspace. Proposals only; the loop inserts them.
#include "problem/problem_spec.h"
#include "search/search_tree.h"
#include "store/search_store.h"
#include "synth/synthesizer.h"

#include <functional>
#include <vector>

namespace kw::search {

using Note = std::function<void(const std::string&)>;

std::vector<synth::Proposal> seedProposals(const problem::ProblemSpec& problem, const Note& note);

// Up to `most` earlier bests, newest search first; kernels already in `tree`
// are not proposed again.
Result<std::vector<synth::Proposal>> historyProposals(store::SearchStore& store, std::int64_t searchId,
                                                      const problem::ProblemSpec& problem, const SearchTree& tree, int most,
                                                      const Note& note);

} // namespace kw::search
