// The knowledge base: front-matter checks with file:line, the shipped KB
// valid, incremental indexing by hash, retrieval (triggers, platforms, token
// budget), recall@5 over the retrieval set in tests/data/kb_retrieval, and
// PDF import through pdftotext on a PDF the test writes itself.
#include "kb/front_matter.h"
#include "kb/kb_import.h"
#include "kb/kb_index.h"
#include "kb/kb_writer.h"
#include "kb/node_query.h"
#include "problem/problem_loader.h"
#include "store/database.h"
#include "test_support.h"
#include "tiny_pdf.h"
#include "util/files.h"
#include "util/paths.h"

#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <sstream>

using namespace kw;

namespace {

std::string doc(const std::string& id, const std::string& category, const std::string& platforms, const std::string& triggers,
                const std::string& body) {
    return "---\nid: " + id + "\ntitle: " + id + " title\ncategory: " + category + "\nplatforms: " + platforms +
           "\ntriggers: " + triggers + "\ntags: [test]\n---\n# " + id + "\n\n" + body + "\n";
}

void write(const std::filesystem::path& p, const std::string& text) {
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
}

} // namespace

class TestKb : public QObject {
    Q_OBJECT
  private slots:
    void frontMatterErrorsNameFileAndLine() {
        const auto bad = kb::parseDocument(
            "x.md", "---\nid: Bad_Id\ntitle: t\ncategory: recipes\nplatforms: [x86-64, vax]\ntriggers: [slow]\n---\n# body\n");
        const std::vector<std::string> expected{"x.md:2: id 'Bad_Id'", "x.md:4: unknown category 'recipes'",
                                                "x.md:5: unknown platform 'vax'", "x.md:6: unknown trigger 'slow'"};
        for (const auto& e : expected) {
            bool found = false;
            for (const auto& got : bad.errors) found = found || got.rfind(e, 0) == 0;
            QVERIFY2(found, e.c_str());
        }
        QVERIFY(!kb::parseDocument("y.md", "no front matter").errors.empty());
        const auto open = kb::parseDocument("z.md", "---\nid: a\ntitle: t\n");
        QVERIFY(!open.errors.empty());
        QVERIFY(open.errors.back().find("never closed") != std::string::npos);
        const auto good = kb::parseDocument(
            "g.md", doc("good-doc", "guidance", "[any]", "[memory_bound]", "intro\n\n## One\ntext one\n\n## Two\ntext two"));
        QVERIFY(good.errors.empty());
        QCOMPARE(good.doc.sections.size(), std::size_t{3});
        QCOMPARE(good.doc.sections[1].heading, std::string("One"));
    }

    void shippedKbIsValid() {
        const auto root = paths::shippedKbDir();
        const auto errors = kb::validateTree(root);
        std::string all;
        for (const auto& e : errors) all += e + "\n";
        QVERIFY2(errors.empty(), all.c_str());
        int docs = 0;
        for (auto& e : std::filesystem::recursive_directory_iterator(root)) docs += e.path().extension() == ".md";
        QVERIFY2(docs >= 60, std::to_string(docs).c_str());
        // A misplaced category is caught too.
        QTemporaryDir dir;
        write(std::filesystem::path(dir.path().toStdString()) / "guidance" / "a.md",
              doc("a", "hardware", "[x86-64]", "[]", "text"));
        QCOMPARE(kb::validateTree(dir.path().toStdString()).size(), std::size_t{1});
    }

    void fieldErrorsNameTheirKey() {
        auto p = kb::parseDocument(
            "x.md", "---\nid: Bad Id\ntitle: \ncategory: guidance\nplatforms: [mars]\ntriggers: [fast]\ntags: []\n---\nbody\n");
        QCOMPARE(p.errors.size(), p.fieldErrors.size());
        std::map<std::string, std::string> byKey;
        for (const auto& e : p.fieldErrors) byKey[e.key] = e.message;
        QVERIFY(byKey["id"].find("lowercase letters") != std::string::npos);
        QVERIFY(byKey["title"].find("title is empty") != std::string::npos);
        QVERIFY(byKey["platforms"].find("unknown platform 'mars'") != std::string::npos);
        QVERIFY(byKey["triggers"].find("unknown trigger 'fast'") != std::string::npos);
        QVERIFY(!byKey.count("category"));
        QVERIFY(p.errors[0].rfind("x.md:2: ", 0) == 0); // file:line stays for the CLI
    }

    void writerSavesChecksRenamesAndDeletes() {
        QTemporaryDir dir;
        const std::filesystem::path base = dir.path().toStdString(), shipped = base / "shipped", user = base / "user";
        write(shipped / "guidance/shipped-one.md", doc("shipped-one", "guidance", "[any]", "[]", "shipped text"));
        auto db = store::Database::open(base / "ws.db");
        QVERIFY(db.ok());
        kb::KbWriter writer(*db, {shipped}, {shipped}, user);
        QVERIFY(writer.reindex().ok());

        kb::KbDocument d;
        d.id = "shipped-one"; // taken
        d.title = "Prefetch distance";
        d.category = "guidance";
        d.platforms = {"any"};
        d.body = "# Prefetch distance\n\nIssue prefetches about 400 cycles ahead of use.\n";
        auto problems = writer.check(d, {});
        QCOMPARE(problems.size(), std::size_t{1});
        QCOMPARE(problems[0].key, std::string("id"));
        QVERIFY(!writer.save(d, {}).ok());
        QVERIFY(!std::filesystem::exists(user)); // nothing written on refusal

        d.id = "prefetch-distance";
        auto file = writer.save(d, {});
        QVERIFY2(file.ok(), file.ok() ? "" : file.error().message.c_str());
        QCOMPARE(*file, user / "guidance/prefetch-distance.md");
        auto text = readTextFile(*file);
        QVERIFY(text.ok() && text->find("id: prefetch-distance\n") != std::string::npos &&
                text->find("400 cycles") != std::string::npos);
        auto hits = writer.index().search({"prefetches cycles ahead", {}, "", 5, 0, false});
        QVERIFY(hits.ok() && !hits->empty() && hits->front().docId == "prefetch-distance");

        // A new category moves the file to its folder; the old one is gone.
        d.category = "hardware";
        d.platforms = {"x86-64"};
        auto moved = writer.save(d, *file);
        QVERIFY(moved.ok());
        QCOMPARE(*moved, user / "hardware/x86-64/prefetch-distance.md");
        QVERIFY(!std::filesystem::exists(*file));
        QVERIFY(kb::validateTree(user).empty());

        // The shipped KB is never written.
        auto shippedDoc = writer.index().find("shipped-one");
        QVERIFY(shippedDoc.ok() && *shippedDoc);
        QVERIFY(!writer.writable((*shippedDoc)->path));
        auto refused = writer.save(**shippedDoc, (*shippedDoc)->path);
        QVERIFY(!refused.ok() && refused.error().message.find("read-only") != std::string::npos);
        QVERIFY(!writer.remove((*shippedDoc)->path).ok());

        auto renamed = writer.rename(*moved, "prefetch-ahead");
        QVERIFY2(renamed.ok(), renamed.ok() ? "" : renamed.error().message.c_str());
        QVERIFY(!std::filesystem::exists(*moved));
        QVERIFY(writer.index().find("prefetch-ahead")->has_value());
        QVERIFY(!writer.index().find("prefetch-distance")->has_value());
        QVERIFY(!writer.rename(*renamed, "Not Valid").ok());

        QVERIFY(writer.remove(*renamed).ok());
        QVERIFY(!std::filesystem::exists(*renamed));
        QVERIFY(!writer.index().find("prefetch-ahead")->has_value());
    }

    void writerImportsAllOrNothing() {
        QTemporaryDir dir;
        const std::filesystem::path base = dir.path().toStdString();
        write(base / "in/a.txt", "Streaming stores\n\nBandwidth is what counts here.\n");
        write(base / "in/b.md", "# Softmax notes\n\nExp dominates a row softmax.\n");
        auto docs = kb::importPath(base / "in");
        QVERIFY(docs.ok());
        QCOMPARE(docs->size(), std::size_t{2});
        QVERIFY(!std::filesystem::exists(base / "user")); // proposing writes nothing
        auto db = store::Database::open(base / "ws.db");
        QVERIFY(db.ok());
        kb::KbWriter writer(*db, {}, {}, base / "user");
        write(base / "user/imported" / ((*docs)[1].doc.id + ".md"), "earlier");
        QVERIFY(!writer.writeImported(*docs, false).ok());
        QVERIFY(!std::filesystem::exists(base / "user/imported" / ((*docs)[0].doc.id + ".md")));
        auto files = writer.writeImported(*docs, true);
        QVERIFY(files.ok());
        QCOMPARE(files->size(), std::size_t{2});
        QVERIFY(writer.index().find((*docs)[0].doc.id)->has_value());
        QVERIFY(writer.index().find((*docs)[1].doc.id)->has_value());
    }

    void newPlatformGetsValidStarterDocs() {
        QTemporaryDir dir;
        const std::filesystem::path base = dir.path().toStdString(), user = base / "user";
        auto db = store::Database::open(base / "ws.db");
        QVERIFY(db.ok());
        kb::KbWriter writer(*db, {}, {}, user);
        QVERIFY(!writer.createPlatform("MI 400", "").ok());
        QVERIFY(!writer.createPlatform("any", "").ok());
        QVERIFY(!writer.createPlatform("hopper", "").ok());
        QVERIFY(!std::filesystem::exists(user / "hardware"));
        auto files = writer.createPlatform("mi400x", "Instinct MI400X");
        QVERIFY2(files.ok(), files.ok() ? "" : files.error().message.c_str());
        QCOMPARE(files->size(), std::size_t{3});
        for (const char* folder : {"arch", "debug", "optimization"})
            QVERIFY(std::filesystem::is_directory(user / "hardware/mi400x" / folder));
        QVERIFY(kb::contains(kb::knownPlatforms(), "mi400x"));
        const auto errors = kb::validateTree(user);
        QVERIFY2(errors.empty(), errors.empty() ? "" : errors.front().c_str());
        auto doc = writer.index().find("mi400x-optimization-playbook");
        QVERIFY(doc.ok() && *doc);
        QCOMPARE((*doc)->platforms, std::vector<std::string>{"mi400x"});
        QVERIFY((*doc)->title.find("Instinct MI400X") != std::string::npos);
        auto again = writer.createPlatform("mi400x", "");
        QVERIFY(!again.ok() && again.error().message.find("exists already") != std::string::npos);
        // Retrieval filters by the new platform like any other.
        auto hits = writer.index().search({"tile shapes peak", {"compute_bound"}, "mi400x", 5, 0, false});
        QVERIFY(hits.ok() && !hits->empty());
        QCOMPARE(hits->front().docId, std::string("mi400x-optimization-playbook"));
    }

    void indexFollowsTheFilesByHash() {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString() + "/kb";
        write(root / "guidance/one.md",
              doc("one", "guidance", "[any]", "[memory_bound]", "streaming stores and prefetch distance"));
        write(root / "guidance/two.md", doc("two", "guidance", "[any]", "[compile_error]", "reading compiler diagnostics"));
        auto db = store::Database::open(dir.path().toStdString() + "/ws.db");
        QVERIFY(db.ok());
        kb::KbIndex index(*db);
        auto r = index.sync({root});
        QVERIFY(r.ok());
        QCOMPARE(r->added, 2);
        r = index.sync({root});
        QCOMPARE(r->unchanged, 2);
        QCOMPARE(r->added + r->updated, 0);
        write(root / "guidance/one.md",
              doc("one", "guidance", "[any]", "[memory_bound]", "non-temporal stores bypass the cache"));
        std::filesystem::remove(root / "guidance/two.md");
        write(root / "guidance/broken.md", "---\nid: broken\n");
        r = index.sync({root});
        QCOMPARE(r->updated, 1);
        QCOMPARE(r->removed, 1);
        QCOMPARE(r->errors.size(), std::size_t{1});
        QVERIFY(r->errors[0].find("broken.md") != std::string::npos);
        auto hits = index.search({"non-temporal", {}, "", 5, 0, false});
        QVERIFY(hits.ok());
        QCOMPARE(hits->size(), std::size_t{1});
        QVERIFY(index.search({"compiler diagnostics", {}, "", 5, 0, false})->empty());
    }

    void triggersBoostAndPlatformsFilter() {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString() + "/kb";
        write(root / "hardware/x86-64/a.md",
              doc("x86-loads", "hardware", "[x86-64]", "[]", "vector loads and cache lines on this core"));
        write(root / "hardware/hopper/b.md",
              doc("gpu-loads", "hardware", "[hopper]", "[]", "vector loads and cache lines on the gpu"));
        write(root / "guidance/c.md",
              doc("bw-playbook", "guidance", "[any]", "[memory_bound]", "count the bytes; the loads are the cost"));
        auto db = store::Database::open(dir.path().toStdString() + "/ws.db");
        kb::KbIndex index(*db);
        QVERIFY(index.sync({root}).ok());
        auto hits = index.search({"vector loads cache lines", {}, "x86-64", 5, 0, false});
        QVERIFY(hits.ok());
        for (const auto& h : *hits) QVERIFY(h.docId != "gpu-loads");
        QCOMPARE(hits->front().docId, std::string("x86-loads"));
        // The diagnosis lifts the document it triggers, and says so.
        hits = index.search({"vector loads cache lines", {"memory_bound"}, "x86-64", 5, 0, false});
        QCOMPARE(hits->front().docId, std::string("bw-playbook"));
        QVERIFY(hits->front().reason.find("triggers memory_bound") != std::string::npos);
        // A trigger alone finds a document with no word in common.
        hits = index.search({"zzz", {"memory_bound"}, "", 5, 0, false});
        QCOMPARE(hits->size(), std::size_t{1});
        // The token budget bounds what is returned.
        hits = index.search({"vector loads cache lines bytes", {}, "", 5, 20, false}); // one section is ~14 tokens
        QCOMPARE(hits->size(), std::size_t{1});
    }

    // Retrieval for a problem filters by where its kernels run, not by where
    // the search runs: a cuda problem for sm_90 gets Hopper documents.
    void retrievalPlatformFollowsTheProblem() {
        const auto platformOf = [](const char* dir) {
            auto spec = problem::loadProblem(test::bundledProblemsDir() / dir);
            return spec ? kb::retrievalPlatform(*spec) : "(" + spec.error().message + ")";
        };
        QCOMPARE(platformOf("cpu/mbdt"), kb::hostPlatform());
        QCOMPARE(platformOf("gpu/cuda_rmsnorm_fwd"), std::string("hopper"));
        QCOMPARE(platformOf("gpu/gpu_softmax"), std::string()); // torch: the executor's GPU, unknown here
    }

    void retrievalSetRecallAt5() {
        QTemporaryDir dir;
        auto db = store::Database::open(dir.path().toStdString() + "/ws.db");
        QVERIFY(db.ok());
        kb::KbIndex index(*db);
        auto synced = index.sync({paths::shippedKbDir()});
        QVERIFY(synced.ok());
        QVERIFY(synced->errors.empty());
        int cases = 0, hits = 0;
        std::string misses;
        for (const auto& f : std::filesystem::directory_iterator(test::dataDir() / "kb_retrieval")) {
            std::ifstream in(f.path());
            const auto set = nlohmann::json::parse(in);
            for (const auto& c : set) {
                kb::RetrievalQuery q;
                q.text = c["query"].get<std::string>();
                q.diagnosis = c.value("signals", std::vector<std::string>{});
                q.platform = c.value("platform", "");
                q.limit = 5;
                const auto found = index.search(q);
                QVERIFY(found.ok());
                for (const auto& expected : c["expected"]) {
                    ++cases;
                    bool ok = false;
                    for (const auto& h : *found) ok = ok || h.docId == expected.get<std::string>();
                    hits += ok;
                    if (!ok) misses += "  " + expected.get<std::string>() + " <- \"" + q.text + "\"\n";
                }
            }
        }
        const double recall = cases ? static_cast<double>(hits) / cases : 0;
        std::printf("retrieval set: %d expected documents, recall@5 = %.3f\n%s", cases, recall, misses.c_str());
        QVERIFY(cases >= 20);
        QVERIFY2(recall >= 0.9, misses.c_str());
    }

    void pdfImportSplitsAndProposesFrontMatter() {
        QTemporaryDir dir;
        const auto pdf = dir.path().toStdString() + "/prefetch-notes.pdf";
        std::ofstream(pdf, std::ios::binary)
            << test::tinyPdf("Software prefetch on AVX-512 cores", "Memory bandwidth needs many misses in flight.");
        auto imported = kb::importPath(pdf);
        QVERIFY2(imported.ok(), imported.ok() ? "" : imported.error().message.c_str());
        QCOMPARE(imported->size(), std::size_t{1});
        const auto& d = imported->front();
        QVERIFY(d.proposedFrontMatter);
        QCOMPARE(d.doc.id, std::string("imported-prefetch-notes"));
        QVERIFY(kb::contains(d.doc.platforms, "x86-64"));
        QVERIFY(kb::contains(d.doc.triggers, "memory_bound"));
        QVERIFY(d.text.find("Memory bandwidth needs many misses in flight.") != std::string::npos);
        // What import writes is a valid document.
        QVERIFY(kb::parseDocument("imported.md", d.text).errors.empty());
        // A file that is not a PDF says so.
        const auto fake = dir.path().toStdString() + "/fake.pdf";
        std::ofstream(fake) << "not a pdf";
        auto bad = kb::importPath(fake);
        QVERIFY(!bad.ok());
        QVERIFY(bad.error().message.find("pdftotext") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestKb)
#include "tst_kb.moc"
