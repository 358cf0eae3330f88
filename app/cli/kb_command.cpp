// kernelwright-cli kb: the knowledge base: import, list, show, search,
// validate, and the review of skills distilled from searches.
#include "args.h"
#include "command_table.h"
#include "commands.h"
#include "exit_codes.h"
#include "synth/llm_setup.h"

#include "kb/front_matter.h"
#include "kb/kb_import.h"
#include "kb/kb_index.h"
#include "kb/kb_writer.h"
#include "kb/skill_distiller.h"
#include "util/files.h"
#include "util/paths.h"

#include <cstdio>

namespace kw::cli {
namespace {

const char* kKbHelp = R"(usage: kernelwright-cli kb COMMAND ...

  import FILE|DIR [--force]     markdown, text or PDF (pdftotext) into the user KB;
                                sections split, front matter proposed (edit it after)
  list [--category C]           every indexed document
  show ID                       one document
  search "QUERY" [--signal S ...] [--platform P] [--limit N] [--pending]
                                ranked sections and why each was chosen
  validate [DIR ...]            front matter, ids, folders (default: the shipped KB)
  distill SEARCH_ID [--model NAME] [--llm-config FILE]
                                write what a search learned as a skill (pending review)
  skills list | approve ID | reject ID

Folders: the shipped KB, $XDG_DATA_HOME/kernelwright/kb (skills, imports) and any in
KW_KB_DIRS (colon-separated). The index lives in the workspace (--db) and follows
the files by hash.
)";

int fail(const char* verb, const std::string& message, int code = kExitError) {
    std::fprintf(stderr, "kb%s%s: %s\n", *verb ? " " : "", verb, message.c_str());
    return code;
}

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
}

Result<store::Database> openIndexed(const GlobalOptions& global, bool quiet = false) {
    auto db = store::Database::open(global.database.empty() ? paths::defaultDatabase() : std::filesystem::path(global.database));
    if (!db) return db.error();
    auto report = kb::KbIndex(*db).sync(kb::defaultKbRoots());
    if (!report) return report.error();
    if (!quiet && !report->errors.empty()) {
        std::fprintf(stderr, "kb: %zu document(s) skipped (run `kb validate` on their folder):\n", report->errors.size());
        for (std::size_t i = 0; i < report->errors.size() && i < 10; ++i)
            std::fprintf(stderr, "  %s\n", report->errors[i].c_str());
    }
    return db;
}

int import(const Args& args, const GlobalOptions& global) {
    if (args.positional().size() != 2) return fail("import", "usage: kb import FILE|DIR [--force]", kExitUsage);
    auto docs = kb::importPath(args.positional()[1]);
    if (!docs) return fail("import", docs.error().message);
    auto db = openIndexed(global, true);
    if (!db) return fail("import", db.error().message);
    auto files = kb::KbWriter::forInstallation(*db).writeImported(*docs, args.has("force"));
    if (!files) return fail("import", files.error().message + (args.has("force") ? "" : " (--force replaces it)"), kExitUsage);
    for (std::size_t i = 0; i < docs->size(); ++i) {
        const auto& d = (*docs)[i];
        std::printf("%s -> %s (%zu sections)%s\n", d.source.c_str(), (*files)[i].c_str(), d.doc.sections.size(),
                    d.proposedFrontMatter ? "; proposed front matter:" : "");
        if (d.proposedFrontMatter) std::printf("%s", kb::renderFrontMatter(d.doc).c_str());
    }
    return kExitOk;
}

int list(const Args& args, const GlobalOptions& global) {
    auto db = openIndexed(global);
    if (!db) return fail("list", db.error().message);
    auto docs = kb::KbIndex(*db).list();
    if (!docs) return fail("list", docs.error().message);
    const auto category = args.value("category");
    int n = 0;
    for (const auto& d : *docs) {
        if (category && d.category != *category) continue;
        std::printf("%-44s %-12s %-18s %s%s\n", d.id.c_str(), d.category.c_str(), joined(d.platforms).c_str(), d.title.c_str(),
                    d.category == "skills" ? (" [" + d.status + "]").c_str() : "");
        ++n;
    }
    std::printf("%d document(s)\n", n);
    return kExitOk;
}

int show(const Args& args, const GlobalOptions& global) {
    if (args.positional().size() != 2) return fail("show", "usage: kb show ID", kExitUsage);
    auto db = openIndexed(global);
    if (!db) return fail("show", db.error().message);
    auto doc = kb::KbIndex(*db).find(args.positional()[1]);
    if (!doc) return fail("show", doc.error().message);
    if (!*doc) return fail("show", "no document '" + args.positional()[1] + "' (see `kb list`)", kExitUsage);
    std::printf("%s\n%s%s", (*doc)->path.c_str(), kb::renderFrontMatter(**doc).c_str(), (*doc)->body.c_str());
    return kExitOk;
}

int search(const Args& args, const GlobalOptions& global) {
    if (args.positional().size() != 2)
        return fail("search", "usage: kb search \"QUERY\" [--signal S ...] [--platform P]", kExitUsage);
    auto db = openIndexed(global);
    if (!db) return fail("search", db.error().message);
    kb::RetrievalQuery q;
    q.text = args.positional()[1];
    q.diagnosis = args.all("signal");
    for (const auto& s : q.diagnosis)
        if (!kb::contains(kb::knownSignals(), s))
            return fail("search", "unknown signal '" + s + "' (see docs/kb-format.md)", kExitUsage);
    q.platform = args.value("platform").value_or("");
    if (!q.platform.empty() && !kb::contains(kb::knownPlatforms(), q.platform))
        return fail("search", "unknown platform '" + q.platform + "' (known: " + joined(kb::knownPlatforms()) + ")", kExitUsage);
    q.limit = std::stoi(args.value("limit").value_or("5"));
    q.includePending = args.has("pending");
    auto hits = kb::KbIndex(*db).search(q);
    if (!hits) return fail("search", hits.error().message);
    int rank = 0;
    for (const auto& h : *hits) {
        std::printf("%d. %s — %s [%s]\n   section: %s\n   why: %s (score %.2f)\n", ++rank, h.docId.c_str(), h.title.c_str(),
                    h.category.c_str(), h.heading.c_str(), h.reason.c_str(), h.score);
    }
    if (hits->empty()) std::printf("nothing matched\n");
    return kExitOk;
}

int validate(const Args& args) {
    std::vector<std::filesystem::path> dirs;
    for (std::size_t i = 1; i < args.positional().size(); ++i) dirs.emplace_back(args.positional()[i]);
    if (dirs.empty()) dirs.push_back(paths::shippedKbDir());
    std::size_t errors = 0;
    for (const auto& d : dirs) {
        const auto found = kb::validateTree(d);
        for (const auto& e : found) std::printf("%s\n", e.c_str());
        errors += found.size();
    }
    if (errors) {
        std::printf("%zu problem(s)\n", errors);
        return kExitError;
    }
    std::printf("ok\n");
    return kExitOk;
}

int distill(const Args& args, const GlobalOptions& global) {
    if (args.positional().size() != 2) return fail("distill", "usage: kb distill SEARCH_ID [--model NAME]", kExitUsage);
    auto db = openIndexed(global, true);
    if (!db) return fail("distill", db.error().message);
    std::unique_ptr<synth::llm::LlmClient> client;
    if (auto name = args.value("model")) {
        auto settings = synth::loadLlmSettings(args.value("llm-config").value_or(""));
        if (!settings) return fail("distill", settings.error().message);
        auto model = synth::llm::resolveModel(*settings, *name);
        if (!model) return fail("distill", model.error().message, kExitUsage);
        client = std::make_unique<synth::llm::LlmClient>(*model);
    }
    long long id = 0;
    try {
        id = std::stoll(args.positional()[1]);
    } catch (const std::exception&) {
        return fail("distill", "'" + args.positional()[1] + "' is not a search id", kExitUsage);
    }
    auto skill = kb::distillSkill(*db, id, kb::userKbDir() / "skills", client.get());
    if (!skill) return fail("distill", skill.error().message);
    if (auto r = kb::KbIndex(*db).sync(kb::defaultKbRoots()); !r) return fail("distill", r.error().message);
    std::printf("%s: %s (%s); pending review: kernelwright-cli kb skills approve %s\n", skill->doc.id.c_str(),
                skill->file.c_str(), skill->byModel ? "written by the model" : "structured summary", skill->doc.id.c_str());
    return kExitOk;
}

int skills(const Args& args, const GlobalOptions& global) {
    const auto& pos = args.positional();
    if (pos.size() < 2) return fail("skills", "usage: kb skills list | approve ID | reject ID", kExitUsage);
    auto db = openIndexed(global);
    if (!db) return fail("skills", db.error().message);
    kb::KbIndex index(*db);
    if (pos[1] == "list") {
        auto docs = index.list();
        if (!docs) return fail("skills", docs.error().message);
        for (const auto& d : *docs)
            if (d.category == "skills") std::printf("%-40s %-9s %s\n", d.id.c_str(), d.status.c_str(), d.title.c_str());
        return kExitOk;
    }
    if ((pos[1] == "approve" || pos[1] == "reject") && pos.size() == 3) {
        auto doc = index.find(pos[2]);
        if (!doc) return fail("skills", doc.error().message);
        if (!*doc || (*doc)->category != "skills")
            return fail("skills", "no skill '" + pos[2] + "' (see `kb skills list`)", kExitUsage);
        if (auto s = kb::setSkillStatus((*doc)->path, pos[1] == "approve" ? "approved" : "rejected"); !s)
            return fail("skills", s.error().message);
        if (auto r = index.sync(kb::defaultKbRoots()); !r) return fail("skills", r.error().message);
        std::printf("%s %s\n", pos[2].c_str(),
                    pos[1] == "approve" ? "approved: retrieved from now on" : "rejected: never retrieved");
        return kExitOk;
    }
    return fail("skills", "usage: kb skills list | approve ID | reject ID", kExitUsage);
}

} // namespace

int runKbCommand(const std::vector<std::string>& argv, const GlobalOptions& global) {
    std::string error;
    auto args = Args::parse(argv, verb("kb").valued, verb("kb").flags, error, "kb");
    if (!args) return fail("", error, kExitUsage);
    if (args->has("help") || args->positional().empty()) {
        std::fputs(kKbHelp, args->has("help") ? stdout : stderr);
        return args->has("help") ? kExitOk : kExitUsage;
    }
    const auto& verb = args->positional()[0];
    if (verb == "import") return import(*args, global);
    if (verb == "list") return list(*args, global);
    if (verb == "show") return show(*args, global);
    if (verb == "search") return search(*args, global);
    if (verb == "validate") return validate(*args);
    if (verb == "distill") return distill(*args, global);
    if (verb == "skills") return skills(*args, global);
    std::fprintf(stderr, "kb: unknown command '%s'\n\n%s", verb.c_str(), kKbHelp);
    return kExitUsage;
}

} // namespace kw::cli
