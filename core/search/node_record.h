#pragma once
// A tree node and its row in the store, both ways.
#include "search/tree_names.h"
#include "store/search_store.h"
#include "util/result.h"

#include <cstdint>

namespace kw::search {

store::NodeRecord toRecord(const Node& node, std::int64_t searchId);
// Errors name the node and what of its row is unreadable.
Result<Node> nodeFromRecord(const store::NodeRecord& record);

} // namespace kw::search
