// What people keep about a search (search/search_notes.h) on a real SQLite
// file: names, notes and tags kept apart from what the search's process
// writes, refusals that change nothing, two processes tagging at once, and
// deletion that leaves the evaluation cache and refuses a live search. And
// the best-so-far curve the Searches list lays side by side.
#include "inspect/progress_curves.h"
#include "search/search_notes.h"
#include "store/database.h"
#include "store/evaluation_store.h"
#include "store/llm_call_store.h"
#include "store/search_store.h"
#include "store_records.h"

#include <QtTest/QtTest>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

using namespace kw;

namespace {

std::int64_t countRows(const store::Database& db, const std::string& sql) {
    auto stmt = db.prepare(sql);
    if (!stmt || !*stmt->step()) return -1;
    return stmt->int64(0);
}

// A finished search of two nodes, a steering command, an LLM call and an evaluation.
std::int64_t endedSearch(const std::filesystem::path& path, std::int64_t ownerPid = 0) {
    auto db = store::Database::open(path);
    store::SearchStore ss(*db);
    auto record = test::searchRecord("saxpy", ownerPid ? "running" : "finished");
    if (ownerPid) record.ownerPid = ownerPid;
    const auto id = ss.createSearch(record).value();
    (void)ss.putSource("src", "void k() {}");
    eval::EvaluationResult ok;
    ok.status = eval::EvalStatus::Ok;
    ok.speedup = 1.5;
    const auto evaluation = store::EvaluationStore(*db).insert(test::evaluationRecord("k" + std::to_string(id), ok)).value();
    auto first = test::doneNode(id, 1);
    first.evaluationId = evaluation;
    const auto node = ss.insertNode(first).value();
    auto second = test::doneNode(id, 2);
    second.parentId = node;
    second.paramsJson = R"({"VEC":"8"})";
    (void)ss.insertNode(second);
    (void)ss.postCommand(id, "pause", "{}", "cli");
    store::LlmCallRecord call;
    call.searchId = id;
    call.nodeId = node;
    call.provider = "openai";
    call.model = "m";
    call.status = "ok";
    (void)store::LlmCallStore(*db).insert(call);
    return id;
}

} // namespace

class TestSearchNotes : public QObject {
    Q_OBJECT
  private slots:
    void keepsNameNotesTagsAndArchive() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString()) / "ws.db";
        const auto id = endedSearch(path);
        search::NotesChange change;
        change.label = "unroll sweep";
        change.notes = "first try\nVEC=8 looked best";
        change.addTags = {"VEC=8", "sweep:v2", "VEC=8"};
        auto stored = search::changeNotes(path, id, change);
        QVERIFY2(stored.ok(), stored.ok() ? "" : stored.error().message.c_str());
        QCOMPARE(stored->label, std::string("unroll sweep"));
        QCOMPARE(stored->tags, (std::vector<std::string>{"VEC=8", "sweep:v2"})); // a tag given twice is kept once

        // The search's process writes its own columns; the notes stay.
        {
            auto db = store::Database::open(path);
            auto record = store::SearchStore(*db).loadSearch(id).value();
            record.label = "the process never writes this";
            record.evaluations = 7;
            QVERIFY(store::SearchStore(*db).updateSearch(record).ok());
        }
        search::NotesChange untag;
        untag.removeTags = {"sweep:v2", "never-there"};
        untag.archived = true;
        stored = search::changeNotes(path, id, untag);
        QVERIFY(stored.ok());
        QCOMPARE(stored->label, std::string("unroll sweep"));
        QCOMPARE(stored->evaluations, std::int64_t(7));
        QCOMPARE(stored->tags, (std::vector<std::string>{"VEC=8"}));
        QVERIFY(stored->archived);
        QCOMPARE(stored->notes, std::string("first try\nVEC=8 looked best"));
    }

    void refusesWholeChangesAndSaysWhatToFix() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString()) / "ws.db";
        const auto id = endedSearch(path);
        const auto refusal = [&](search::NotesChange change) {
            auto r = search::changeNotes(path, id, change);
            return r.ok() ? std::string() : r.error().message;
        };
        search::NotesChange spaced;
        spaced.label = "kept?";
        spaced.addTags = {"fine", "two words"};
        QVERIFY(refusal(spaced).find("' ': a tag is letters, digits") != std::string::npos);
        search::NotesChange comma;
        comma.addTags = {"a,b"};
        QVERIFY(refusal(comma).find("no spaces or commas") != std::string::npos);
        search::NotesChange lines;
        lines.label = "two\nlines";
        QVERIFY(refusal(lines).find("one line") != std::string::npos);
        search::NotesChange many;
        for (int i = 0; i < 17; ++i) many.addTags.push_back("t" + std::to_string(i));
        QVERIFY(refusal(many).find("at most 16 tags") != std::string::npos);
        search::NotesChange missing;
        missing.label = "x";
        auto none = search::changeNotes(path, id + 100, missing);
        QVERIFY(!none.ok() && none.error().message.find("no search") != std::string::npos);

        auto db = store::Database::open(path);
        const auto after = store::SearchStore(*db).loadSearch(id).value();
        QVERIFY(after.label.empty()); // the refused changes left nothing behind, their valid parts included
        QVERIFY(after.tags.empty());
    }

    // Two processes add eight tags each at once: each one's read-modify-write
    // is one transaction, so all sixteen are kept.
    void twoProcessesTaggingKeepEveryTag() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString()) / "ws.db";
        const auto id = endedSearch(path);
        pid_t children[2];
        for (int c = 0; c < 2; ++c) {
            children[c] = fork();
            if (children[c] == 0) {
                int failures = 0;
                for (int i = 0; i < 8; ++i) {
                    search::NotesChange change;
                    change.addTags = {"p" + std::to_string(c) + "-" + std::to_string(i)};
                    if (!search::changeNotes(path, id, change).ok()) ++failures;
                }
                _exit(failures);
            }
        }
        for (pid_t child : children) {
            int status = 0;
            QCOMPARE(waitpid(child, &status, 0), child);
            QVERIFY(WIFEXITED(status));
            QCOMPARE(WEXITSTATUS(status), 0);
        }
        auto db = store::Database::open(path);
        QCOMPARE(store::SearchStore(*db).loadSearch(id)->tags.size(), std::size_t(16));
    }

    void deletesAnEndedSearchAndKeepsTheCache() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString()) / "ws.db";
        const auto gone = endedSearch(path), kept = endedSearch(path);
        auto deleted = search::deleteSearch(path, gone);
        QVERIFY2(deleted.ok(), deleted.ok() ? "" : deleted.error().message.c_str());
        QCOMPARE(deleted->nodes, std::int64_t(2));
        QCOMPARE(deleted->commands, std::int64_t(1));
        QCOMPARE(deleted->llmCalls, std::int64_t(1));
        QVERIFY(deleted->events >= 3); // created, two nodes added
        auto db = store::Database::open(path);
        store::SearchStore ss(*db);
        QVERIFY(!ss.loadSearch(gone).ok());
        QVERIFY(ss.loadSearch(kept).ok());
        QCOMPARE(ss.loadNodes(kept)->size(), std::size_t(2));
        QCOMPARE(countRows(*db, "SELECT COUNT(*) FROM nodes WHERE search_id = " + std::to_string(gone)), std::int64_t(0));
        QCOMPARE(countRows(*db, "SELECT COUNT(*) FROM evaluations"), std::int64_t(2)); // the cache keeps both
        QVERIFY(!search::deleteSearch(path, gone).ok());                               // once only
    }

    // A search whose process is alive (this one, or another) is refused with
    // what to do; one whose process died (interrupted) can go.
    void refusesToDeleteALiveSearch() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString()) / "ws.db";
        const pid_t sleeper = fork();
        if (sleeper == 0) {
            pause();
            _exit(0);
        }
        const auto elsewhere = endedSearch(path, sleeper), here = endedSearch(path, getpid());
        for (const auto id : {elsewhere, here}) {
            auto refused = search::deleteSearch(path, id);
            QVERIFY(!refused.ok());
            QVERIFY2(refused.error().message.find("stop it first (`search stop " + std::to_string(id) + "`") != std::string::npos,
                     refused.error().message.c_str());
        }
        kill(sleeper, SIGKILL);
        waitpid(sleeper, nullptr, 0);
        QVERIFY(search::deleteSearch(path, elsewhere).ok()); // interrupted now: its process is gone
        auto db = store::Database::open(path);
        QCOMPARE(store::SearchStore(*db).loadNodes(here)->size(), std::size_t(2));
    }

    // Best so far in the order results came; failures, untimed and flagged
    // kernels count as evaluations but never raise the best.
    void progressCurveFollowsResultsInOrder() {
        store::SearchRecord s = test::searchRecord("saxpy", "finished");
        s.id = 3;
        std::vector<store::NodeRecord> nodes;
        const auto node = [&](int seq, const char* finished, const char* status, std::optional<double> speedup,
                              bool flagged = false) {
            auto n = test::doneNode(3, seq);
            n.finishedAt = finished;
            n.status = status;
            n.speedup = speedup;
            n.flagged = flagged;
            nodes.push_back(n);
        };
        node(4, "2026-11-29T10:00:04.000Z", "ok", 1.8);
        node(1, "2026-11-29T10:00:01.000Z", "wrong_answer", std::nullopt);
        node(2, "2026-11-29T10:00:02.000Z", "ok", 0.9);
        node(3, "2026-11-29T10:00:03.000Z", "ok", 9.0, true);
        node(5, "", "ok", std::nullopt); // still running: not an evaluation yet
        node(6, "2026-11-29T10:00:05.000Z", "ok", 1.2);
        const auto curve = inspect::progressCurve(s, nodes);
        QCOMPARE(curve.name, std::string("search 3 · saxpy"));
        QCOMPARE(curve.evals, (std::vector<int>{1, 2, 3, 4, 5}));
        QCOMPARE(curve.best, (std::vector<double>{0, 0.9, 0.9, 1.8, 1.8}));
        s.label = "named";
        QCOMPARE(inspect::progressCurve(s, nodes).name, std::string("named"));
    }
};

QTEST_GUILESS_MAIN(TestSearchNotes)
#include "tst_search_notes.moc"
