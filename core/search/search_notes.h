#pragma once
// What people keep about a search, as in the run lists of experiment
// trackers: a name, notes, tags, an archive flag (kept, out of the lists),
// and deletion. Written from the CLI or the workbench through a connection
// of the moment, like steering; the search's own process never writes them,
// so they change freely while it runs (deletion excepted).
#include "store/search_store.h"
#include "util/result.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kw::search {

struct NotesChange {
    std::optional<std::string> label, notes;
    std::vector<std::string> addTags, removeTags;
    std::optional<bool> archived;
};

// Limits that keep a list readable; a change over them is refused whole.
inline constexpr std::size_t kMaxLabelChars = 80, kMaxTagChars = 32, kMaxTags = 16, kMaxNotesChars = 20000;

// Why `tag` is not a tag ("" when it is one): one word of letters, digits
// and - _ . : + = (so `VEC=8` and `sweep:v2` are tags), at most kMaxTagChars.
std::string tagProblem(const std::string& tag);

// Applies the change and returns the record as stored; nothing changes when
// any part is refused, and the message says what to fix.
Result<store::SearchRecord> changeNotes(const std::filesystem::path& database, std::int64_t searchId, const NotesChange& change);

// Removes a search that is not running (its evaluations stay, as the
// workspace's cache); a running or paused search with a live process is
// refused with what to do first.
Result<store::SearchDeletion> deleteSearch(const std::filesystem::path& database, std::int64_t searchId);

} // namespace kw::search
