#pragma once
// Who runs a search: the process that marked it running (its pid is stored
// with it). A search whose process died (killed, a lost host's time limit)
// stays "running" in the store; every reader shows it as interrupted.
#include "store/search_store.h"

namespace kw::search {

// The stored owner is a live process other than this one.
bool ownerAlive(const store::SearchRecord& s);

// Marked running, and neither this process nor a live owner runs it (no
// owner kept counts as gone): `search resume` goes on with it.
bool interrupted(const store::SearchRecord& s);

} // namespace kw::search
