#include "kb/kb_writer.h"

#include "kb/platform_starter.h"
#include "util/files.h"
#include "util/paths.h"

#include <algorithm>

namespace kw::kb {
namespace {

namespace fs = std::filesystem;

fs::path normalized(const fs::path& p) {
    std::error_code ec;
    return fs::weakly_canonical(p, ec);
}

bool isUnder(const fs::path& file, const fs::path& root) {
    const auto f = normalized(file), r = normalized(root);
    auto [rootEnd, fileIt] = std::mismatch(r.begin(), r.end(), f.begin(), f.end());
    return rootEnd == r.end();
}

Error refused(const std::vector<FieldError>& problems) {
    std::string all;
    for (const auto& p : problems) all += "\n  " + (p.key.empty() ? std::string() : p.key + ": ") + p.message;
    return makeError(ErrorCode::Validation, "not saved; fix the front matter first:" + all);
}

} // namespace

std::string renderDocument(const KbDocument& doc) {
    std::string body = doc.body;
    if (!body.empty() && body.back() != '\n') body += '\n';
    return renderFrontMatter(doc) + body;
}

fs::path documentPathIn(const fs::path& root, const KbDocument& doc) {
    fs::path dir = root / doc.category;
    if (doc.category == "hardware" && !doc.platforms.empty()) dir /= doc.platforms.front();
    return dir / (doc.id + ".md");
}

KbWriter::KbWriter(const store::Database& db, std::vector<fs::path> roots, std::vector<fs::path> readOnlyRoots, fs::path userRoot)
    : index_(db), roots_(std::move(roots)), readOnlyRoots_(std::move(readOnlyRoots)), userRoot_(std::move(userRoot)) {
    if (std::none_of(roots_.begin(), roots_.end(), [&](const fs::path& r) { return normalized(r) == normalized(userRoot_); }))
        roots_.push_back(userRoot_);
}

KbWriter KbWriter::forInstallation(const store::Database& db) {
    return KbWriter(db, defaultKbRoots(), {paths::shippedKbDir()}, userKbDir());
}

fs::path KbWriter::rootOf(const fs::path& file) const {
    fs::path best;
    for (const auto& r : roots_)
        if (isUnder(file, r) && normalized(r).string().size() > best.string().size()) best = normalized(r);
    return best;
}

bool KbWriter::writable(const fs::path& file) const {
    const auto root = rootOf(file);
    if (root.empty()) return false;
    return std::none_of(readOnlyRoots_.begin(), readOnlyRoots_.end(), [&](const fs::path& r) { return isUnder(file, r); });
}

std::vector<FieldError> KbWriter::check(const KbDocument& doc, const fs::path& file) const {
    auto parsed = parseDocument(file.empty() ? std::string("(new document)") : file.string(), renderDocument(doc));
    auto problems = parsed.fieldErrors;
    if (!doc.id.empty()) {
        auto other = index_.find(doc.id);
        if (!other)
            problems.push_back({"", other.error().message});
        else if (*other && (file.empty() || normalized((*other)->path) != normalized(file)))
            problems.push_back({"id", "id '" + doc.id + "' is already used by " + (*other)->path + "; ids must be unique"});
    }
    return problems;
}

Result<fs::path> KbWriter::save(const KbDocument& doc, const fs::path& file) const {
    if (auto problems = check(doc, file); !problems.empty()) return refused(problems);
    fs::path target = file.empty() ? documentPathIn(userRoot_, doc) : file;
    std::error_code ec;
    if (!file.empty()) {
        if (!writable(file))
            return makeError(ErrorCode::InvalidArgument, file.string() +
                                                             " belongs to the shipped knowledge base, which is read-only here; "
                                                             "save it as a new document in " +
                                                             userRoot_.string() + " instead");
        // validateTree wants a document's category to be its top folder (and a hardware document under one of its platforms).
        const auto rel = fs::relative(normalized(file), rootOf(file), ec);
        auto part = rel.begin();
        const std::string top = part != rel.end() ? part->string() : "";
        const std::string platformDir =
            part != rel.end() && ++part != rel.end() && std::next(part) != rel.end() ? part->string() : "";
        if ((contains(knownCategories(), top) && top != doc.category) ||
            (doc.category == "hardware" && !platformDir.empty() && !contains(doc.platforms, platformDir)))
            target = documentPathIn(rootOf(file), doc);
    }
    if (normalized(target) != normalized(file) && fs::exists(target, ec))
        return makeError(ErrorCode::InvalidArgument, target.string() + " exists already; choose another id");
    fs::create_directories(target.parent_path(), ec);
    if (auto s = writeFileAtomic(target, renderDocument(doc)); !s) return s.error();
    if (!file.empty() && normalized(target) != normalized(file)) fs::remove(file, ec);
    if (auto r = reindex(); !r) return r.error();
    return target;
}

Result<fs::path> KbWriter::rename(const fs::path& file, const std::string& newId) const {
    auto text = readTextFile(file);
    if (!text) return text.error();
    auto parsed = parseDocument(file.string(), *text);
    if (!parsed.errors.empty()) return makeError(ErrorCode::Validation, parsed.errors.front());
    if (!writable(file))
        return makeError(ErrorCode::InvalidArgument,
                         file.string() + " belongs to the shipped knowledge base, which is read-only here");
    KbDocument doc = parsed.doc;
    doc.id = newId;
    const auto target = file.parent_path() / (newId + ".md");
    if (auto problems = check(doc, target); !problems.empty()) return refused(problems);
    std::error_code ec;
    if (fs::exists(target, ec))
        return makeError(ErrorCode::InvalidArgument, target.string() + " exists already; choose another id");
    if (auto s = writeFileAtomic(target, renderDocument(doc)); !s) return s.error();
    fs::remove(file, ec);
    if (auto r = reindex(); !r) return r.error();
    return target;
}

Status KbWriter::remove(const fs::path& file) const {
    if (!writable(file))
        return makeError(ErrorCode::InvalidArgument,
                         file.string() + " belongs to the shipped knowledge base, which is read-only here");
    std::error_code ec;
    if (!fs::remove(file, ec))
        return makeError(ErrorCode::Io, file.string() + ": cannot delete: " + (ec ? ec.message() : "no such file"));
    if (auto r = reindex(); !r) return r.error();
    return {};
}

Result<std::vector<fs::path>> KbWriter::writeImported(const std::vector<ImportedDocument>& docs, bool replace) const {
    const auto dir = userRoot_ / "imported";
    std::vector<fs::path> files;
    std::error_code ec;
    // Every file is checked before any is written: a refused import leaves nothing half done.
    for (const auto& d : docs) {
        files.push_back(dir / (d.doc.id + ".md"));
        if (!replace && fs::exists(files.back(), ec))
            return makeError(ErrorCode::InvalidArgument,
                             files.back().string() + " exists already (from an earlier import); replace it or change the id");
    }
    fs::create_directories(dir, ec);
    for (std::size_t i = 0; i < docs.size(); ++i)
        if (auto s = writeFileAtomic(files[i], docs[i].text); !s) return s.error();
    if (auto r = reindex(); !r) return r.error();
    return files;
}

std::string KbWriter::platformProblem(const std::string& platform) const {
    if (!isValidId(platform)) return "a platform's name is lowercase letters, digits and '-' (e.g. mi400)";
    if (platform == "any") return "'any' means every platform; choose the chip's own name";
    std::error_code ec;
    for (const auto& r : roots_)
        if (fs::is_directory(r / "hardware" / platform, ec)) return (r / "hardware" / platform).string() + " exists already";
    const auto builtin = knownPlatforms();
    if (contains(builtin, platform)) return "'" + platform + "' is a platform already";
    return {};
}

Result<std::vector<fs::path>> KbWriter::createPlatform(const std::string& platform, const std::string& chipName,
                                                       const PlatformFigures& figures) const {
    if (auto problem = platformProblem(platform); !problem.empty()) return makeError(ErrorCode::InvalidArgument, problem);
    const auto starters = platformStarterDocs(platform, chipName, figures);
    registerPlatform(platform);
    for (const auto& s : starters)
        if (auto problems = check(s.doc, {}); !problems.empty()) return refused(problems);
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& s : starters) {
        files.push_back(userRoot_ / s.relativePath);
        fs::create_directories(files.back().parent_path(), ec);
        if (auto w = writeFileAtomic(files.back(), renderDocument(s.doc)); !w) return w.error();
    }
    if (auto r = reindex(); !r) return r.error();
    return files;
}

} // namespace kw::kb
