#pragma once
// A knowledge-base document: front matter (id, title, category, platforms,
// triggers, tags) and a markdown body split into sections. docs/kb-format.md
// is the format's reference.
#include <string>
#include <vector>

namespace kw::kb {

struct KbSection {
    std::string heading; // "" for the text before the first ## heading
    std::string text;
};

struct KbDocument {
    std::string id, title, category;
    std::vector<std::string> platforms, triggers, tags;
    std::string path;               // the file it came from
    std::string root;               // the KB folder it belongs to
    std::string hash;               // SHA-256 of the file
    std::string status = "shipped"; // shipped | pending | approved | rejected (skills are reviewed)
    std::string body;
    std::vector<KbSection> sections;
};

// The vocabularies a document's front matter is checked against.
const std::vector<std::string>& knownCategories();
// The platforms the format names, and those a KB folder brings: a folder
// hardware/<name>/ in a KB root makes <name> a platform (a new chip's docs).
std::vector<std::string> knownPlatforms();
// Adds a platform for the rest of the process (idempotent; thread-safe).
void registerPlatform(const std::string& platform);
const std::vector<std::string>& knownSignals();

bool contains(const std::vector<std::string>& list, const std::string& value);

} // namespace kw::kb
