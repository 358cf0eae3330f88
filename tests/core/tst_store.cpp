#include "inspect/workspace_reader.h"
#include "store/database.h"
#include "store/evaluation_store.h"
#include "store/llm_call_store.h"
#include "store/profile_store.h"
#include "store/search_store.h"
#include "store_records.h"

#include <QtTest/QtTest>

#include <atomic>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>

using namespace kw::store;

namespace {
EvaluationRecord record(const std::string& key, const std::string& status) {
    EvaluationRecord r;
    r.cacheKey = key;
    r.problem = "saxpy";
    r.problemHash = "p";
    r.candidateHash = "c";
    r.paramsJson = "{}";
    r.status = status;
    r.speedup = status == "ok" ? std::optional<double>(2.5) : std::nullopt;
    r.resultJson = "{\"status\":\"" + status + "\"}";
    return r;
}
SearchRecord runningSearch(const std::string& problem) {
    return kw::test::searchRecord(problem, "running");
}
} // namespace

class TestStore : public QObject {
    Q_OBJECT
  private slots:
    void createsMigratesAndUsesWal() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString()) / "sub" / "ws.db";
        auto db = Database::open(path);
        QVERIFY2(db.ok(), db.ok() ? "" : db.error().message.c_str());
        QCOMPARE(db->schemaVersion(), Database::newestSchemaVersion());
        auto mode = db->prepare("PRAGMA journal_mode");
        QVERIFY(mode.ok());
        QVERIFY(*mode->step());
        QCOMPARE(mode->text(0), std::string("wal"));
        // Reopening is a no-op migration.
        auto again = Database::open(path);
        QVERIFY(again.ok());
        QCOMPARE(again->schemaVersion(), Database::newestSchemaVersion());
    }
    // The last connection to close keeps the write-ahead log and its index
    // (another process may read through them without a lock it could see),
    // and a connection whose files were removed under it notices; opened again, it reads them.
    void keepsTheLogAndNoticesWhenItIsRemoved() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString()) / "ws.db";
        const auto wal = path.string() + "-wal", shm = path.string() + "-shm";
        {
            auto db = Database::open(path);
            QVERIFY(db.ok());
            QVERIFY(EvaluationStore(*db).insert(record("k1", "ok")).ok());
        }
        QVERIFY(std::filesystem::exists(wal) && std::filesystem::exists(shm));

        auto reader = Database::open(path, Database::Mode::ReadOnly);
        QVERIFY(reader.ok());
        QVERIFY(!reader->walReplaced());
        // What a process outside the workspace's locking does: checkpoint, then remove both.
        {
            auto writer = Database::open(path);
            QVERIFY(writer.ok());
            QVERIFY(writer->exec("PRAGMA wal_checkpoint(TRUNCATE)").ok());
        }
        std::filesystem::remove(wal);
        std::filesystem::remove(shm);
        QVERIFY(reader->walReplaced());
        {
            auto writer = Database::open(path); // a new log and index
            QVERIFY(writer.ok());
            QVERIFY(EvaluationStore(*writer).insert(record("k2", "ok")).ok());
        }
        QVERIFY(reader->walReplaced());
        // Closed first (one process's connections share one mapping of the index), then opened again.
        { auto stale = std::move(*reader); }
        auto fresh = Database::open(path, Database::Mode::ReadOnly);
        QVERIFY(fresh.ok());
        QVERIFY(!fresh->walReplaced());
        auto count = fresh->prepare("SELECT count(*) FROM evaluations");
        QVERIFY(count.ok() && *count->step());
        QCOMPARE(count->int64(0), std::int64_t(2)); // both rows, the second written through the new log
    }
    void cachesResultsButNotInfraErrors() {
        QTemporaryDir dir;
        auto db = Database::open(std::filesystem::path(dir.path().toStdString()) / "ws.db");
        QVERIFY(db.ok());
        EvaluationStore store(*db);
        QVERIFY(store.insert(record("k1", "infra_error")).ok());
        auto miss = store.findCached("k1");
        QVERIFY(miss.ok());
        QVERIFY(!miss->has_value());
        auto id = store.insert(record("k1", "ok"));
        QVERIFY(id.ok());
        auto hit = store.findCached("k1");
        QVERIFY(hit.ok() && hit->has_value());
        QCOMPARE((*hit)->id, *id);
        QCOMPARE(*(*hit)->speedup, 2.5);
        QCOMPARE(store.recent(10)->size(), std::size_t{2});
        // Every evaluation also appends an event for followers.
        auto events = db->prepare("SELECT count(*) FROM events WHERE kind = 'evaluation'");
        QVERIFY(events.ok() && *events->step());
        QCOMPARE(events->int64(0), std::int64_t{2});
    }
    void refusesGarbageAndNewerSchemas() {
        QTemporaryDir dir;
        const auto garbage = std::filesystem::path(dir.path().toStdString()) / "garbage.db";
        std::ofstream(garbage) << "this is not a database, just text that is long enough to be read as a header......";
        auto bad = Database::open(garbage);
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().message.find("garbage.db") != std::string::npos, bad.error().message.c_str());

        const auto newer = std::filesystem::path(dir.path().toStdString()) / "newer.db";
        {
            auto db = Database::open(newer);
            QVERIFY(db.ok());
            QVERIFY(db->exec("PRAGMA user_version=999").ok());
        }
        auto refused = Database::open(newer);
        QVERIFY(!refused.ok());
        QVERIFY(refused.error().message.find("newer Kernelwright") != std::string::npos);
        QVERIFY(!Database::open(std::filesystem::path(dir.path().toStdString()) / "absent.db", Database::Mode::ReadOnly).ok());
    }
    void failedTransactionsLeaveNothing() {
        QTemporaryDir dir;
        auto db = Database::open(std::filesystem::path(dir.path().toStdString()) / "ws.db");
        QVERIFY(db.ok());
        auto status = db->transaction([&]() -> kw::Status {
            if (auto s = db->exec("INSERT INTO events (kind, payload) VALUES ('x', '{}')"); !s) return s;
            return db->exec("INSERT INTO no_such_table VALUES (1)");
        });
        QVERIFY(!status.ok());
        auto count = db->prepare("SELECT count(*) FROM events");
        QVERIFY(count.ok() && *count->step());
        QCOMPARE(count->int64(0), std::int64_t{0});
    }
    // bench's GPU lanes and the suite runner's workers share one connection:
    // their transactions take turns, and each insert's id is its own.
    void threadsSharingAConnectionTakeTurns() {
        QTemporaryDir dir;
        auto db = Database::open(std::filesystem::path(dir.path().toStdString()) / "ws.db");
        QVERIFY(db.ok());
        const auto searchId = SearchStore(*db).createSearch(runningSearch("saxpy")).value();
        constexpr int kThreads = 4, kEach = 150;
        std::atomic<int> failures{0};
        std::string firstFailure;
        std::mutex failureMutex;
        std::vector<std::vector<std::int64_t>> ids(kThreads);
        {
            std::vector<std::jthread> threads;
            for (int t = 0; t < kThreads; ++t)
                threads.emplace_back([&, t] {
                    EvaluationStore evaluations(*db);
                    SearchStore searches(*db);
                    for (int i = 0; i < kEach; ++i) {
                        auto id = evaluations.insert(record("t" + std::to_string(t) + "-" + std::to_string(i), "ok"));
                        auto command = searches.postCommand(searchId, "note", "{}");
                        if (id && command) {
                            ids[static_cast<std::size_t>(t)].push_back(*id);
                            continue;
                        }
                        ++failures;
                        std::lock_guard lock(failureMutex);
                        if (firstFailure.empty()) firstFailure = !id ? id.error().message : command.error().message;
                    }
                });
        }
        QVERIFY2(failures == 0, (std::to_string(failures.load()) + " writes failed, first: " + firstFailure).c_str());
        // Every insert got its own row back: a shared last-insert id would repeat or skip.
        std::set<std::int64_t> distinct;
        for (const auto& mine : ids) distinct.insert(mine.begin(), mine.end());
        QCOMPARE(distinct.size(), std::size_t{kThreads * kEach});
        auto rows = db->prepare("SELECT count(*) FROM evaluations");
        QVERIFY(rows.ok() && *rows->step());
        QCOMPARE(rows->int64(0), std::int64_t{kThreads * kEach});
    }
    // A store method that opens its own transaction, called inside another,
    // joins it: both commit together, or a later failure rolls both back.
    void nestedTransactionsJoinTheOuterOne() {
        QTemporaryDir dir;
        auto db = Database::open(std::filesystem::path(dir.path().toStdString()) / "ws.db");
        QVERIFY(db.ok());
        const auto searchId = SearchStore(*db).createSearch(runningSearch("saxpy")).value();
        SearchStore searches(*db);
        const auto commands = [&] {
            auto count = db->prepare("SELECT count(*) FROM commands");
            return count && *count->step() ? count->int64(0) : -1;
        };
        auto kept = db->transaction([&]() -> kw::Status {
            auto id = searches.postCommand(searchId, "note", "{}");
            return id ? kw::Status{} : kw::Status(id.error());
        });
        QVERIFY2(kept.ok(), kept.ok() ? "" : kept.error().message.c_str());
        QCOMPARE(commands(), std::int64_t{1});
        auto undone = db->transaction([&]() -> kw::Status {
            if (auto id = searches.postCommand(searchId, "note", "{}"); !id) return id.error();
            return db->exec("INSERT INTO no_such_table VALUES (1)");
        });
        QVERIFY(!undone.ok());
        QCOMPARE(commands(), std::int64_t{1});                      // the inner insert went with the outer rollback
        QVERIFY(searches.postCommand(searchId, "note", "{}").ok()); // and the connection is usable after
        QCOMPARE(commands(), std::int64_t{2});
    }
    // The steering timeline: every command, who posted it, when it was
    // applied and how; nodes by their number in the search (#N).
    void steeringTimelineKeepsWhoWhatAndWhen() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString()) / "ws.db";
        std::int64_t searchId = 0;
        {
            auto db = Database::open(path);
            QVERIFY(db.ok());
            SearchStore ss(*db);
            searchId = ss.createSearch(runningSearch("saxpy")).value();
            QVERIFY(ss.putSource("a", "void k() {}").ok());
            auto n = kw::test::doneNode(searchId, 7);
            n.sourceHash = "a";
            const auto node = ss.insertNode(n).value();
            const auto pause = ss.postCommand(searchId, "pause", "{}", "cli").value();
            QVERIFY(ss.postCommand(searchId, "budget", R"({"max_evaluations": 64})", "workbench").ok());
            QVERIFY(ss.postCommand(searchId, "prune", R"({"node": )" + std::to_string(node) + "}", "workbench").ok());
            QVERIFY(ss.postCommand(searchId, "hint", R"({"node": )" + std::to_string(node) + R"(, "text": "try VEC=8"})").ok());
            QVERIFY(ss.markCommand(pause, "paused").ok());
        }
        auto reader = kw::inspect::WorkspaceReader::open(path);
        QVERIFY(reader.ok());
        const auto timeline = reader->steeringTimeline(searchId);
        QVERIFY2(timeline.ok(), timeline.ok() ? "" : timeline.error().message.c_str());
        QCOMPARE(timeline->size(), std::size_t{4});
        const auto& t = *timeline;
        QCOMPARE(t[0].verb, std::string("pause"));
        QCOMPARE(t[0].origin, std::string("cli"));
        QCOMPARE(t[0].outcome, std::string("paused"));
        QVERIFY(!t[0].appliedAt.empty() && !t[0].postedAt.empty());
        QCOMPARE(t[1].origin, std::string("workbench"));
        QCOMPARE(t[1].detail, std::string("to 64 evaluations"));
        QVERIFY(t[1].appliedAt.empty());      // pending
        QCOMPARE(t[2].node, std::int64_t{7}); // the node's number, not its workspace id
        QCOMPARE(t[3].origin, std::string()); // not recorded
        QCOMPARE(t[3].detail, std::string("\"try VEC=8\""));
    }

    // A node carries its speedup's 95 % interval from its result: its shapes'
    // combined as the speedup is (geometric means of the lows and highs); none
    // where a shape has none, the node has no evaluation, or the result is not JSON.
    void nodesCarryTheirSpeedupInterval() {
        QTemporaryDir dir;
        auto db = Database::open(std::filesystem::path(dir.path().toStdString()) / "ws.db");
        QVERIFY(db.ok());
        SearchStore ss(*db);
        EvaluationStore es(*db);
        const auto searchId = ss.createSearch(runningSearch("saxpy")).value();
        QVERIFY(ss.putSource("src", "void k() {}").ok());
        const auto evaluation = [&](std::vector<std::pair<double, double>> intervals, const std::string& key) {
            kw::eval::EvaluationResult r;
            r.status = kw::eval::EvalStatus::Ok;
            r.speedup = 2;
            for (const auto& i : intervals) {
                kw::eval::TimingCase t;
                t.shape = "s" + std::to_string(r.timing.size());
                t.speedup = 2;
                t.speedupInterval = i;
                r.timing.push_back(t);
            }
            return es.insert(kw::test::evaluationRecord(key, r)).value();
        };
        const std::int64_t evals[] = {evaluation({{1.0, 1.21}, {4.0, 4.84}}, "two"), evaluation({{1.5, 2.0}, {0, 0}}, "older"),
                                      0};
        auto broken = kw::test::evaluationRecord("broken", kw::eval::EvaluationResult{});
        broken.resultJson = "not json";
        const auto brokenId = es.insert(broken).value();
        int seq = 0;
        for (const auto e : {evals[0], evals[1], evals[2], brokenId}) {
            auto n = kw::test::doneNode(searchId, ++seq);
            n.evaluationId = e;
            n.paramsJson = "{\"N\": " + std::to_string(seq) + "}"; // one node a configuration
            const auto inserted = ss.insertNode(n);
            QVERIFY2(inserted.ok(), inserted.ok() ? "" : inserted.error().message.c_str());
            n.id = *inserted;
            QVERIFY(ss.finishNode(n, ss.loadSearch(searchId).value()).ok());
        }
        const auto nodes = ss.loadNodes(searchId);
        QVERIFY2(nodes.ok(), nodes.ok() ? "" : nodes.error().message.c_str());
        QCOMPARE(nodes->size(), std::size_t{4});
        const auto all = ss.speedupIntervals(searchId);
        QVERIFY2(all.ok(), all.ok() ? "" : all.error().message.c_str());
        QCOMPARE(all->size(), std::size_t{1}); // a shape without one, no evaluation, a result that is not JSON: none
        const auto& interval = all->at((*nodes)[0].id);
        QVERIFY(qAbs(interval.first - 2.0) < 1e-9);
        QVERIFY(qAbs(interval.second - 2.42) < 1e-9);
        // Asked for by node: the same, and only those asked for.
        const auto some = ss.speedupIntervals(searchId, {(*nodes)[0].id, (*nodes)[1].id});
        QVERIFY(some.ok());
        QVERIFY(*some == *all);
        QVERIFY(ss.speedupIntervals(searchId, {(*nodes)[1].id, (*nodes)[3].id})->empty());
    }

    // Nsight Compute's baseline for a node is the nearest ancestor that ran
    // ncu: searches profile with ncu every few nodes, so the parent often has
    // no metrics to compare with.
    void ncuBaselineIsTheNearestAncestorWithMetrics() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString()) / "ws.db";
        std::int64_t searchId = 0;
        std::vector<std::int64_t> ids; // a chain: #0 (ncu) -> #1 (roofline only) -> #2 (ncu) -> #3 (ncu)
        {
            auto db = Database::open(path);
            QVERIFY(db.ok());
            SearchStore ss(*db);
            auto created = ss.createSearch(runningSearch("gpu_softmax"));
            QVERIFY2(created.ok(), created.ok() ? "" : created.error().message.c_str());
            searchId = *created;
            QVERIFY(ss.putSource("a", "kernel").ok());
            for (int seq = 0; seq < 4; ++seq) {
                auto inserted = EvaluationStore(*db).insert(record("k" + std::to_string(seq), "ok"));
                QVERIFY2(inserted.ok(), inserted.ok() ? "" : inserted.error().message.c_str());
                const auto evaluationId = *inserted;
                NodeRecord n;
                n.searchId = searchId;
                n.parentId = ids.empty() ? 0 : ids.back();
                n.seq = seq;
                n.origin = seq ? "tuner" : "seed";
                n.sourceName = "k";
                n.sourceHash = "a";
                n.paramsJson = "{\"BLOCK\":\"" + std::to_string(64 << seq) + "\"}"; // one node per (source, params)
                n.state = "done";
                auto node = ss.insertNode(n);
                QVERIFY2(node.ok(), node.ok() ? "" : node.error().message.c_str());
                const auto id = *node;
                n.id = id;
                n.evaluationId = evaluationId;
                n.status = "ok";
                n.speedup = 1.0 + seq;
                QVERIFY(ss.finishNode(n, ss.loadSearch(searchId).value()).ok());
                ProfileRecord p;
                p.evaluationId = evaluationId;
                p.level = seq == 1 ? "roofline" : "ncu";
                p.reportJson = seq == 1 ? std::string(R"({"signals": []})")
                                        : R"({"ncu": [{"name": "k", "duration_ns": )" + std::to_string(1000 * (seq + 1)) + "}]}";
                QVERIFY(ProfileStore(*db).save(p).ok());
                ids.push_back(id);
            }
        }
        auto reader = kw::inspect::WorkspaceReader::open(path);
        QVERIFY(reader.ok());
        auto third = reader->nodeDetails(searchId, ids[3]); // its parent #2 ran ncu
        QVERIFY(third.ok() && third->ncuBaseline);
        QCOMPARE(third->ncuBaselineSeq, std::int64_t{2});
        QVERIFY(third->ncuBaselineIsParent);
        auto second = reader->nodeDetails(searchId, ids[2]); // its parent #1 did not: #0 did
        QVERIFY(second.ok() && second->ncuBaseline && second->parentProfile);
        QCOMPARE(second->ncuBaselineSeq, std::int64_t{0});
        QVERIFY(!second->ncuBaselineIsParent);
        QCOMPARE(second->ncuBaseline->ncuMetrics.front().second, 1.0); // #0's duration, 1000 ns
        auto root = reader->nodeDetails(searchId, ids[0]);
        QVERIFY(root.ok() && !root->ncuBaseline && root->ncuBaselineSeq == 0);
    }
    // The workbench's read API: one node's source, its parent's, its
    // evaluation, profile and LLM call with the documents it retrieved, as one
    // value; a node that is not there is an error that names it.
    void workspaceReaderReadsANodeWhole() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString()) / "ws.db";
        std::int64_t searchId = 0, root = 0, child = 0;
        {
            auto db = Database::open(path);
            QVERIFY(db.ok());
            SearchStore ss(*db);
            searchId = ss.createSearch(runningSearch("saxpy")).value();
            QVERIFY(ss.putSource("a", "void root() {}").ok() && ss.putSource("b", "void child() {}").ok());
            kw::eval::EvaluationResult r;
            r.status = kw::eval::EvalStatus::Ok;
            r.message = "correct on every check shape";
            r.speedup = 2.5;
            const auto evaluationId = EvaluationStore(*db).insert(kw::test::evaluationRecord("k", r, "b")).value();
            NodeRecord n;
            n.searchId = searchId;
            n.origin = "seed";
            n.sourceName = "k";
            n.sourceHash = "a";
            n.paramsJson = "{}";
            n.state = "done";
            root = ss.insertNode(n).value();
            n.parentId = root;
            n.seq = 1;
            n.origin = "llm";
            n.sourceHash = "b";
            child = ss.insertNode(n).value();
            n.id = child;
            n.evaluationId = evaluationId;
            n.status = "ok";
            n.speedup = 2.5;
            QVERIFY(ss.finishNode(n, ss.loadSearch(searchId).value()).ok());
            auto withBest = ss.loadSearch(searchId).value(); // as the engine records its best
            withBest.bestNode = child;
            withBest.bestSpeedup = 2.5;
            QVERIFY(ss.updateSearch(withBest).ok());
            ProfileRecord p;
            p.evaluationId = evaluationId;
            p.level = "roofline";
            p.reportJson =
                R"json({"roofline": {"total": {"gbs": 12.5, "gflops": 3.0, "roofline_fraction": 0.4, "intensity": 0.25},
                                            "roofs": {"bandwidth_gbs": 20.0, "peak_gflops": 276.0, "cores": 1, "device": "cpu"}},
                               "ncu": [{"name": "tiny(float*)", "duration_ns": 2000, "dram_pct": 5},
                                       {"name": "main(float*, int)", "duration_ns": 90000, "dram_pct": 81.5,
                                        "registers_per_thread": 32, "stalls": [{"reason": "long_scoreboard", "per_issue": 12.5}]}],
                               "breakdown": {"source": "torch.profiler", "shape": "prod", "launches": 3, "device_us": 160.5,
                                             "kernels": [{"name": "main", "kind": "kernel", "calls": 1, "us": 150.0},
                                                         {"name": "Memset (Device)", "kind": "memset", "calls": 2, "us": 10.5}]},
                               "signals": [{"signal": "memory_bound", "evidence": "0.25 flop/B"}]})json";
            QVERIFY(ProfileStore(*db).save(p).ok());
            LlmCallStore calls(*db);
            LlmCallRecord c;
            c.searchId = searchId;
            c.provider = "openai";
            c.modelName = "m";
            c.model = "m";
            c.prompt = "make it faster";
            c.reply = "here";
            c.status = "ok";
            const auto callId = calls.insert(c).value();
            QVERIFY(calls.attachNode(callId, child).ok());
            QVERIFY(calls.recordRetrieval(callId, child, "cpu/avx2", "loads", 0.9, "matched").ok());
        }
        auto reader = kw::inspect::WorkspaceReader::open(path);
        QVERIFY(reader.ok());
        auto d = reader->nodeDetails(searchId, child);
        QVERIFY2(d.ok(), d.ok() ? "" : d.error().message.c_str());
        QCOMPARE(d->source, std::string("void child() {}"));
        QCOMPARE(d->parentSource, std::string("void root() {}"));
        QCOMPARE(d->parentId, root);
        QVERIFY2(d->evaluation, d->evaluationError.c_str());
        QCOMPARE(d->evaluation->message, std::string("correct on every check shape"));
        QVERIFY(d->profile && d->profile->hasRoofline);
        QCOMPARE(d->profile->gbs, 12.5);
        QCOMPARE(d->profile->roofBandwidthGBs, 20.0); // the roofs it was measured against, for the chart
        QCOMPARE(d->profile->roofGflops, 276.0);
        QCOMPARE(d->profile->device, std::string("cpu"));
        QCOMPARE(d->profile->ncuKernel, std::string("main")); // the longest kernel, its metrics in order
        QVERIFY(d->profile->ncuMetrics.size() >= 4);
        QCOMPARE(d->profile->ncuMetrics[0].first, std::string("duration (us)"));
        QCOMPARE(d->profile->ncuMetrics[0].second, 90.0);
        QCOMPARE(d->profile->ncuMetrics[1].second, 81.5);
        QCOMPARE(d->profile->ncuMetrics.back().first, std::string("top stall: long_scoreboard (per issue)"));
        QVERIFY(d->profile->breakdown); // the per-kernel breakdown, longest first
        QCOMPARE(d->profile->breakdown->launches, 3);
        QCOMPARE(d->profile->breakdown->entries.size(), std::size_t(2));
        QCOMPARE(d->profile->breakdown->entries[1].kind, std::string("memset"));
        QCOMPARE(d->profile->breakdown->entries[1].calls, 2);
        QVERIFY(!d->parentProfile);                                      // the root was never evaluated
        QCOMPARE(reader->search(searchId)->bestNode.value_or(0), child); // the search's best is the node itself:
        QVERIFY(!d->bestProfile);                                        // no second point for it
        QCOMPARE(d->profile->findings.size(), std::size_t(1));
        QCOMPARE(d->profile->findings[0].first, std::string("memory_bound"));
        QVERIFY(d->llmCall && d->llmCall->prompt == "make it faster");
        QCOMPARE(d->retrievedDocs.size(), std::size_t(1));
        auto rootDetails = reader->nodeDetails(searchId, root);
        QVERIFY(rootDetails.ok() && rootDetails->parentSource.empty() && !rootDetails->evaluation && !rootDetails->llmCall);
        auto missing = reader->nodeDetails(searchId, child + 100);
        QVERIFY(!missing.ok());
        QVERIFY2(missing.error().message.find(std::to_string(child + 100)) != std::string::npos, missing.error().message.c_str());
        QVERIFY(!kw::inspect::WorkspaceReader::open(path.parent_path() / "absent.db").ok());
    }
};

QTEST_APPLESS_MAIN(TestStore)
#include "tst_store.moc"
