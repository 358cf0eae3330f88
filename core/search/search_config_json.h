#pragma once
#include "search/tree_names.h"
#include "util/result.h"

#include <nlohmann/json.hpp>

namespace kw::search {

nlohmann::json toJson(const SearchConfig& config);
// Unknown keys and out-of-range values are errors that name the key.
Result<SearchConfig> configFromJson(const nlohmann::json& json);
Status validate(const SearchConfig& config);

} // namespace kw::search
