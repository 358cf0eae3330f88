#pragma once
// Reads and checks a document's front matter. Every problem is reported as
// "file:line: what is wrong and what to write instead".
#include "kb/kb_document.h"

#include <string>
#include <vector>

namespace kw::kb {

// One problem with one front-matter key, for a form that shows each message
// next to its field. key is "" for the file as a whole (no front matter, no body).
struct FieldError {
    std::string key, message;
};

struct ParsedDocument {
    KbDocument doc;
    std::vector<std::string> errors;     // empty when the document is valid
    std::vector<FieldError> fieldErrors; // the same problems, by key and without file:line
};

// path is used in messages; text is the file's content.
ParsedDocument parseDocument(const std::string& path, const std::string& text);

// Splits a markdown body at its "## " headings.
std::vector<KbSection> splitSections(const std::string& body);

// An id (or a platform's name): lowercase letters, digits and '-'.
bool isValidId(const std::string& id);

// The front matter block for a document (what import proposes, what skills write).
std::string renderFrontMatter(const KbDocument& doc);

} // namespace kw::kb
