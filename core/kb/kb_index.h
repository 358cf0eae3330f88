#pragma once
// The knowledge base's index in the workspace database: documents by id, an
// FTS5 (BM25) index over their sections and metadata, kept in step with the
// KB folders by file hash (unchanged files are not re-read into the index).
#include "kb/kb_document.h"
#include "store/database.h"

#include <filesystem>
#include <string>
#include <vector>

namespace kw::kb {

struct SyncReport {
    int added = 0, updated = 0, unchanged = 0, removed = 0;
    std::vector<std::string> errors; // invalid documents (skipped), as file:line: message
};

struct RetrievalQuery {
    std::string text;                   // the problem's words, a person's question
    std::vector<std::string> diagnosis; // the node's diagnosis: compile_error, memory_bound, op:softmax, ...
    std::string platform;               // "" for any
    int limit = 5;                      // documents
    int tokenBudget = 0;                // 0: no limit; else stop adding snippets past this estimate
    bool includePending = false;        // skills awaiting review
};

struct Snippet {
    std::string docId, title, category, path, heading, text;
    double score = 0;
    std::string reason;                       // why it was chosen
    std::vector<std::string> matchedTriggers; // the query's signals among the document's triggers
};

class KbIndex {
  public:
    explicit KbIndex(const store::Database& db) : db_(db) {}
    // The workspace the index lives in (a file picker keeps away from its files).
    const std::filesystem::path& databasePath() const;

    // Indexes every *.md under the roots (the shipped KB, a team's folders,
    // the workspace's skills); documents of these roots whose files are gone
    // leave the index.
    Result<SyncReport> sync(const std::vector<std::filesystem::path>& roots) const;

    Result<std::vector<Snippet>> search(const RetrievalQuery& query) const;
    Result<std::vector<KbDocument>> list() const;
    Result<std::optional<KbDocument>> find(const std::string& id) const;

  private:
    Status put(const KbDocument& doc) const;
    Status remove(const std::string& id) const;

    const store::Database& db_;
};

// Checks every document under root: front matter, unique ids, and that each
// document's category is its top folder. Empty when all is well.
std::vector<std::string> validateTree(const std::filesystem::path& root);

// Every KB document folder this installation knows: the shipped kb/, the
// workspace's skills and imports ($XDG_DATA_HOME/kernelwright/kb), and the
// folders listed in KW_KB_DIRS (colon-separated).
std::vector<std::filesystem::path> defaultKbRoots();
// Where skills and imported documents are written.
std::filesystem::path userKbDir();
// The platform of this host, in the KB's words.
std::string hostPlatform();

} // namespace kw::kb
