// Whole searches through the CLI with the LLM synthesizer against the scripted
// server: the tree holds LLM nodes with their prompts, replies and reasoning;
// a reply without a kernel becomes a failed node; token budgets and a refused
// key end the search cleanly; hybrid mode polishes LLM children with the
// tuner; and the API key appears nowhere in the database, logs or exports.
#include "llm_server_fixture.h"
#include "saxpy_replies.h"
#include "store/database.h"
#include "store/llm_call_store.h"
#include "store/search_store.h"

#include <QtCore/QDir>
#include <QtCore/QProcess>
#include <QtTest/QtTest>

#include <sys/stat.h>

#include <fstream>
#include <iterator>

using namespace kw;
using nlohmann::json;

namespace {

const char* kKey = "sk-e2e-secret-key-9f8e7d6c5b4a";

std::string kernelReply(int variant, bool withParam) {
    return test::saxpyKernelReply(variant, withParam);
}

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

struct CliRun {
    int exitCode = -1;
    QString out, err;
};

CliRun cli(const QStringList& args) {
    QProcess p;
    p.start(test::cliPath(), args);
    p.waitForFinished(300000);
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

std::int64_t scalar(const store::Database& db, const std::string& sql) {
    auto stmt = db.prepare(sql);
    if (!stmt || !*stmt->step()) return -1;
    return stmt->int64(0);
}

} // namespace

class TestLlmSearch : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void searchRecordsLlmNodesAndNeverTheKey() {
        test::LlmServer server(json{
            {"replies",
             json::array({
                 {{"text", kernelReply(2, false)},
                  {"reasoning", "The loop is memory bound; unrolling helps issue."},
                  {"input_tokens", 1000},
                  {"output_tokens", 200}},
                 {{"text", "I would vectorize this, but I will not show code."}, {"input_tokens", 900}, {"output_tokens", 20}},
                 {{"text", kernelReply(4, false)},
                  {"reasoning", "More unrolling."},
                  {"input_tokens", 1100},
                  {"output_tokens", 210}},
             })},
            {"default", {{"text", kernelReply(8, false)}, {"input_tokens", 1000}, {"output_tokens", 200}}}});
        QVERIFY(server.ready());
        const auto cfg = writeConfig(server, "e2e");
        const QString db = QString::fromStdString(dir() + "/e2e.db");
        const auto run = cli({"-vv",
                              "--db",
                              db,
                              "search",
                              "start",
                              "--problem",
                              qs(test::problemDir("saxpy").string()),
                              "--synth",
                              "llm",
                              "--model",
                              "scripted",
                              "--budget",
                              "5",
                              "--workers",
                              "1",
                              "--llm-concurrency",
                              "1",
                              "--time-budget",
                              "0.05",
                              "--llm-config",
                              qs(cfg)});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QVERIFY2(run.out.contains("finished (budget): 5 evaluations"), qPrintable(run.out));

        auto ro = store::Database::open(db.toStdString(), store::Database::Mode::ReadOnly);
        QVERIFY2(ro.ok(), ro.ok() ? "" : ro.error().message.c_str());
        const auto calls = store::LlmCallStore(*ro).forSearch(1);
        QVERIFY(calls.ok());
        QCOMPARE(calls->size(), std::size_t{4}); // 1 seed + 4 LLM expansions, one of them without a kernel
        const auto& first = calls->front();
        QCOMPARE(first.status, std::string("ok"));
        QVERIFY(first.nodeId > 0);
        QCOMPARE(first.reasoning, std::string("The loop is memory bound; unrolling helps issue."));
        QVERIFY(first.prompt.find("## Problem") != std::string::npos);
        QVERIFY(first.prompt.find("void saxpy") != std::string::npos);
        QVERIFY(first.systemPrompt.find("exactly one fenced code block") != std::string::npos);
        QCOMPARE(first.inputTokens, std::int64_t{1000});
        QCOMPARE(first.costUsd, (1000 * 1.0 + 200 * 2.0) / 1e6);
        QCOMPARE(first.provider, std::string("openai"));
        // The knowledge base fed the prompt, and the call records which sections.
        QVERIFY(first.prompt.find("## Reference material") != std::string::npos);
        const auto retrieved = store::LlmCallStore(*ro).retrievedDocs(first.id);
        QVERIFY(retrieved.ok() && !retrieved->empty());
        // Each by its document's title and section, as the workbench lists them.
        for (const auto& r : *retrieved) QVERIFY2(!r.title.empty() && !r.section.empty(), r.docId.c_str());
        QCOMPARE(scalar(*ro, "SELECT count(*) FROM kb_retrievals WHERE node_id = " + std::to_string(first.nodeId)),
                 static_cast<std::int64_t>(retrieved->size()));
        // The reply without code: a recorded error and a failed node, not a crash.
        const auto& second = (*calls)[1];
        QCOMPARE(second.status, std::string("error"));
        QVERIFY(second.error.find("no code block") != std::string::npos);
        QVERIFY(second.nodeId > 0);
        QCOMPARE(scalar(*ro, "SELECT count(*) FROM nodes WHERE status = 'synth_error' AND id = " + std::to_string(second.nodeId)),
                 1LL);
        QCOMPARE(scalar(*ro, "SELECT count(*) FROM nodes WHERE origin = 'llm' AND status = 'ok'"), 3LL);
        // Later prompts carry what the tree learned: the failed sibling is in the context.
        QVERIFY((*calls)[2].prompt.find("synth_error") != std::string::npos);
        // Every request carried the key; nothing kept it.
        for (const auto& r : server.requests())
            QCOMPARE(r["headers"]["authorization"].get<std::string>(), std::string("Bearer ") + kKey);

        const auto exported = dir() + "/best.cpp";
        QCOMPARE(cli({"--db", db, "search", "export", "1", "--best", qs(exported)}).exitCode, 0);
        const auto shown = cli({"--db", db, "search", "calls", "1", "--full"});
        QCOMPARE(shown.exitCode, 0);
        QVERIFY(shown.out.contains("4 call(s)"));
        QVERIFY(shown.out.contains("The loop is memory bound"));
        const auto tree = cli({"--db", db, "search", "show", "1", "--all"});
        for (const auto& text : {readAll(db.toStdString()), readAll(db.toStdString() + "-wal"), readAll(exported),
                                 run.out.toStdString(), run.err.toStdString(), shown.out.toStdString(), tree.out.toStdString()})
            QVERIFY2(text.find(kKey) == std::string::npos, "the API key leaked");
        QVERIFY(run.err.contains("llm") || run.err.contains("search")); // -vv did log

        // Every correct node was profiled. Continued, the search expands evaluated
        // kernels: their prompts carry the evaluation and the diagnosis (a correct,
        // timed kernel is always bound by something), and retrieval used it.
        QVERIFY(scalar(*ro, "SELECT count(*) FROM profiles") >= 3);
        const auto more =
            cli({"--db", db, "search", "resume", "1", "--budget", "8", "--llm-config", qs(cfg), "--time-budget", "0.05"});
        QVERIFY2(more.exitCode == 0, qPrintable(more.out + more.err));
        auto after = store::Database::open(db.toStdString(), store::Database::Mode::ReadOnly);
        QVERIFY(after.ok());
        const auto allCalls = store::LlmCallStore(*after).forSearch(1);
        QVERIFY(allCalls.ok() && allCalls->size() > 4);
        bool diagnosed = false;
        for (std::size_t i = 4; i < allCalls->size(); ++i) {
            const auto& p = (*allCalls)[i].prompt;
            diagnosed = diagnosed || (p.find("## Diagnosis (from profiling this kernel)") != std::string::npos &&
                                      p.find("_bound: ") != std::string::npos);
        }
        QVERIFY2(diagnosed, allCalls->back().prompt.c_str());
    }

    void tokenBudgetEndsTheSearch() {
        test::LlmServer server(
            json{{"default", {{"text", kernelReply(2, false)}, {"input_tokens", 100}, {"output_tokens", 50}}}});
        QVERIFY(server.ready());
        const auto cfg = writeConfig(server, "budget");
        const QString db = QString::fromStdString(dir() + "/budget.db");
        const auto run = cli({"--db",
                              db,
                              "search",
                              "start",
                              "--problem",
                              qs(test::problemDir("saxpy").string()),
                              "--synth",
                              "llm",
                              "--model",
                              "scripted",
                              "--budget",
                              "20",
                              "--workers",
                              "1",
                              "--llm-concurrency",
                              "1",
                              "--max-tokens",
                              "250",
                              "--check-only",
                              "--llm-config",
                              qs(cfg)});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QVERIFY2(run.out.contains("(token_budget)"), qPrintable(run.out));
        auto ro = store::Database::open(db.toStdString(), store::Database::Mode::ReadOnly);
        QVERIFY2(ro.ok(), ro.ok() ? "" : ro.error().message.c_str());
        const auto spend = store::LlmCallStore(*ro).spend(1);
        QVERIFY(spend.ok());
        QCOMPARE(spend->calls, std::int64_t{2}); // 150 tokens, then 300 >= 250: no third call
    }

    void refusedKeyStopsAtOnce() {
        test::LlmServer server(json{{"default", {{"status", 401}, {"error_type", "invalid_api_key"}}}});
        QVERIFY(server.ready());
        const auto cfg = writeConfig(server, "refused");
        const QString db = QString::fromStdString(dir() + "/refused.db");
        const auto run = cli({"--db", db, "search", "start", "--problem", qs(test::problemDir("saxpy").string()), "--synth",
                              "llm", "--model", "scripted", "--budget", "10", "--workers", "1", "--llm-concurrency", "1",
                              "--check-only", "--llm-config", qs(cfg)});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QVERIFY2(run.out.contains("(llm_unauthorized)"), qPrintable(run.out));
        QVERIFY2(run.out.contains("check the API key"), qPrintable(run.out));
        QCOMPARE(server.requests().size(), std::size_t{1}); // no retry, no second call
        QVERIFY(run.out.toStdString().find(kKey) == std::string::npos);
    }

    void hybridPolishesLlmChildrenWithTheTuner() {
        // The first reply declares a param; later ones come slowly, so the LLM
        // child is evaluated (and polished) before they arrive.
        test::LlmServer server(
            json{{"replies", json::array({{{"text", kernelReply(0, true)}, {"input_tokens", 100}, {"output_tokens", 50}}})},
                 {"default", {{"text", kernelReply(3, false)}, {"delay_ms", 6000}}}});
        QVERIFY(server.ready());
        const auto cfg = writeConfig(server, "hybrid");
        const QString db = QString::fromStdString(dir() + "/hybrid.db");
        const auto run = cli({"--db",
                              db,
                              "search",
                              "start",
                              "--problem",
                              qs(test::problemDir("saxpy").string()),
                              "--synth",
                              "hybrid",
                              "--model",
                              "scripted",
                              "--budget",
                              "6",
                              "--workers",
                              "1",
                              "--llm-concurrency",
                              "1",
                              "--polish",
                              "2",
                              "--check-only",
                              "--llm-config",
                              qs(cfg)});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        auto ro = store::Database::open(db.toStdString(), store::Database::Mode::ReadOnly);
        QVERIFY2(ro.ok(), ro.ok() ? "" : ro.error().message.c_str());
        const auto llmNode = scalar(*ro, "SELECT min(id) FROM nodes WHERE origin = 'llm' AND status = 'ok'");
        QVERIFY(llmNode > 0);
        // The tuner's children of the LLM node: other UNROLL values of the same source.
        QVERIFY(scalar(*ro, "SELECT count(*) FROM nodes WHERE origin = 'mutation' AND parent_id = " + std::to_string(llmNode)) >=
                1);
    }

    void missingKeyIsRefusedBeforeTheSearchExists() {
        const QString db = QString::fromStdString(dir() + "/nokey.db");
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        env.remove("OPENAI_API_KEY");
        env.insert("XDG_CONFIG_HOME", QString::fromStdString(dir() + "/no-config"));
        p.setProcessEnvironment(env);
        p.start(test::cliPath(), {"--db", db, "search", "start", "--problem", qs(test::problemDir("saxpy").string()), "--synth",
                                  "llm", "--model", "openai:gpt-4o"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains("OPENAI_API_KEY"));
        QVERIFY(!QFile::exists(db) || cli({"--db", db, "search", "list"}).out.count('\n') <= 1);
    }

  private:
    std::string dir() const { return dir_.path().toStdString(); }
    static QString qs(const std::string& s) { return QString::fromStdString(s); }

    std::string writeConfig(const test::LlmServer& server, const std::string& name) const {
        const auto path = dir() + "/" + name + "-llm.json";
        json cfg{{"models", json::array({{{"name", "scripted"},
                                          {"provider", "openai"},
                                          {"base_url", server.baseUrl("/v1")},
                                          {"model", "scripted-model"},
                                          {"api_key", kKey},
                                          {"price_in_per_mtok", 1.0},
                                          {"price_out_per_mtok", 2.0},
                                          {"max_retries", 1},
                                          {"retry_base_s", 0.05}}})}};
        std::ofstream(path) << cfg.dump(2);
        chmod(path.c_str(), 0600);
        return path;
    }

    QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(TestLlmSearch)
#include "tst_llm_search.moc"
