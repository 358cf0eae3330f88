#pragma once
#include <string>
#include <vector>

namespace kw::store {

// Schema migrations in order: entry i moves a database from version i to i+1.
// Append only; never edit a step that has shipped.
const std::vector<std::string>& migrations();

} // namespace kw::store
