// Trajectory records against the schema of docs/export-format.md, built from a
// small hand-made workspace (so every case is known): field names and types,
// chat messages in the order a fine-tuning job expects, rewards, filters,
// unevaluated and node-less calls left out; and the secret scrubber's nets.
#include "report/secret_scrubber.h"
#include "report/trajectory_export.h"
#include "store/database.h"
#include "store/llm_call_store.h"
#include "store/search_store.h"
#include "store_records.h"

#include <QtTest/QtTest>

#include <sstream>

using namespace kw;
using nlohmann::json;

namespace {

const char* kSystem = "You write fast kernels. Reply with exactly one fenced code block.";

struct Workspace {
    QTemporaryDir dir;
    std::optional<store::Database> db;
    std::int64_t search = 0;
};

std::int64_t addNode(const store::SearchStore& s, const store::SearchRecord& search, std::int64_t parent,
                     const std::string& origin, std::optional<std::string> status, std::optional<double> speedup,
                     const std::string& params) {
    store::NodeRecord n;
    n.searchId = search.id;
    n.parentId = parent;
    n.origin = origin;
    n.sourceName = origin == "seed" ? "plain" : "llm";
    // A node is a source and its params: each of these has its own source.
    auto existing = s.loadNodes(search.id);
    n.sourceHash = "h" + std::to_string(existing ? existing->size() : 0);
    if (!s.putSource(n.sourceHash, "void saxpy() { /* " + n.sourceHash + " */ }")) return 0;
    n.paramsJson = params;
    n.state = status ? "done" : "pending";
    auto id = s.insertNode(n);
    if (!id) {
        qWarning("insertNode: %s", id.error().message.c_str());
        return 0;
    }
    n.id = *id;
    if (status) {
        n.status = status;
        n.speedup = speedup;
        n.message = *status == "ok" ? "correct on 6 cases" : "output y: 12 of 4096 elements differ (max abs error 0.5)";
        if (auto st = s.finishNode(n, search); !st) {
            qWarning("finishNode: %s", st.error().message.c_str());
            return 0;
        }
    }
    return n.id;
}

void addCall(const store::Database& db, std::int64_t search, std::int64_t parent, std::int64_t node, const std::string& reply,
             const std::string& system = kSystem) {
    store::LlmCallRecord c;
    c.searchId = search;
    c.parentNodeId = parent;
    c.nodeId = node;
    c.provider = "openai";
    c.modelName = "scripted";
    c.model = "scripted-model";
    c.systemPrompt = system;
    c.prompt = "## Problem\nvoid saxpy(...)\n## Your task\nmake node " + std::to_string(parent) + " faster";
    c.reply = reply;
    c.reasoning = "unroll";
    c.inputTokens = 1000;
    c.outputTokens = 200;
    c.costUsd = 0.0014;
    c.status = node ? "ok" : "error";
    QVERIFY(store::LlmCallStore(db).insert(c).ok());
}

// seed 1 (no call) -> llm 2 ok 2.0x, llm 3 wrong answer, llm 4 ok 1.2x (no system
// prompt), llm 5 still pending; plus a call that made no node.
void fill(Workspace& w) {
    QVERIFY(w.dir.isValid());
    auto db = store::Database::open(w.dir.path().toStdString() + "/ws.db");
    QVERIFY(db.ok());
    w.db.emplace(std::move(*db));
    store::SearchStore s(*w.db);
    auto search = test::searchRecord("saxpy", "finished", "/problems/saxpy");
    auto id = s.createSearch(search);
    QVERIFY(id.ok());
    search.id = w.search = *id;
    const auto seed = addNode(s, search, 0, "seed", "ok", 1.0, "{}");
    const auto fast = addNode(s, search, seed, "llm", "ok", 2.0, "{\"UNROLL\":\"4\"}");
    const auto wrong = addNode(s, search, seed, "llm", "wrong_answer", std::nullopt, "{}");
    const auto slower = addNode(s, search, fast, "llm", "ok", 1.2, "{}");
    const auto pending = addNode(s, search, fast, "llm", std::nullopt, std::nullopt, "{}");
    QVERIFY(seed && fast && wrong && slower && pending);
    addCall(*w.db, w.search, seed, fast, "```cpp\nfast\n```");
    addCall(*w.db, w.search, seed, wrong, "```cpp\nwrong\n```");
    addCall(*w.db, w.search, fast, slower, "```cpp\nslower\n```", "");
    addCall(*w.db, w.search, fast, pending, "```cpp\npending\n```");
    addCall(*w.db, w.search, fast, 0, "");
}

std::vector<json> lines(const std::string& text) {
    std::vector<json> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(json::parse(line, nullptr, false));
    return out;
}

// The documented field -> JSON type table of a flat record.
const std::vector<std::pair<std::string, json::value_t>>& flatSchema() {
    using V = json::value_t;
    static const std::vector<std::pair<std::string, json::value_t>> schema{{"schema_version", V::number_unsigned},
                                                                           {"search_id", V::number_unsigned},
                                                                           {"problem", V::string},
                                                                           {"call_id", V::number_unsigned},
                                                                           {"node_id", V::number_unsigned},
                                                                           {"parent_node_id", V::number_unsigned},
                                                                           {"provider", V::string},
                                                                           {"model", V::string},
                                                                           {"system", V::string},
                                                                           {"prompt", V::string},
                                                                           {"reply", V::string},
                                                                           {"reasoning", V::string},
                                                                           {"status", V::string},
                                                                           {"correct", V::boolean},
                                                                           {"speedup", V::number_float},
                                                                           {"message", V::string},
                                                                           {"reward", V::number_float},
                                                                           {"params", V::object},
                                                                           {"input_tokens", V::number_unsigned},
                                                                           {"output_tokens", V::number_unsigned},
                                                                           {"cost_usd", V::number_float},
                                                                           {"created_at", V::string}};
    return schema;
}

bool sameKind(const json& v, json::value_t expected) {
    if (expected == json::value_t::number_unsigned) return v.is_number_integer();
    if (expected == json::value_t::number_float) return v.is_number();
    return v.type() == expected;
}

} // namespace

class TestTrajectoryExport : public QObject {
    Q_OBJECT
  private slots:
    void flatRecordsFollowTheSchema() {
        Workspace w;
        fill(w);
        auto out = report::exportTrajectories(*w.db, {w.search}, report::TrajectoryFormat::Jsonl, {}, report::SecretScrubber());
        QVERIFY(out.ok());
        QCOMPARE(out->records, std::size_t{3});
        QCOMPARE(out->unevaluated, std::size_t{1});
        const auto records = lines(out->text);
        QCOMPARE(records.size(), std::size_t{3});
        for (const auto& r : records) {
            QVERIFY(r.is_object());
            QCOMPARE(r.size(), flatSchema().size()); // nothing undocumented
            for (const auto& [field, type] : flatSchema()) {
                QVERIFY2(r.contains(field), field.c_str());
                const bool nullableSpeedup = field == "speedup" && !r["correct"].get<bool>() && r[field].is_null();
                QVERIFY2(nullableSpeedup || sameKind(r[field], type), (field + ": " + r[field].dump()).c_str());
            }
            QCOMPARE(r["correct"].get<bool>(), r["status"] == "ok");
            QCOMPARE(r["reward"].get<double>(), r["correct"].get<bool>() ? r["speedup"].get<double>() : 0.0);
        }
        QCOMPARE(records[0]["reward"].get<double>(), 2.0);
        QCOMPARE(records[0]["params"]["UNROLL"].get<std::string>(), std::string("4"));
        QCOMPARE(records[0]["system"].get<std::string>(), std::string(kSystem));
        QCOMPARE(records[1]["status"].get<std::string>(), std::string("wrong_answer"));
        QVERIFY(records[1]["speedup"].is_null());
        QCOMPARE(records[1]["reward"].get<double>(), 0.0);
        QVERIFY(records[1]["message"].get<std::string>().find("elements differ") != std::string::npos);
    }

    void chatRecordsAlternateUserAndAssistant() {
        Workspace w;
        fill(w);
        auto out =
            report::exportTrajectories(*w.db, {w.search}, report::TrajectoryFormat::OpenAiChat, {}, report::SecretScrubber());
        QVERIFY(out.ok());
        const auto records = lines(out->text);
        QCOMPARE(records.size(), std::size_t{3});
        for (const auto& r : records) {
            QCOMPARE(r.size(), std::size_t{2});
            const auto& m = r["messages"];
            QVERIFY(m.is_array() && m.size() >= 2);
            std::size_t i = 0;
            if (m[0]["role"] == "system") ++i;
            QVERIFY(m.size() - i == 2);
            QCOMPARE(m[i]["role"].get<std::string>(), std::string("user"));
            QCOMPARE(m[i + 1]["role"].get<std::string>(), std::string("assistant"));
            for (const auto& msg : m) {
                QCOMPARE(msg.size(), std::size_t{2});
                QVERIFY(msg["content"].is_string() && !msg["content"].get<std::string>().empty());
            }
            const auto& meta = r["metadata"];
            for (const char* field : {"search_id", "node_id", "status", "reward", "speedup", "message", "model", "params"})
                QVERIFY2(meta.contains(field), field);
            for (const char* moved : {"system", "prompt", "reply"}) QVERIFY(!meta.contains(moved));
        }
        QCOMPARE(records[0]["messages"].size(), std::size_t{3});
        QCOMPARE(records[2]["messages"].size(), std::size_t{2}); // no system prompt: none sent, none exported
        QCOMPARE(records[0]["messages"][2]["content"].get<std::string>(), std::string("```cpp\nfast\n```"));
    }

    void filtersKeepCorrectAndFastEnough() {
        Workspace w;
        fill(w);
        report::TrajectoryFilter correct;
        correct.correctOnly = true;
        auto c =
            report::exportTrajectories(*w.db, {w.search}, report::TrajectoryFormat::Jsonl, correct, report::SecretScrubber());
        QVERIFY(c.ok());
        QCOMPARE(c->records, std::size_t{2});
        QCOMPARE(c->filteredOut, std::size_t{1});
        for (const auto& r : lines(c->text)) QVERIFY(r["correct"].get<bool>());
        report::TrajectoryFilter fast;
        fast.minSpeedup = 1.5;
        auto f = report::exportTrajectories(*w.db, {w.search}, report::TrajectoryFormat::Jsonl, fast, report::SecretScrubber());
        QVERIFY(f.ok());
        QCOMPARE(f->records, std::size_t{1});
        QCOMPARE(lines(f->text)[0]["speedup"].get<double>(), 2.0);
        // Two searches, one of them twice: records of each, in the order given.
        auto both = report::exportTrajectories(*w.db, {w.search, w.search}, report::TrajectoryFormat::Jsonl, correct,
                                               report::SecretScrubber());
        QVERIFY(both.ok());
        QCOMPARE(both->records, std::size_t{4});
        auto missing =
            report::exportTrajectories(*w.db, {w.search + 7}, report::TrajectoryFormat::Jsonl, {}, report::SecretScrubber());
        QVERIFY(!missing.ok());
    }

    void formatNames() {
        QVERIFY(report::parseTrajectoryFormat("openai-chat") == report::TrajectoryFormat::OpenAiChat);
        QVERIFY(report::parseTrajectoryFormat("jsonl") == report::TrajectoryFormat::Jsonl);
        QVERIFY(!report::parseTrajectoryFormat("csv"));
    }

    void scrubberRemovesKeysHeadersAndShapes() {
        report::SecretScrubber s;
        s.addSecret("plain-literal-secret-1234");
        s.addSecret("short"); // ignored: too short to be a key
        const std::string text = "a plain-literal-secret-1234 b\n"
                                 "Authorization: Bearer abcdefgh12345678\n"
                                 "authorization=Basic dXNlcjpwYXNzd29yZA==\n"
                                 "x-api-key: anthropic-ish-value-99\n"
                                 "{\"api_key\": \"from-a-json-file-1\"}\n"
                                 "export OPENAI_API_KEY=sk-proj-AAAAbbbbCCCCdddd1234\n"
                                 "token ghp_0123456789abcdefghijABCDEFGHIJ0123\n"
                                 "short stays; for (int i = 0; i < n; ++i) y[i] += a * x[i];";
        const auto out = s.scrub(text);
        for (const char* gone : {"plain-literal-secret-1234", "abcdefgh12345678", "dXNlcjpwYXNzd29yZA", "anthropic-ish-value-99",
                                 "from-a-json-file-1", "sk-proj-AAAAbbbbCCCCdddd1234", "ghp_0123456789"})
            QVERIFY2(out.find(gone) == std::string::npos, gone);
        // What is not a secret is left alone, and the reader still sees what was there.
        QVERIFY(out.find("Authorization: Bearer [redacted]") != std::string::npos);
        QVERIFY(out.find("x-api-key: [redacted]") != std::string::npos);
        QVERIFY(out.find("short stays; for (int i = 0; i < n; ++i) y[i] += a * x[i];") != std::string::npos);
        QCOMPARE(s.scrub("sk-short and api_key_env: OPENAI_API_KEY"), std::string("sk-short and api_key_env: OPENAI_API_KEY"));

        json doc{{"a", {{"b", "key plain-literal-secret-1234"}}}, {"list", json::array({"x-api-key: abcdefghijkl", 3})}};
        s.scrub(doc);
        QCOMPARE(doc["a"]["b"].get<std::string>(), std::string("key [redacted]"));
        QCOMPARE(doc["list"][0].get<std::string>(), std::string("x-api-key: [redacted]"));
        QCOMPARE(doc["list"][1].get<int>(), 3);
    }

    void scrubberLearnsKeysFromTheEnvironment() {
        qputenv("KW_TEST_EXPORT_API_KEY", "env-held-key-0123456789");
        const auto s = report::SecretScrubber::fromEnvironment("");
        qunsetenv("KW_TEST_EXPORT_API_KEY");
        QCOMPARE(s.scrub("echo env-held-key-0123456789"), std::string("echo [redacted]"));
    }

    void exportedRecordsAreScrubbed() {
        Workspace w;
        fill(w);
        store::LlmCallRecord c;
        c.searchId = w.search;
        c.parentNodeId = 1;
        c.nodeId = 2;
        c.provider = "anthropic";
        c.model = "m";
        c.prompt = "hint from the user: my key is other-provider-key-77";
        c.reply = "I sent x-api-key: other-provider-key-77 to check";
        c.status = "ok";
        QVERIFY(store::LlmCallStore(*w.db).insert(c).ok());
        report::SecretScrubber s;
        s.addSecret("other-provider-key-77");
        for (auto format : {report::TrajectoryFormat::Jsonl, report::TrajectoryFormat::OpenAiChat}) {
            auto out = report::exportTrajectories(*w.db, {w.search}, format, {}, s);
            QVERIFY(out.ok());
            QCOMPARE(out->records, std::size_t{4});
            QVERIFY(out->text.find("other-provider-key-77") == std::string::npos);
            QVERIFY(out->text.find("[redacted]") != std::string::npos);
        }
    }
};

QTEST_GUILESS_MAIN(TestTrajectoryExport)
#include "tst_trajectory_export.moc"
