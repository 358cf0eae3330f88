#pragma once
// The search tree's value types (tree/tree_types.h) by their short names in
// the search's own code.
#include "tree/tree_types.h"

namespace kw::search {

using tree::MemoryMode;
using tree::memoryModeName;
using tree::memoryModeNames;
using tree::ModelChoice;
using tree::Node;
using tree::NodeId;
using tree::NodeOrigin;
using tree::NodeState;
using tree::originName;
using tree::parseMemoryMode;
using tree::parseOrigin;
using tree::parsePolicy;
using tree::parseSynthMode;
using tree::Policy;
using tree::policyName;
using tree::policyNames;
using tree::SearchConfig;
using tree::SynthMode;
using tree::synthModeName;
using tree::synthModeNames;

} // namespace kw::search
