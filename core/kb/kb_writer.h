#pragma once
// Writes documents into the KB folders a person may change (their own KB,
// a team's folders) and keeps the index in step, so what is saved is what
// retrieval sees. The shipped KB is read-only, as for the CLI: changes to it
// go through the source tree and review.
#include "kb/front_matter.h"
#include "kb/kb_import.h"
#include "kb/kb_index.h"
#include "kb/platform_starter.h"

#include <filesystem>
#include <string>
#include <vector>

namespace kw::kb {

// The file's text: front matter, then the body.
std::string renderDocument(const KbDocument& doc);

// Where a new document lives under root: <category>/<id>.md, and
// hardware/<platform>/<id>.md for hardware by its first platform.
std::filesystem::path documentPathIn(const std::filesystem::path& root, const KbDocument& doc);

class KbWriter {
  public:
    // roots: every folder the index follows (defaultKbRoots()); readOnlyRoots:
    // those never written (the shipped KB); userRoot: where new documents go.
    KbWriter(const store::Database& db, std::vector<std::filesystem::path> roots,
             std::vector<std::filesystem::path> readOnlyRoots, std::filesystem::path userRoot);
    // The installation's folders: defaultKbRoots(), the shipped KB read-only, userKbDir().
    static KbWriter forInstallation(const store::Database& db);

    // Everything wrong with doc if it were saved as file ("" for a new one):
    // the front matter by key, an id another document already has.
    std::vector<FieldError> check(const KbDocument& doc, const std::filesystem::path& file) const;
    bool writable(const std::filesystem::path& file) const;

    // Writes doc (over file, or as a new document in userRoot when file is
    // empty) and re-indexes. Refuses, writing nothing, when check() finds a
    // problem or the file is read-only. A document whose category no longer
    // matches its folder moves to the right one. Returns the file written.
    Result<std::filesystem::path> save(const KbDocument& doc, const std::filesystem::path& file) const;
    // A new id: the file is renamed to <newId>.md in its folder.
    Result<std::filesystem::path> rename(const std::filesystem::path& file, const std::string& newId) const;
    Status remove(const std::filesystem::path& file) const;
    // Imported documents into userRoot/imported; an existing file is kept
    // (and reported) unless replace.
    Result<std::vector<std::filesystem::path>> writeImported(const std::vector<ImportedDocument>& docs, bool replace) const;

    // A new platform in userRoot: hardware/<platform>/{arch,debug,optimization}
    // with starter documents (kb::platformStarterDocs). Refuses a name that is
    // not an id, or a platform some KB folder has already.
    Result<std::vector<std::filesystem::path>> createPlatform(const std::string& platform, const std::string& chipName,
                                                              const PlatformFigures& figures = {}) const;
    // Why createPlatform would refuse this name; "" when it would not.
    std::string platformProblem(const std::string& platform) const;

    Result<SyncReport> reindex() const { return index_.sync(roots_); }
    const KbIndex& index() const { return index_; }
    const std::filesystem::path& userRoot() const { return userRoot_; }

  private:
    std::filesystem::path rootOf(const std::filesystem::path& file) const;

    KbIndex index_;
    std::vector<std::filesystem::path> roots_, readOnlyRoots_;
    std::filesystem::path userRoot_;
};

} // namespace kw::kb
