#pragma once
// Reads and checks a document's front matter. Every problem is reported as
// "file:line: what is wrong and what to write instead".
#include "kb/kb_document.h"

#include <string>
#include <vector>

namespace ks::kb {

struct ParsedDocument {
    KbDocument doc;
    std::vector<std::string> errors;  // empty when the document is valid
};

// path is used in messages; text is the file's content.
ParsedDocument parseDocument(const std::string& path, const std::string& text);

// Splits a markdown body at its "## " headings.
std::vector<KbSection> splitSections(const std::string& body);

// The front matter block for a document (what import proposes, what skills write).
std::string renderFrontMatter(const KbDocument& doc);

} // namespace ks::kb
