#pragma once
// kernelwright-cli search rename|note|tag|untag|archive|unarchive|delete:
// what people keep about a search (search/search_notes.h).
#include "args.h"
#include "commands.h"

#include "store/search_store.h"

#include <cstdio>
#include <string>

namespace kw::cli {

bool isSearchNotesVerb(const std::string& verb);
int runSearchNotesVerb(const std::string& verb, const Args& args, const GlobalOptions& global);
// The name, tags, archive state and notes of a search, for `search show` (nothing when none is kept).
void printSearchNotes(const store::SearchRecord& search, std::FILE* out);

} // namespace kw::cli
