#include "search/search_notes.h"

#include "search/search_owner.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <unistd.h>

namespace kw::search {
namespace {

Error refused(const std::string& why) {
    return Error{ErrorCode::InvalidArgument, why + "; nothing changed"};
}

bool oneLine(const std::string& text) {
    return text.find_first_of("\n\r\t") == std::string::npos;
}

} // namespace

std::string tagProblem(const std::string& tag) {
    if (tag.empty()) return "a tag is one word; this one is empty";
    if (tag.size() > kMaxTagChars)
        return "tag '" + tag.substr(0, kMaxTagChars) + "…' is longer than " + std::to_string(kMaxTagChars) + " characters";
    for (const unsigned char c : tag)
        if (!std::isalnum(c) && std::string_view("-_.:+=").find(static_cast<char>(c)) == std::string_view::npos)
            return "tag '" + tag + "' has '" + std::string(1, static_cast<char>(c)) +
                   "': a tag is letters, digits and - _ . : + = (no spaces or commas)";
    return "";
}

Result<store::SearchRecord> changeNotes(const std::filesystem::path& database, std::int64_t searchId, const NotesChange& change) {
    if (change.label && (change.label->size() > kMaxLabelChars || !oneLine(*change.label)))
        return refused("a search's name is one line of at most " + std::to_string(kMaxLabelChars) + " characters");
    if (change.notes && change.notes->size() > kMaxNotesChars)
        return refused("notes are at most " + std::to_string(kMaxNotesChars) + " characters (these are " +
                       std::to_string(change.notes->size()) + ")");
    for (const auto& tag : change.addTags)
        if (auto why = tagProblem(tag); !why.empty()) return refused(why);
    auto db = store::Database::open(database);
    if (!db) return db.error();
    store::SearchStore store(*db);
    auto status = store.updateSearchNotes(searchId, [&](store::SearchRecord& r) -> Status {
        if (change.label) r.label = *change.label;
        if (change.notes) r.notes = *change.notes;
        for (const auto& tag : change.removeTags) std::erase(r.tags, tag);
        for (const auto& tag : change.addTags)
            if (std::find(r.tags.begin(), r.tags.end(), tag) == r.tags.end()) r.tags.push_back(tag);
        if (r.tags.size() > kMaxTags)
            return refused("a search keeps at most " + std::to_string(kMaxTags) + " tags; remove some first");
        if (change.archived) r.archived = *change.archived;
        return {};
    });
    if (!status) return status.error();
    return store.loadSearch(searchId);
}

Result<store::SearchDeletion> deleteSearch(const std::filesystem::path& database, std::int64_t searchId) {
    auto db = store::Database::open(database);
    if (!db) return db.error();
    return store::SearchStore(*db).deleteSearch(searchId, [&](const store::SearchRecord& r) -> Status {
        const bool ended = r.status == "finished" || r.status == "stopped";
        const bool here = r.ownerPid && *r.ownerPid == static_cast<std::int64_t>(getpid());
        if (!ended && (ownerAlive(r) || here)) {
            const std::string id = std::to_string(searchId);
            return refused("search " + id + " is " + r.status + " in process " + std::to_string(r.ownerPid.value_or(0)) +
                           ": stop it first (`search stop " + id + "`, or Stop in the workbench), then delete it");
        }
        return {};
    });
}

} // namespace kw::search
