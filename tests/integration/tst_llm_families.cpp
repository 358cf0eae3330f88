// Every model family against the strict test server (which refuses request
// bodies the way each real service does): `llm test` and a 6-evaluation LLM
// search succeed for every family, streamed and not; each refusal the
// services publish is reproduced with the old request shape (a llm.json
// "families" row forcing it) and avoided with the shipped one. Faults: a
// silent first byte within its own limit, mid-stream errors, quota, and a
// cost cap that counts failed attempts.
#include "llm_server_fixture.h"
#include "saxpy_replies.h"
#include "store/database.h"
#include "store/llm_call_store.h"
#include "synth/llm/http_client.h"
#include "synth/llm/llm_client.h"
#include "synth/llm/model_families.h"
#include "synth/llm/reply_parser.h"

#include <QtCore/QProcess>
#include <QtTest/QtTest>

#include <sys/stat.h>

#include <fstream>
#include <iterator>

using namespace kw;
using namespace kw::synth::llm;
using nlohmann::json;

namespace {

const char* kKey = "sk-families-secret-0a1b2c3d4e5f";

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

// One row of the matrix: a model entry for llm.json (the server's URL is
// filled in) and what its request must look like.
struct Family {
    const char* label;
    json entry;
    const char* route; // the path the request must take
};

std::vector<Family> families() {
    auto openai = [](const char* model, json extra = json::object()) {
        json e{{"provider", "openai"}, {"model", model}, {"server", "openai"}, {"api_key", kKey}};
        e.update(extra);
        return e;
    };
    auto anthropic = [](const char* model, json extra = json::object()) {
        json e{{"provider", "anthropic"}, {"model", model}, {"api_key", kKey}};
        e.update(extra);
        return e;
    };
    auto local = [](const char* server) {
        return json{{"provider", "openai"}, {"model", "qwen3-coder:30b"}, {"server", server}, {"temperature", 0.2}};
    };
    return {
        {"gpt-4.1", openai("gpt-4.1", {{"temperature", 0.3}}), "/v1/chat/completions"},
        {"gpt-4o", openai("gpt-4o-2024-11-20"), "/v1/chat/completions"},
        {"o3", openai("o3", {{"reasoning_effort", "high"}}), "/v1/responses"},
        {"o4-mini", openai("o4-mini"), "/v1/responses"},
        {"gpt-5.1", openai("gpt-5.1", {{"reasoning_effort", "medium"}}), "/v1/responses"},
        {"gpt-5-codex", openai("gpt-5.1-codex", {{"reasoning_effort", "high"}}), "/v1/responses"},
        {"gpt-5-pro", openai("gpt-5-pro"), "/v1/responses"},
        {"claude-sonnet-4-5", anthropic("claude-sonnet-4-5", {{"thinking_budget", 2048}, {"max_tokens", 8192}}), "/v1/messages"},
        {"claude-sonnet-4-6", anthropic("claude-sonnet-4-6", {{"reasoning_effort", "high"}, {"temperature", 1}}), "/v1/messages"},
        {"claude-opus-4-7", anthropic("claude-opus-4-7", {{"reasoning_effort", "xhigh"}}), "/v1/messages"},
        {"ollama", local("ollama"), "/v1/chat/completions"},
        {"vllm", local("vllm"), "/v1/chat/completions"},
        {"llamacpp", local("llamacpp"), "/v1/chat/completions"},
        {"sglang", local("sglang"), "/v1/chat/completions"},
    };
}

// The body of the server's answer to a hand-made request.
std::string postJson(const std::string& url, const json& body) {
    HttpRequest r;
    r.url = url;
    r.headers = {"Content-Type: application/json"};
    r.body = body.dump();
    return httpPost(r, {}, {}).body;
}

} // namespace

class TestLlmFamilies : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void llmTestPassesForEveryFamily_data() {
        QTest::addColumn<int>("row");
        QTest::addColumn<bool>("stream");
        const auto rows = families();
        for (int i = 0; i < static_cast<int>(rows.size()); ++i)
            for (bool stream : {true, false})
                QTest::newRow((std::string(rows[i].label) + (stream ? " stream" : " whole")).c_str()) << i << stream;
    }
    void llmTestPassesForEveryFamily() {
        QFETCH(int, row);
        QFETCH(bool, stream);
        const auto family = families()[row];
        test::LlmServer server(json{{"strict", true}, {"default", {{"text", "ready"}, {"reasoning", "Short question."}}}});
        QVERIFY(server.ready());
        json entry = family.entry;
        entry["stream"] = stream;
        const auto cfg = writeConfig(server, family.label, entry);
        const auto run = cli({"llm", "test", "--model", "m", "--llm-config", qs(cfg)});
        const auto requests = server.requests();
        QVERIFY2(run.exitCode == 0,
                 qPrintable(run.out + run.err + QString::fromStdString(requests.empty() ? "" : requests[0].dump())));
        QVERIFY2(run.out.contains("ready"), qPrintable(run.out));
        QCOMPARE(requests.size(), std::size_t{1});
        QCOMPARE(requests[0]["path"].get<std::string>(), std::string(family.route));
        QVERIFY(requests[0]["refused"].is_null());
        QCOMPARE(requests[0]["body"]["stream"].get<bool>(), stream);
        QVERIFY2(!run.err.contains("is in no family"), qPrintable(run.err)); // every row is known
    }

    // What the row puts in the body, for the families whose shape differs.
    void requestBodiesFollowTheFamily() {
        test::LlmServer server(json{{"strict", true}, {"default", {{"text", "ready"}}}});
        QVERIFY(server.ready());
        auto bodyOf = [&](const char* label) {
            for (const auto& f : families())
                if (std::string(f.label) == label) {
                    const auto before = server.requests().size();
                    const auto run =
                        cli({"llm", "test", "--model", "m", "--llm-config", qs(writeConfig(server, label, f.entry))});
                    if (run.exitCode != 0 || server.requests().size() != before + 1) return json();
                    return server.requests().back()["body"];
                }
            return json();
        };
        const auto o3 = bodyOf("o3");
        QVERIFY(o3.contains("max_output_tokens") && !o3.contains("max_tokens") && !o3.contains("temperature"));
        QCOMPARE(o3["reasoning"]["effort"].get<std::string>(), std::string("high"));
        const auto gpt41 = bodyOf("gpt-4.1");
        QCOMPARE(gpt41["temperature"].get<double>(), 0.0); // llm test asks for 0; the family accepts it
        const auto codex = bodyOf("gpt-5-codex");
        QVERIFY(codex.contains("max_output_tokens") && codex.contains("instructions") && codex.contains("input"));
        QCOMPARE(codex["reasoning"]["effort"].get<std::string>(), std::string("high"));
        QCOMPARE(codex["reasoning"]["summary"].get<std::string>(), std::string("auto"));
        const auto sonnet45 = bodyOf("claude-sonnet-4-5");
        QCOMPARE(sonnet45["thinking"]["type"].get<std::string>(), std::string("enabled"));
        QCOMPARE(sonnet45["thinking"]["budget_tokens"].get<int>(), 2048);
        QVERIFY(sonnet45["max_tokens"].get<int>() > 2048); // llm test's 16 tokens on top of the budget
        QVERIFY(!sonnet45.contains("temperature"));
        const auto opus = bodyOf("claude-opus-4-7");
        QCOMPARE(opus["thinking"]["type"].get<std::string>(), std::string("adaptive"));
        QCOMPARE(opus["output_config"]["effort"].get<std::string>(), std::string("xhigh"));
        QVERIFY(!opus.contains("temperature") && !opus.contains("top_p"));
    }

    // Each refusal of the issue, with the old shape (forced through a
    // "families" row) and with the shipped one.
    void oldShapesAreRefusedAndNewOnesAccepted_data() {
        QTest::addColumn<QString>("entry");    // the shipped shape
        QTest::addColumn<QString>("oldEntry"); // the same intent as the old client sent it
        QTest::addColumn<QString>("oldRow");   // a "families" row forcing the old shape
        QTest::addColumn<QString>("refusal");
        QTest::newRow("o3 max_tokens") << R"({"provider":"openai","model":"o3","server":"openai"})"
                                       << R"({"provider":"openai","model":"o3","server":"openai"})"
                                       << R"({"name":"old","match":["o3*"],"token_field":"max_tokens","temperature":false})"
                                       << "Use 'max_completion_tokens' instead";
        QTest::newRow("gpt-5 temperature")
            << R"({"provider":"openai","model":"gpt-5.1","server":"openai"})"
            << R"({"provider":"openai","model":"gpt-5.1","server":"openai"})"
            << R"({"name":"old","match":["gpt-5*"],"token_field":"max_completion_tokens","temperature":true})"
            << "Only the default (1) value is supported";
        QTest::newRow("codex on chat completions")
            << R"({"provider":"openai","model":"gpt-5.1-codex","server":"openai"})"
            << R"({"provider":"openai","model":"gpt-5.1-codex","server":"openai"})"
            << R"({"name":"old","match":["gpt-5.1-codex"],"token_field":"max_completion_tokens","temperature":false,"endpoint":"chat_completions"})"
            << "only supported in v1/responses";
        QTest::newRow("opus-4-7 budget")
            << R"({"provider":"anthropic","model":"claude-opus-4-7","reasoning_effort":"high","max_tokens":16000})"
            << R"({"provider":"anthropic","model":"claude-opus-4-7","thinking_budget":4096,"max_tokens":16000})"
            << R"({"name":"old","provider":"anthropic","match":["claude-opus-4-7*"],"thinking":"budget","temperature":false})"
            << "thinking.type.enabled is not supported";
        QTest::newRow("opus-4-7 temperature")
            << R"({"provider":"anthropic","model":"claude-opus-4-7"})"
            << R"({"provider":"anthropic","model":"claude-opus-4-7"})"
            << R"({"name":"old","provider":"anthropic","match":["claude-opus-4-7*"],"thinking":"adaptive","temperature":true})"
            << "temperature: is not supported";
        QTest::newRow("sonnet-4-5 budget over llm test's max_tokens")
            << R"({"provider":"anthropic","model":"claude-sonnet-4-5","thinking_budget":2048})"
            << R"({"provider":"anthropic","model":"claude-sonnet-4-5","thinking_budget":2048})"
            << R"({"name":"old","provider":"anthropic","match":["claude-sonnet-4-5*"],"thinking":"budget"})"
            << "SKIP";
    }
    void oldShapesAreRefusedAndNewOnesAccepted() {
        QFETCH(QString, entry);
        QFETCH(QString, oldEntry);
        QFETCH(QString, oldRow);
        QFETCH(QString, refusal);
        if (refusal == "SKIP") {
            // llm test used to send max_tokens 16 under a 2048-token budget; the
            // provider now adds the budget. Shown through the provider itself.
            test::LlmServer server(json{{"strict", true}, {"default", {{"text", "ready"}}}});
            QVERIFY(server.ready());
            auto m = model(server, "claude-sonnet-4-5");
            m.thinkingBudget = 2048;
            ChatRequest r = request();
            r.maxTokens = 16;
            const auto out = LlmClient(m).complete(r, nullptr, {}, 1);
            QVERIFY2(out.call.ok, out.call.failure.message.c_str());
            QCOMPARE(server.requests().back()["body"]["max_tokens"].get<int>(), 2048 + 16);
            // What the old request (max_tokens 16, budget 2048) meets.
            QVERIFY(
                postJson(server.baseUrl("/v1/messages"), json{{"model", "claude-sonnet-4-5"},
                                                              {"max_tokens", 16},
                                                              {"messages", json::array({{{"role", "user"}, {"content", "hi"}}})},
                                                              {"thinking", {{"type", "enabled"}, {"budget_tokens", 2048}}}})
                    .find("must be greater than `thinking.budget_tokens`") != std::string::npos);
            return;
        }
        test::LlmServer server(json{{"strict", true}, {"default", {{"text", "ready"}}}});
        QVERIFY(server.ready());
        json e = json::parse(entry.toStdString());
        e["api_key"] = kKey;
        const auto now = cli({"llm", "test", "--model", "m", "--llm-config", qs(writeConfig(server, "new", e))});
        QVERIFY2(now.exitCode == 0, qPrintable(now.out + now.err));
        // The old shape: the same model under a row that asks for what the service refuses.
        json old = json::parse(oldEntry.toStdString());
        old["api_key"] = kKey;
        const auto before = cli({"llm", "test", "--model", "m", "--llm-config",
                                 qs(writeConfig(server, "old", old, json::array({json::parse(oldRow.toStdString())})))});
        QVERIFY2(before.exitCode != 0, qPrintable(before.out + before.err));
        QVERIFY2(before.err.contains(refusal), qPrintable(before.err));
        QCOMPARE(server.requests().size(), std::size_t{2}); // a refusal is not retried
        QVERIFY(!server.requests()[1]["refused"].is_null());
        QVERIFY(!before.err.contains(kKey));
    }

    // What the config check refuses before anything is sent, naming file, model and key.
    void configsAFamilyRefusesFailAtLoad_data() {
        QTest::addColumn<QString>("entry");
        QTest::addColumn<QString>("message");
        QTest::newRow("budget below 1024") << R"({"provider":"anthropic","model":"claude-sonnet-4-5","thinking_budget":512})"
                                           << "thinking_budget 512: must be at least 1024";
        QTest::newRow("budget not below max_tokens")
            << R"({"provider":"anthropic","model":"claude-sonnet-4-5","thinking_budget":8192,"max_tokens":8192})"
            << "must be less than max_tokens";
        QTest::newRow("anthropic temperature over 1")
            << R"({"provider":"anthropic","model":"claude-sonnet-4-6","temperature":1.5})"
            << "must be between 0 and 1";
        QTest::newRow("o3 temperature") << R"({"provider":"openai","model":"o3","server":"openai","temperature":0.2})"
                                        << "accepts only its default temperature";
        QTest::newRow("opus-4-7 budget") << R"({"provider":"anthropic","model":"claude-opus-4-7","thinking_budget":2048})"
                                         << "thinks adaptively only";
        QTest::newRow("effort on gpt-4.1")
            << R"({"provider":"openai","model":"gpt-4.1","server":"openai","reasoning_effort":"high"})"
            << "takes no effort level";
    }
    void configsAFamilyRefusesFailAtLoad() {
        QFETCH(QString, entry);
        QFETCH(QString, message);
        test::LlmServer server(json{{"strict", true}, {"default", {{"text", "ready"}}}});
        QVERIFY(server.ready());
        json e = json::parse(entry.toStdString());
        e["api_key"] = kKey;
        const auto cfg = writeConfig(server, "bad", e);
        const auto run = cli({"llm", "test", "--model", "m", "--llm-config", qs(cfg)});
        QVERIFY(run.exitCode != 0);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
        QVERIFY2(run.err.contains(qs(cfg)) && run.err.contains("model m"), qPrintable(run.err));
        QVERIFY(server.requests().empty());
    }

    // The README's configuration for every service loads, and every model in
    // it belongs to a family.
    void readmeConfigurationsLoad() {
        std::ifstream in(std::string(std::getenv("KW_TEST_DATA_DIR")) + "/../../README.md");
        const std::string readme((std::istreambuf_iterator<char>(in)), {});
        const auto at = readme.find("Exact configurations for each service:");
        QVERIFY(at != std::string::npos);
        const auto begin = readme.find("```json\n", at) + 8;
        const auto end = readme.find("```", begin);
        const auto path = dir() + "/readme-llm.json";
        std::ofstream(path) << readme.substr(begin, end - begin);
        const auto settings = loadSettings(path, true);
        QVERIFY2(settings.ok(), settings.ok() ? "" : settings.error().message.c_str());
        QVERIFY(settings->models.size() >= 8);
        for (const auto& m : settings->models) QVERIFY2(m.familyNote.empty(), m.familyNote.c_str());
    }

    void unknownModelsGetADefaultAndANote() {
        ModelConfig m;
        m.name = "x";
        m.provider = ProviderKind::OpenAi;
        m.model = "frontier-9000";
        m.server = "openai";
        const auto match = familyOf(m);
        QCOMPARE(match.family.name, std::string("unknown"));
        QVERIFY(match.family.tokenField == TokenField::MaxCompletionTokens);
        QVERIFY(match.assumed.find("frontier-9000 is in no family") != std::string::npos);
        m.server = "ollama";
        m.model = "llama3.3";
        QCOMPARE(familyOf(m).family.name, std::string("local (ollama)"));
        // llm.json's rows win over the built-in ones of equal specificity.
        ModelFamily mine;
        mine.name = "mine";
        mine.patterns = {"o3*"};
        m.server = "openai";
        m.model = "o3-mini";
        QCOMPARE(familyOf(m, {mine}).family.name, std::string("mine"));
        QCOMPARE(familyOf(m).family.name, std::string("o-series"));
        m.model = "o3-pro";
        QCOMPARE(familyOf(m).family.name, std::string("codex/pro"));
    }

    void sixEvaluationSearchForEveryFamily_data() {
        QTest::addColumn<int>("row");
        QTest::addColumn<bool>("stream");
        const auto rows = families();
        for (int i = 0; i < static_cast<int>(rows.size()); ++i)
            for (bool stream : {true, false})
                QTest::newRow((std::string(rows[i].label) + (stream ? " stream" : " whole")).c_str()) << i << stream;
    }
    void sixEvaluationSearchForEveryFamily() {
        QFETCH(int, row);
        QFETCH(bool, stream);
        auto family = families()[row];
        family.entry["stream"] = stream;
        test::LlmServer server(json{
            {"strict", true},
            {"default", {{"text", test::saxpyKernelReply(4, false)}, {"reasoning", "Unroll by four."}, {"chunk_chars", 64}}}});
        QVERIFY(server.ready());
        const auto cfg = writeConfig(server, family.label, family.entry);
        const QString db = qs(dir() + "/search-" + std::to_string(row) + (stream ? "-s" : "-w") + ".db");
        const auto run =
            cli({"--db", db, "search", "start", "--problem", qs(test::problemDir("saxpy").string()), "--synth", "llm", "--model",
                 "m", "--budget", "6", "--workers", "2", "--llm-concurrency", "2", "--check-only", "--llm-config", qs(cfg)});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QVERIFY2(run.out.contains("finished (budget): 6 evaluations"), qPrintable(run.out));
        for (const auto& r : server.requests()) {
            QVERIFY2(r["refused"].is_null(), r.dump().c_str());
            QCOMPARE(r["body"]["stream"].get<bool>(), stream);
        }
        auto ro = store::Database::open(db.toStdString(), store::Database::Mode::ReadOnly);
        QVERIFY(ro.ok());
        const auto calls = store::LlmCallStore(*ro).forSearch(1);
        QVERIFY(calls.ok() && !calls->empty());
        QCOMPARE(calls->front().status, std::string("ok"));
        QCOMPARE(calls->front().reasoning, std::string("Unroll by four.")); // summaries too, for the Responses API
        std::ifstream raw(db.toStdString(), std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(raw)), {});
        QVERIFY(bytes.find(kKey) == std::string::npos); // the key is in no stored row
    }

    // Faults ---------------------------------------------------------------

    // OpenAI streams o3 and gpt-5 only to verified organisations: the refused
    // stream is followed by the same call whole, and later calls go whole at once.
    void unverifiedOrganisationsGetWholeReplies() {
        test::LlmServer server(
            json{{"strict", true}, {"unverified_org", true}, {"default", {{"text", "ok"}, {"reasoning", "why"}}}});
        QVERIFY(server.ready());
        LlmClient client(model(server, "gpt-5.1"));
        for (int i = 0; i < 2; ++i) {
            const auto out = client.complete(request(), nullptr, {}, 1);
            QVERIFY2(out.call.ok, out.call.failure.message.c_str());
            QCOMPARE(out.call.reply.reasoning, std::string("why"));
        }
        const auto reqs = server.requests();
        QCOMPARE(reqs.size(), std::size_t{3}); // refused stream, whole, whole
        QVERIFY(!reqs[0]["refused"].is_null() && reqs[0]["body"]["stream"].get<bool>());
        QVERIFY(reqs[1]["refused"].is_null() && !reqs[1]["body"]["stream"].get<bool>());
        QVERIFY(!reqs[2]["body"]["stream"].get<bool>());
    }

    void silenceBeforeTheFirstByteWithinItsLimitSucceeds() {
        test::LlmServer server(json{{"default", {{"text", "ready"}, {"first_byte_ms", 2500}}}});
        QVERIFY(server.ready());
        auto m = model(server, "gpt-4.1");
        m.idleTimeoutS = 1;
        m.firstByteTimeoutS = 10;
        const auto out = LlmClient(m).complete(request(), nullptr, {}, 1);
        QVERIFY2(out.call.ok, out.call.failure.message.c_str());
        QVERIFY(out.retries.empty());
        // The same silence against a first-byte limit shorter than it.
        m.firstByteTimeoutS = 1;
        m.maxRetries = 0;
        const auto cut = LlmClient(m).complete(request(), nullptr, {}, 1);
        QVERIFY(!cut.call.ok);
        QCOMPARE(cut.call.failure.kind, FailureKind::Idle);
        QVERIFY2(cut.call.failure.message.find("first_byte_timeout_s") != std::string::npos, cut.call.failure.message.c_str());
    }

    void midStreamErrorsAreRetried_data() {
        QTest::addColumn<QString>("modelId");
        QTest::newRow("openai") << "gpt-4.1";
        QTest::newRow("responses") << "gpt-5.1-codex";
        QTest::newRow("anthropic") << "claude-sonnet-4-5";
    }
    void midStreamErrorsAreRetried() {
        QFETCH(QString, modelId);
        test::LlmServer server(
            json{{"replies", json::array({{{"text", std::string(400, 'a')}, {"chunk_chars", 20}, {"mid_stream_error", true}},
                                          {{"text", "whole"}, {"keepalive", true}}})}});
        QVERIFY(server.ready());
        auto m = model(server, modelId.toStdString());
        const auto out = LlmClient(m).complete(request(), nullptr, {}, 1);
        QVERIFY2(out.call.ok, out.call.failure.message.c_str());
        QCOMPARE(out.call.reply.text, std::string("whole"));
        QCOMPARE(out.retries.size(), std::size_t{1});
        QVERIFY(out.retries[0].failure.message.find("mid-stream") != std::string::npos);
        // The broken attempt is billed: its prompt and what had streamed in.
        QVERIFY(out.retries[0].billed.inputTokens > 0 && out.retries[0].billed.outputTokens > 0);
        QVERIFY(out.billed.outputTokens > out.call.reply.usage.outputTokens);
    }

    void quotaIsNotRetried() {
        test::LlmServer server(
            json{{"default",
                  {{"status", 429},
                   {"error_type", "insufficient_quota"},
                   {"error_code", "insufficient_quota"},
                   {"text", "You exceeded your current quota, please check your plan and billing details."}}}});
        QVERIFY(server.ready());
        const auto out = LlmClient(model(server, "gpt-4.1")).complete(request(), nullptr, {}, 1);
        QVERIFY(!out.call.ok);
        QCOMPARE(out.call.failure.kind, FailureKind::Quota);
        QVERIFY(out.retries.empty());
        QCOMPARE(server.requests().size(), std::size_t{1});
        QVERIFY(out.call.failure.message.find("config file") != std::string::npos); // which key
    }

    void quotaStopsTheSearch() {
        test::LlmServer server(json{{"default",
                                     {{"status", 429},
                                      {"error_type", "insufficient_quota"},
                                      {"error_code", "insufficient_quota"},
                                      {"text", "You exceeded your current quota."}}}});
        QVERIFY(server.ready());
        const auto cfg = writeConfig(server, "quota", families()[0].entry);
        const QString db = qs(dir() + "/quota.db");
        const auto run =
            cli({"--db", db, "search", "start", "--problem", qs(test::problemDir("saxpy").string()), "--synth", "llm", "--model",
                 "m", "--budget", "10", "--workers", "1", "--llm-concurrency", "1", "--check-only", "--llm-config", qs(cfg)});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QVERIFY2(run.out.contains("(llm_quota)"), qPrintable(run.out));
        QCOMPARE(server.requests().size(), std::size_t{1});
    }

    void retryAfterMsIsHonoured() {
        test::LlmServer server(
            json{{"replies", json::array({{{"status", 429}, {"headers", {{"retry-after-ms", "300"}}}}, {{"text", "ok"}}})}});
        QVERIFY(server.ready());
        auto m = model(server, "gpt-4.1");
        m.retryBaseS = 5; // a backoff would wait seconds; the server asks for 0.3
        const auto out = LlmClient(m).complete(request(), nullptr, {}, 1);
        QVERIFY(out.call.ok);
        QCOMPARE(out.retries.size(), std::size_t{1});
        QCOMPARE(out.retries[0].waitedS, 0.3);
    }

    void nullUsageIsNoUsage() {
        test::LlmServer server(json{
            {"default",
             {{"raw_body",
               R"({"id":"x","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],"usage":null})"}}}});
        QVERIFY(server.ready());
        auto m = model(server, "gpt-4.1");
        m.stream = false;
        const auto out = LlmClient(m).complete(request(), nullptr, {}, 1);
        QVERIFY2(out.call.ok, out.call.failure.message.c_str());
        QVERIFY(out.call.reply.usageEstimated);
    }

    void promptsCutByTheServerAreReported() {
        test::LlmServer server(json{{"default", {{"text", "ok"}, {"input_tokens", 2048}}}});
        QVERIFY(server.ready());
        auto m = model(server, "qwen3-coder:30b");
        m.server = "ollama";
        m.family = familyOf(m).family;
        ChatRequest r = request();
        r.user = std::string(40000, 'k'); // about 10k tokens
        const auto cut = LlmClient(m).complete(r, nullptr, {}, 1);
        QVERIFY(cut.call.ok);
        QVERIFY2(cut.warning.find("counted 2048 prompt tokens") != std::string::npos, cut.warning.c_str());
        QVERIFY(cut.warning.find("OLLAMA_CONTEXT_LENGTH") != std::string::npos);
        r.user = std::string(6000, 'k'); // within what the server counted: no warning
        QVERIFY(LlmClient(m).complete(r, nullptr, {}, 1).warning.empty());
    }

    // What each service sends besides text: Anthropic's redacted thinking,
    // Ollama's "reasoning" field, and stops that are not an answer.
    void repliesInEveryServicesForm_data() {
        QTest::addColumn<QString>("modelId");
        QTest::addColumn<QString>("script");
        QTest::addColumn<QString>("reasoning");
        QTest::newRow("redacted thinking") << "claude-sonnet-4-5"
                                           << R"({"text":"ok","reasoning":"seen","redacted_thinking":true})"
                                           << "seen";
        QTest::newRow("reasoning field") << "gpt-4.1"
                                         << R"({"text":"ok","reasoning":"thought","reasoning_key":"reasoning"})"
                                         << "thought";
        QTest::newRow("responses summary") << "gpt-5.1-codex"
                                           << R"({"text":"ok","reasoning":"summary"})"
                                           << "summary";
    }
    void repliesInEveryServicesForm() {
        QFETCH(QString, modelId);
        QFETCH(QString, script);
        QFETCH(QString, reasoning);
        for (bool stream : {true, false}) {
            test::LlmServer server(json{{"strict", true}, {"default", json::parse(script.toStdString())}});
            QVERIFY(server.ready());
            auto m = model(server, modelId.toStdString());
            m.stream = stream;
            const auto out = LlmClient(m).complete(request(), nullptr, {}, 1);
            QVERIFY2(out.call.ok, out.call.failure.message.c_str());
            QCOMPARE(out.call.reply.text, std::string("ok"));
            QCOMPARE(QString::fromStdString(out.call.reply.reasoning), reasoning);
        }
    }

    void stopsThatAreNotAnAnswer_data() {
        QTest::addColumn<QString>("modelId");
        QTest::addColumn<QString>("finish");
        QTest::addColumn<QString>("message");
        QTest::newRow("openai content_filter") << "gpt-4.1"
                                               << "content_filter"
                                               << "withheld the reply (content_filter)";
        QTest::newRow("anthropic refusal") << "claude-sonnet-4-5"
                                           << "refusal"
                                           << "withheld the reply (refusal)";
        QTest::newRow("anthropic pause_turn") << "claude-sonnet-4-5"
                                              << "pause_turn"
                                              << "paused the turn";
        QTest::newRow("anthropic context") << "claude-sonnet-4-5"
                                           << "model_context_window_exceeded"
                                           << "context window";
        QTest::newRow("responses max_output_tokens") << "gpt-5.1-codex"
                                                     << "max_output_tokens"
                                                     << "max_tokens limit";
        QTest::newRow("responses content_filter") << "gpt-5.1-codex"
                                                  << "content_filter"
                                                  << "withheld the reply";
    }
    void stopsThatAreNotAnAnswer() {
        QFETCH(QString, modelId);
        QFETCH(QString, finish);
        QFETCH(QString, message);
        test::LlmServer server(
            json{{"strict", true}, {"default", {{"text", test::saxpyKernelReply(2, false)}, {"finish", finish.toStdString()}}}});
        QVERIFY(server.ready());
        const auto out = LlmClient(model(server, modelId.toStdString())).complete(request(), nullptr, {}, 1);
        QVERIFY2(out.call.ok, out.call.failure.message.c_str());
        const auto parsed = parseReply(out.call.reply.text, "saxpy", out.call.reply.finishReason, "cpp");
        QVERIFY(!parsed.ok());
        QVERIFY2(QString::fromStdString(parsed.error().message).contains(message), parsed.error().message.c_str());
    }

    // Failed attempts count against --max-cost: with every first attempt
    // broken mid-stream, the cap still holds to within one call.
    void costCapCountsFailedAttempts() {
        json replies = json::array();
        for (int i = 0; i < 40; ++i) {
            replies.push_back({{"text", std::string(4000, 'x')}, {"chunk_chars", 400}, {"mid_stream_error", true}});
            replies.push_back(
                {{"text", test::saxpyKernelReply(2 + i % 3, false)}, {"input_tokens", 1000}, {"output_tokens", 200}});
        }
        test::LlmServer server(json{{"replies", replies}});
        QVERIFY(server.ready());
        json entry = families()[0].entry;
        entry["price_in_per_mtok"] = 1000.0; // a call is about $1.2; a broken attempt about $0.6 more
        entry["price_out_per_mtok"] = 1000.0;
        entry["retry_base_s"] = 0.01;
        const auto cfg = writeConfig(server, "cost", entry);
        const QString db = qs(dir() + "/cost.db");
        const double cap = 3.0;
        const auto run = cli({"--db",
                              db,
                              "search",
                              "start",
                              "--problem",
                              qs(test::problemDir("saxpy").string()),
                              "--synth",
                              "llm",
                              "--model",
                              "m",
                              "--budget",
                              "30",
                              "--workers",
                              "1",
                              "--llm-concurrency",
                              "1",
                              "--check-only",
                              "--max-cost",
                              QString::number(cap),
                              "--llm-config",
                              qs(cfg)});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        auto ro = store::Database::open(db.toStdString(), store::Database::Mode::ReadOnly);
        QVERIFY(ro.ok());
        const auto calls = store::LlmCallStore(*ro).forSearch(1);
        QVERIFY(calls.ok() && !calls->empty());
        double spent = 0, largest = 0;
        for (const auto& c : *calls) {
            spent += c.costUsd;
            largest = std::max(largest, c.costUsd);
            QCOMPARE(c.attempts, 2);
            QVERIFY(c.costUsd > 1.3); // the broken attempt is in the call's cost
        }
        QVERIFY2(spent <= cap + largest, qPrintable(QString("spent %1 of %2").arg(spent).arg(cap)));
        QVERIFY2(run.out.contains("(cost_budget)") || run.out.contains("cost"), qPrintable(run.out));
    }

  private:
    std::string dir() const { return dir_.path().toStdString(); }
    static QString qs(const std::string& s) { return QString::fromStdString(s); }

    std::string writeConfig(const test::LlmServer& server, const std::string& name, json entry,
                            json extraFamilies = json()) const {
        const auto path = dir() + "/" + name + "-llm.json";
        entry["name"] = "m";
        const bool anthropic = entry.value("provider", "openai") == "anthropic";
        entry["base_url"] = server.baseUrl(anthropic ? "" : "/v1");
        entry["max_retries"] = entry.value("max_retries", 1);
        entry["retry_base_s"] = entry.value("retry_base_s", 0.05);
        json cfg{{"models", json::array({entry})}};
        if (!extraFamilies.is_null()) cfg["families"] = extraFamilies;
        std::ofstream(path) << cfg.dump(2);
        chmod(path.c_str(), 0600);
        return path;
    }

    static ModelConfig model(const test::LlmServer& server, const std::string& id) {
        ModelConfig m;
        m.name = id;
        m.model = id;
        m.provider = id.starts_with("claude") ? ProviderKind::Anthropic : ProviderKind::OpenAi;
        m.server = m.provider == ProviderKind::Anthropic ? "anthropic" : "openai";
        m.baseUrl = server.baseUrl(m.provider == ProviderKind::Anthropic ? "" : "/v1");
        m.apiKey = Secret(kKey);
        m.keySource = "config file";
        m.maxRetries = 2;
        m.retryBaseS = 0.01;
        m.family = familyOf(m).family;
        if (m.family.thinking == ThinkingForm::Budget) m.thinkingBudget = 0;
        return m;
    }
    static ChatRequest request() {
        ChatRequest r;
        r.system = "You are terse.";
        r.user = "Say ready.";
        r.maxTokens = 64;
        return r;
    }

    QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(TestLlmFamilies)
#include "tst_llm_families.moc"
