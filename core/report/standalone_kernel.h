#pragma once
// A node's kernel as a file that compiles on its own: its tunable params
// baked in as #defines, and a header comment saying where it came from and
// what it measured. Used by `search export --best` and the workbench.
#include "store/database.h"
#include "util/result.h"

#include <cstdint>
#include <string>

namespace kw::report {

Result<std::string> standaloneKernel(const store::Database& db, std::int64_t searchId, std::int64_t nodeId);

} // namespace kw::report
