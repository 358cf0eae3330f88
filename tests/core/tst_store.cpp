#include "store/database.h"
#include "store/evaluation_store.h"

#include <QtTest/QtTest>

#include <fstream>

using namespace ks::store;

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
        QVERIFY(refused.error().message.find("newer Kernelsmith") != std::string::npos);
        QVERIFY(!Database::open(std::filesystem::path(dir.path().toStdString()) / "absent.db", Database::Mode::ReadOnly).ok());
    }
    void failedTransactionsLeaveNothing() {
        QTemporaryDir dir;
        auto db = Database::open(std::filesystem::path(dir.path().toStdString()) / "ws.db");
        QVERIFY(db.ok());
        auto status = db->transaction([&]() -> ks::Status {
            if (auto s = db->exec("INSERT INTO events (kind, payload) VALUES ('x', '{}')"); !s) return s;
            return db->exec("INSERT INTO no_such_table VALUES (1)");
        });
        QVERIFY(!status.ok());
        auto count = db->prepare("SELECT count(*) FROM events");
        QVERIFY(count.ok() && *count->step());
        QCOMPARE(count->int64(0), std::int64_t{0});
    }
};

QTEST_APPLESS_MAIN(TestStore)
#include "tst_store.moc"
