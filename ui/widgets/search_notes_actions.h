#pragma once
// The Searches list's run management (search/search_notes.h): rename, notes,
// tags, archive and delete, each asked for in a small dialog and written
// through a connection of the moment, as steering is. A refusal (a running
// search cannot be deleted, a tag with a space) comes back as the message.
#include "models/search_list_model.h"

#include <QtCore/QString>

#include <filesystem>
#include <vector>

class QWidget;

namespace kw::ui {

struct NotesOutcome {
    bool changed = false;
    QString message; // for the status bar: what was done, or why not ("" when the user cancelled)
};

NotesOutcome renameSearch(QWidget* parent, const std::filesystem::path& database, const SearchRow& row);
NotesOutcome editSearchNotes(QWidget* parent, const std::filesystem::path& database, const SearchRow& row);
// Tags as words separated by spaces or commas; the dialog starts with the search's own.
NotesOutcome editSearchTags(QWidget* parent, const std::filesystem::path& database, const SearchRow& row);
NotesOutcome archiveSearches(const std::filesystem::path& database, const std::vector<SearchRow>& rows, bool archived);
// Asks first; deletes an ended search (its evaluations stay, as the workspace's cache).
NotesOutcome deleteSearchAsked(QWidget* parent, const std::filesystem::path& database, const SearchRow& row);

} // namespace kw::ui
