#include "kb/kb_index.h"

#include "kb/front_matter.h"
#include "util/files.h"
#include "util/hash.h"
#include "util/paths.h"
#include "util/text.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

namespace kw::kb {
namespace {

// Words too common in kernel prose to tell documents apart.
bool stopword(const std::string& w) {
    static const std::set<std::string> words{"a",    "an",    "and",   "are",  "as",    "at",   "be",   "by",  "for",  "from",
                                             "in",   "is",    "it",    "of",   "on",    "or",   "the",  "to",  "with", "this",
                                             "that", "each",  "every", "when", "which", "its",  "into", "not", "no",   "than",
                                             "then", "there", "these", "was",  "were",  "will", "can",  "may", "must", "so",
                                             "if",   "per",   "all",   "any",  "one",   "two",  "out"};
    return words.count(w) > 0;
}

// An FTS5 query: every distinct word, quoted, OR'ed (a word never becomes syntax).
std::string matchExpression(const std::string& text) {
    std::vector<std::string> words;
    std::string w;
    auto flush = [&] {
        if (w.size() >= 2 && !stopword(w) && std::find(words.begin(), words.end(), w) == words.end() && words.size() < 64)
            words.push_back(w);
        w.clear();
    };
    for (unsigned char c : text) {
        if (std::isalnum(c))
            w += static_cast<char>(std::tolower(c));
        else
            flush();
    }
    flush();
    std::string q;
    for (const auto& x : words) q += (q.empty() ? "\"" : " OR \"") + x + "\"";
    return q;
}

int estimateTokens(const std::string& text) {
    return static_cast<int>((text.size() + 3) / 4);
}

KbDocument readDoc(const store::Statement& s) {
    KbDocument d;
    d.id = s.text(0);
    d.path = s.text(1);
    d.root = s.text(2);
    d.hash = s.text(3);
    d.title = s.text(4);
    d.category = s.text(5);
    d.platforms = splitComma(s.text(6));
    d.triggers = splitComma(s.text(7));
    d.tags = splitComma(s.text(8));
    d.status = s.text(9);
    d.body = s.text(10);
    return d; // sections on demand: listing and ranking do not need them
}

constexpr const char* kMetaColumns = "id, path, root, hash, title, category, platforms, triggers, tags, status, ''";

// A document's first indexed section (for a match by trigger alone).
Result<std::optional<KbSection>> firstSection(const store::Database& db, const std::string& id) {
    auto stmt = db.prepare("SELECT heading, text FROM kb_fts WHERE doc_id = ? AND section = '0'");
    if (!stmt) return stmt.error();
    stmt->bind(1, id);
    auto row = stmt->step();
    if (!row) return row.error();
    if (!*row) return std::optional<KbSection>();
    return std::optional<KbSection>(KbSection{stmt->text(0), stmt->text(1)});
}

std::vector<std::filesystem::path> docFiles(const std::filesystem::path& root) {
    std::vector<std::filesystem::path> files;
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(root, ec); it != std::filesystem::recursive_directory_iterator();
         it.increment(ec)) {
        if (ec) break;
        if (it->is_regular_file() && it->path().extension() == ".md" && it->path().filename() != "README.md")
            files.push_back(it->path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

// A new chip's folder hardware/<platform>/ makes its name a platform before its documents are checked.
void registerPlatformsIn(const std::filesystem::path& root) {
    std::error_code ec;
    for (auto it = std::filesystem::directory_iterator(root / "hardware", ec); !ec && it != std::filesystem::directory_iterator();
         it.increment(ec))
        if (it->is_directory() && isValidId(it->path().filename().string())) registerPlatform(it->path().filename().string());
}

constexpr const char* kDocColumns = "id, path, root, hash, title, category, platforms, triggers, tags, status, body";

} // namespace

Status KbIndex::remove(const std::string& id) const {
    for (const char* sql : {"DELETE FROM kb_fts WHERE doc_id = ?", "DELETE FROM kb_docs WHERE id = ?"}) {
        auto stmt = db_.prepare(sql);
        if (!stmt) return stmt.error();
        stmt->bind(1, id);
        if (auto s = stmt->run(); !s) return s;
    }
    return {};
}

Status KbIndex::put(const KbDocument& d) const {
    return db_.transaction([&]() -> Status {
        if (auto s = remove(d.id); !s) return s;
        auto doc = db_.prepare(std::string("INSERT INTO kb_docs (") + kDocColumns + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        if (!doc) return doc.error();
        doc->bind(1, d.id).bind(2, d.path).bind(3, d.root).bind(4, d.hash).bind(5, d.title).bind(6, d.category);
        doc->bind(7, joinComma(d.platforms))
            .bind(8, joinComma(d.triggers))
            .bind(9, joinComma(d.tags))
            .bind(10, d.status)
            .bind(11, d.body);
        if (auto s = doc->run(); !s) return s;
        // Metadata is searchable too: a trigger or tag word finds the document.
        std::string meta = d.title + " " + d.category;
        for (const auto& list : {d.platforms, d.triggers, d.tags})
            for (const auto& x : list) meta += " " + x;
        int index = 0;
        for (const auto& sec : d.sections) {
            auto fts = db_.prepare("INSERT INTO kb_fts (doc_id, section, heading, text, meta) VALUES (?, ?, ?, ?, ?)");
            if (!fts) return fts.error();
            fts->bind(1, d.id)
                .bind(2, std::to_string(index++))
                .bind(3, sec.heading.empty() ? d.title : sec.heading)
                .bind(4, sec.text)
                .bind(5, meta);
            if (auto s = fts->run(); !s) return s;
        }
        return {};
    });
}

Result<SyncReport> KbIndex::sync(const std::vector<std::filesystem::path>& roots) const {
    SyncReport report;
    std::map<std::string, std::pair<std::string, std::string>> indexed; // id -> (hash, root)
    {
        auto stmt = db_.prepare("SELECT id, hash, root FROM kb_docs");
        if (!stmt) return stmt.error();
        for (;;) {
            auto row = stmt->step();
            if (!row) return row.error();
            if (!*row) break;
            indexed[stmt->text(0)] = {stmt->text(1), stmt->text(2)};
        }
    }
    std::set<std::string> seen;
    std::set<std::string> rootNames;
    for (const auto& root : roots) {
        std::error_code ec;
        if (!std::filesystem::is_directory(root, ec)) continue;
        const std::string rootName = std::filesystem::weakly_canonical(root, ec).string();
        rootNames.insert(rootName);
        registerPlatformsIn(root);
        for (const auto& f : docFiles(root)) {
            auto text = readTextFile(f);
            if (!text) {
                report.errors.push_back(f.string() + ": " + text.error().message);
                continue;
            }
            const std::string hash = sha256Hex(*text);
            auto parsed = parseDocument(f.string(), *text);
            if (!parsed.errors.empty()) {
                report.errors.insert(report.errors.end(), parsed.errors.begin(), parsed.errors.end());
                continue;
            }
            auto& d = parsed.doc;
            if (seen.count(d.id)) {
                report.errors.push_back(f.string() + ":2: id '" + d.id +
                                        "' is already used by another document; ids must be unique");
                continue;
            }
            seen.insert(d.id);
            auto old = indexed.find(d.id);
            if (old != indexed.end() && old->second.first == hash) {
                ++report.unchanged;
                continue;
            }
            d.root = rootName;
            d.hash = hash;
            if (d.category == "skills" && d.status == "shipped") d.status = "pending";
            if (auto s = put(d); !s) return s.error();
            if (old == indexed.end())
                ++report.added;
            else
                ++report.updated;
        }
    }
    for (const auto& [id, info] : indexed)
        if (!seen.count(id) && rootNames.count(info.second)) {
            if (auto s = remove(id); !s) return s.error();
            ++report.removed;
        }
    return report;
}

Result<std::vector<Snippet>> KbIndex::search(const RetrievalQuery& q) const {
    std::string words = q.text;
    for (const auto& s : q.diagnosis) words += " " + s;
    const std::string match = matchExpression(words);

    struct Candidate {
        Snippet snippet;
        double bm25 = 0;
        std::vector<std::string> matchedTriggers;
    };
    std::map<std::string, Candidate> best; // per document, its best section
    std::map<std::string, KbDocument> docs;
    {
        // Metadata only: bodies stay in the database (the FTS rows hold the sections).
        auto stmt = db_.prepare(std::string("SELECT ") + kMetaColumns + " FROM kb_docs");
        if (!stmt) return stmt.error();
        for (;;) {
            auto row = stmt->step();
            if (!row) return row.error();
            if (!*row) break;
            auto d = readDoc(*stmt);
            docs[d.id] = std::move(d);
        }
    }
    auto eligible = [&](const KbDocument& d) {
        if (d.status == "rejected" || (d.status == "pending" && !q.includePending)) return false;
        // "any" asks for no platform in particular.
        return q.platform.empty() || q.platform == "any" || contains(d.platforms, q.platform) || contains(d.platforms, "any");
    };
    auto triggersOf = [&](const KbDocument& d) {
        std::vector<std::string> m;
        for (const auto& s : q.diagnosis)
            if (contains(d.triggers, s)) m.push_back(s);
        return m;
    };
    if (!match.empty()) {
        // bm25() is lower for better matches; headings and metadata weigh more than prose.
        auto stmt = db_.prepare(
            "SELECT doc_id, section, heading, text, bm25(kb_fts, 0, 0, 2.0, 1.0, 1.5) FROM kb_fts WHERE kb_fts MATCH ? "
            "ORDER BY 5 LIMIT 400");
        if (!stmt) return stmt.error();
        stmt->bind(1, match);
        for (;;) {
            auto row = stmt->step();
            if (!row) return row.error();
            if (!*row) break;
            const std::string id = stmt->text(0);
            auto d = docs.find(id);
            if (d == docs.end() || !eligible(d->second)) continue;
            const double score = -stmt->real(4);
            auto& c = best[id];
            if (c.snippet.docId.empty() || score > c.bm25) {
                c.bm25 = score;
                c.snippet.docId = id;
                c.snippet.heading = stmt->text(2);
                c.snippet.text = stmt->text(3);
            }
        }
    }
    // A trigger match alone also qualifies (a diagnosis may share no word with the text).
    for (const auto& [id, d] : docs)
        if (!best.count(id) && eligible(d) && !triggersOf(d).empty()) {
            auto first = firstSection(db_, id);
            if (!first) return first.error();
            if (!*first) continue;
            auto& c = best[id];
            c.snippet.docId = id;
            c.snippet.heading = (*first)->heading;
            c.snippet.text = (*first)->text;
        }
    std::vector<Snippet> ranked;
    for (auto& [id, c] : best) {
        const auto& d = docs[id];
        c.matchedTriggers = triggersOf(d);
        c.snippet.matchedTriggers = c.matchedTriggers;
        const double n = static_cast<double>(c.matchedTriggers.size());
        c.snippet.score = c.bm25 * (1 + 0.6 * n) + 1.0 * n;
        // An approved skill was learned on this workspace's machine: worth more than prose of the same match.
        if (d.status == "approved") c.snippet.score *= 1.5;
        c.snippet.title = d.title;
        c.snippet.category = d.category;
        c.snippet.path = d.path;
        std::ostringstream why;
        if (c.bm25 > 0) why << "text match (bm25 " << static_cast<int>(c.bm25 * 10) / 10.0 << ")";
        if (!c.matchedTriggers.empty()) why << (c.bm25 > 0 ? "; " : "") << "triggers " << joinComma(c.matchedTriggers);
        if (!q.platform.empty() && q.platform != "any")
            why << "; platform " << (contains(d.platforms, q.platform) ? q.platform : "any");
        if (d.status == "approved") why << "; approved skill";
        c.snippet.reason = why.str();
        ranked.push_back(c.snippet);
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](const Snippet& a, const Snippet& b) {
        return a.score != b.score ? a.score > b.score : a.docId < b.docId;
    });
    std::vector<Snippet> out;
    int tokens = 0;
    for (const auto& s : ranked) {
        if (static_cast<int>(out.size()) >= q.limit) break;
        const int t = estimateTokens(s.text);
        if (q.tokenBudget > 0 && tokens + t > q.tokenBudget) continue; // a smaller one may still fit
        tokens += t;
        out.push_back(s);
    }
    return out;
}

Result<std::vector<KbDocument>> KbIndex::list() const {
    auto stmt = db_.prepare(std::string("SELECT ") + kDocColumns + " FROM kb_docs ORDER BY category, id");
    if (!stmt) return stmt.error();
    return store::readAll<KbDocument>(*stmt, readDoc);
}

Result<std::optional<KbDocument>> KbIndex::find(const std::string& id) const {
    auto stmt = db_.prepare(std::string("SELECT ") + kDocColumns + " FROM kb_docs WHERE id = ?");
    if (!stmt) return stmt.error();
    stmt->bind(1, id);
    auto row = stmt->step();
    if (!row) return row.error();
    if (!*row) return std::optional<KbDocument>();
    auto d = readDoc(*stmt);
    d.sections = splitSections(d.body);
    return std::optional<KbDocument>(std::move(d));
}

std::vector<std::string> validateTree(const std::filesystem::path& root) {
    std::vector<std::string> errors;
    std::error_code ec;
    if (!std::filesystem::is_directory(root, ec)) return {root.string() + ": not a folder"};
    registerPlatformsIn(root);
    std::map<std::string, std::string> ids;
    for (const auto& f : docFiles(root)) {
        auto text = readTextFile(f);
        if (!text) {
            errors.push_back(f.string() + ": " + text.error().message);
            continue;
        }
        auto parsed = parseDocument(f.string(), *text);
        errors.insert(errors.end(), parsed.errors.begin(), parsed.errors.end());
        if (!parsed.errors.empty()) continue;
        if (auto it = ids.find(parsed.doc.id); it != ids.end())
            errors.push_back(f.string() + ":2: id '" + parsed.doc.id + "' is also the id of " + it->second);
        ids[parsed.doc.id] = f.string();
        const auto rel = std::filesystem::relative(f, root, ec);
        const std::string top = rel.begin() != rel.end() ? rel.begin()->string() : "";
        if (rel.has_parent_path() && contains(knownCategories(), top) && top != parsed.doc.category)
            errors.push_back(f.string() + ":4: category '" + parsed.doc.category + "' but the file is under " + top +
                             "/ (move it or fix the category)");
        if (parsed.doc.category == "hardware") {
            // hardware/<platform>/...: the folder's platform must be among the document's.
            auto part = rel.begin();
            if (part != rel.end() && ++part != rel.end() && std::next(part) != rel.end() &&
                !contains(parsed.doc.platforms, part->string()))
                errors.push_back(f.string() + ":5: the file is under hardware/" + part->string() +
                                 "/ but its platforms do not list " + part->string());
        }
    }
    return errors;
}

std::filesystem::path userKbDir() {
    return paths::dataDir() / "kb";
}

std::vector<std::filesystem::path> defaultKbRoots() {
    std::vector<std::filesystem::path> roots{paths::shippedKbDir(), userKbDir()};
    if (const char* extra = std::getenv("KW_KB_DIRS"); extra && *extra) {
        std::stringstream in(extra);
        std::string dir;
        while (std::getline(in, dir, ':'))
            if (!dir.empty()) roots.emplace_back(dir);
    }
    return roots;
}

std::string hostPlatform() {
#if defined(__x86_64__)
    return "x86-64";
#elif defined(__aarch64__)
    return "neoverse";
#else
    return "";
#endif
}

const std::filesystem::path& KbIndex::databasePath() const {
    return db_.path();
}

} // namespace kw::kb
