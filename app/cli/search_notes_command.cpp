#include "search_notes_command.h"

#include "exit_codes.h"

#include "search/search_notes.h"
#include "util/paths.h"

#include <map>
#include <set>

namespace kw::cli {
namespace {

// Positional arguments each verb takes, the verb included ("tag" takes one or more tags).
const std::map<std::string, std::pair<std::size_t, std::size_t>>& arity() {
    static const std::map<std::string, std::pair<std::size_t, std::size_t>> a{{"rename", {3, 3}},
                                                                              {"note", {3, 3}},
                                                                              {"tag", {3, 2 + search::kMaxTags}},
                                                                              {"untag", {3, 2 + search::kMaxTags}},
                                                                              {"archive", {2, 2}},
                                                                              {"unarchive", {2, 2}},
                                                                              {"delete", {2, 2}}};
    return a;
}

std::string joined(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
    return out;
}

int fail(const std::string& verb, const Error& error) {
    std::fprintf(stderr, "search %s: %s\n", verb.c_str(), error.message.c_str());
    return exitCodeFor(error);
}

} // namespace

bool isSearchNotesVerb(const std::string& verb) {
    return arity().count(verb) > 0;
}

void printSearchNotes(const store::SearchRecord& s, std::FILE* out) {
    if (!s.label.empty()) std::fprintf(out, "  name   %s\n", s.label.c_str());
    if (!s.tags.empty()) std::fprintf(out, "  tags   %s\n", joined(s.tags).c_str());
    if (s.archived)
        std::fprintf(out, "  archived (search unarchive %lld brings it back to the lists)\n", static_cast<long long>(s.id));
    if (!s.notes.empty()) {
        std::fprintf(out, "  notes\n");
        std::size_t at = 0;
        while (at <= s.notes.size()) {
            const std::size_t end = std::min(s.notes.find('\n', at), s.notes.size());
            std::fprintf(out, "    %s\n", s.notes.substr(at, end - at).c_str());
            at = end + 1;
        }
    }
}

int runSearchNotesVerb(const std::string& verb, const Args& args, const GlobalOptions& global) {
    const auto& pos = args.positional();
    const auto [least, most] = arity().at(verb);
    if (pos.size() < least || pos.size() > most) {
        std::fprintf(stderr, "search %s: wrong arguments (see search --help)\n", verb.c_str());
        return kExitUsage;
    }
    char* end = nullptr;
    const long long id = std::strtoll(pos[1].c_str(), &end, 10);
    if (pos[1].empty() || *end != '\0' || id < 1) {
        std::fprintf(stderr, "search %s: '%s' is not a search id (see `search list`)\n", verb.c_str(), pos[1].c_str());
        return kExitUsage;
    }
    const std::filesystem::path database =
        global.database.empty() ? paths::defaultDatabase() : std::filesystem::path(global.database);
    if (verb == "delete") {
        if (!args.has("yes")) {
            std::fprintf(stderr,
                         "search delete: this removes search %lld, its nodes, steering and LLM calls for good (its "
                         "evaluations stay in the workspace's cache); add --yes to delete it, or `search archive %lld` "
                         "to keep it out of the lists\n",
                         id, id);
            return kExitUsage;
        }
        auto gone = search::deleteSearch(database, id);
        if (!gone) return fail(verb, gone.error());
        std::printf("search %lld deleted: %lld nodes, %lld steering commands, %lld LLM calls (%lld retrievals), %lld events\n",
                    id, static_cast<long long>(gone->nodes), static_cast<long long>(gone->commands),
                    static_cast<long long>(gone->llmCalls), static_cast<long long>(gone->retrievals),
                    static_cast<long long>(gone->events));
        return kExitOk;
    }
    search::NotesChange change;
    const std::vector<std::string> words(pos.begin() + 2, pos.end());
    if (verb == "rename") change.label = pos[2];
    if (verb == "note") change.notes = pos[2];
    if (verb == "tag") change.addTags = words;
    if (verb == "untag") change.removeTags = words;
    if (verb == "archive" || verb == "unarchive") change.archived = verb == "archive";
    auto stored = search::changeNotes(database, id, change);
    if (!stored) return fail(verb, stored.error());
    if (verb == "rename" && stored->label.empty())
        std::printf("search %lld: name cleared\n", id);
    else if (verb == "rename")
        std::printf("search %lld is now '%s'\n", id, stored->label.c_str());
    else if (verb == "note")
        std::printf("search %lld: notes %s (%zu characters)\n", id, stored->notes.empty() ? "cleared" : "kept",
                    stored->notes.size());
    else if (verb == "tag" || verb == "untag")
        std::printf("search %lld tags: %s\n", id, stored->tags.empty() ? "(none)" : joined(stored->tags).c_str());
    else if (stored->archived)
        std::printf("search %lld archived: `search list --all` still lists it\n", id);
    else
        std::printf("search %lld is back in the lists\n", id);
    return kExitOk;
}

} // namespace kw::cli
