#pragma once
#include "search/search_tree.h"
#include "synth/synthesizer.h"

namespace kw::search {

// Builds the context of an expansion of `node` under `mode`: its ancestors'
// trajectory, its siblings' outcomes (failed ones included), both, or none.
synth::ExpansionContext buildContext(const SearchTree& tree, const Node& node, MemoryMode mode, std::string source);

} // namespace kw::search
