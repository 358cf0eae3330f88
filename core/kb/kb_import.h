#pragma once
// Turns outside documents (markdown, text, PDF through pdftotext) into KB
// documents: split into sections, with front matter proposed from the text
// (id, title, platforms and triggers by keyword) for a person to adjust.
#include "kb/kb_document.h"
#include "util/result.h"

#include <filesystem>
#include <vector>

namespace kw::kb {

struct ImportedDocument {
    KbDocument doc;
    std::string text; // the whole file to write: front matter and body
    std::filesystem::path source;
    bool proposedFrontMatter = false; // false when the file had valid front matter of its own
};

// One file (.md, .markdown, .txt, .pdf) or every such file under a folder.
Result<std::vector<ImportedDocument>> importPath(const std::filesystem::path& path);

// The text of a PDF, through pdftotext (poppler-utils).
Result<std::string> pdfText(const std::filesystem::path& pdf);

} // namespace kw::kb
