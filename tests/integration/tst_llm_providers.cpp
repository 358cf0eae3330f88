// Both protocols against a real HTTP server speaking them, with scripted
// replies and faults: streaming and not, reasoning kept apart, usage, retries
// (429 with Retry-After, 5xx, broken streams), no retry on 401 or malformed
// JSON, idle and total timeouts, refused connections, cancellation.
#include "llm_server_fixture.h"
#include "synth/llm/llm_client.h"

#include <QtTest/QtTest>

#include <chrono>
#include <future>
#include <thread>

using namespace kw;
using namespace kw::synth::llm;
using nlohmann::json;

namespace {

class Collect final : public StreamSink {
  public:
    void text(std::string_view d) override { text_ += d, ++pieces_; }
    void reasoning(std::string_view d) override { reasoning_ += d; }
    std::string text_, reasoning_;
    int pieces_ = 0;
};

const char* kKey = "sk-kernelwright-test-key-0123456789";

ModelConfig modelFor(const std::string& provider, const test::LlmServer& server) {
    ModelConfig m;
    m.name = "scripted-" + provider;
    m.provider = provider == "anthropic" ? ProviderKind::Anthropic : ProviderKind::OpenAi;
    m.baseUrl = provider == "anthropic" ? server.baseUrl() : server.baseUrl("/v1");
    m.model = "scripted-model";
    m.apiKey = Secret(kKey);
    m.keySource = "test";
    m.maxRetries = 3;
    m.retryBaseS = 0.05;
    m.retryMaxS = 0.2;
    m.idleTimeoutS = 5;
    m.totalTimeoutS = 30;
    return m;
}

ChatRequest request() {
    ChatRequest r;
    r.system = "system text";
    r.user = "user text";
    r.maxTokens = 256;
    return r;
}

double seconds(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

class TestLlmProviders : public QObject {
    Q_OBJECT
  private slots:
    void streamingKeepsReasoningApart_data() { providers(); }
    void streamingKeepsReasoningApart() {
        QFETCH(QString, provider);
        test::LlmServer server(json{{"replies", json::array({{{"text", "The answer, in pieces."},
                                                              {"reasoning", "First I think."},
                                                              {"input_tokens", 120},
                                                              {"output_tokens", 80},
                                                              {"chunk_chars", 4}}})}});
        QVERIFY(server.ready());
        LlmClient client(modelFor(provider.toStdString(), server));
        Collect sink;
        const auto out = client.complete(request(), &sink, {}, 1);
        QVERIFY2(out.call.ok, out.call.failure.message.c_str());
        QCOMPARE(out.call.reply.text, std::string("The answer, in pieces."));
        QCOMPARE(out.call.reply.reasoning, std::string("First I think."));
        QCOMPARE(sink.text_, out.call.reply.text);
        QCOMPARE(sink.reasoning_, out.call.reply.reasoning);
        QVERIFY(sink.pieces_ >= 5); // delivered incrementally
        QVERIFY(out.call.reply.streamed);
        QCOMPARE(out.call.reply.usage.inputTokens, std::int64_t{120});
        QCOMPARE(out.call.reply.usage.outputTokens, std::int64_t{80});
        QCOMPARE(out.call.reply.finishReason, std::string("stop"));
        const auto reqs = server.requests();
        QCOMPARE(reqs.size(), std::size_t{1});
        QCOMPARE(reqs[0]["body"]["stream"].get<bool>(), true);
        QCOMPARE(reqs[0]["body"]["model"].get<std::string>(), std::string("scripted-model"));
        const auto& h = reqs[0]["headers"];
        if (provider == "openai") {
            QCOMPARE(h["authorization"].get<std::string>(), std::string("Bearer ") + kKey);
            QCOMPARE(reqs[0]["path"].get<std::string>(), std::string("/v1/chat/completions"));
        } else {
            QCOMPARE(h["x-api-key"].get<std::string>(), std::string(kKey));
            QCOMPARE(h["anthropic-version"].get<std::string>(), std::string("2023-06-01"));
            QCOMPARE(reqs[0]["path"].get<std::string>(), std::string("/v1/messages"));
            QCOMPARE(reqs[0]["body"]["system"].get<std::string>(), std::string("system text"));
        }
    }

    void nonStreamingRepliesAreReadToo_data() { providers(); }
    void nonStreamingRepliesAreReadToo() {
        QFETCH(QString, provider);
        // Asked to stream, the server answers with one JSON body (as some local servers do).
        test::LlmServer server(json{{"replies", json::array({{{"text", "plain"}, {"reasoning", "why"}, {"stream", "never"}}})}});
        QVERIFY(server.ready());
        LlmClient client(modelFor(provider.toStdString(), server));
        const auto out = client.complete(request(), nullptr, {}, 1);
        QVERIFY2(out.call.ok, out.call.failure.message.c_str());
        QCOMPARE(out.call.reply.text, std::string("plain"));
        QCOMPARE(out.call.reply.reasoning, std::string("why"));
        QVERIFY(!out.call.reply.streamed);
        // And with streaming off in the model config.
        test::LlmServer again(json{{"replies", json::array({{{"text", "plain again"}}})}});
        auto m = modelFor(provider.toStdString(), again);
        m.stream = false;
        const auto off = LlmClient(m).complete(request(), nullptr, {}, 1);
        QVERIFY(off.call.ok);
        QCOMPARE(off.call.reply.text, std::string("plain again"));
        QCOMPARE(again.requests().at(0)["body"]["stream"].get<bool>(), false);
    }

    void rateLimitsHonourRetryAfter_data() { providers(); }
    void rateLimitsHonourRetryAfter() {
        QFETCH(QString, provider);
        test::LlmServer server(json{
            {"replies", json::array({{{"status", 429}, {"headers", {{"retry-after", "1"}}}, {"error_type", "rate_limit_error"}},
                                     {{"text", "after the wait"}}})}});
        QVERIFY(server.ready());
        const auto t0 = std::chrono::steady_clock::now();
        const auto out = LlmClient(modelFor(provider.toStdString(), server)).complete(request(), nullptr, {}, 1);
        QVERIFY2(out.call.ok, out.call.failure.message.c_str());
        QCOMPARE(out.call.reply.text, std::string("after the wait"));
        QCOMPARE(out.retries.size(), std::size_t{1});
        QCOMPARE(out.retries[0].failure.kind, FailureKind::RateLimited);
        QCOMPARE(out.retries[0].waitedS, 1.0);
        QVERIFY(seconds(t0) >= 0.95);
    }

    void serverErrorsAreRetriedWithBackoff_data() { providers(); }
    void serverErrorsAreRetriedWithBackoff() {
        QFETCH(QString, provider);
        test::LlmServer server(json{{"replies", json::array({{{"status", 500}, {"error_type", "api_error"}},
                                                             {{"status", 529}, {"error_type", "overloaded_error"}},
                                                             {{"text", "third time"}}})}});
        QVERIFY(server.ready());
        const auto out = LlmClient(modelFor(provider.toStdString(), server)).complete(request(), nullptr, {}, 1);
        QVERIFY2(out.call.ok, out.call.failure.message.c_str());
        QCOMPARE(out.retries.size(), std::size_t{2});
        QCOMPARE(out.retries[0].failure.kind, FailureKind::Server);
        QVERIFY(out.retries[1].waitedS >= out.retries[0].waitedS * 0.5);
        QCOMPARE(server.requests().size(), std::size_t{3});
    }

    void unauthorizedIsNeverRetried_data() { providers(); }
    void unauthorizedIsNeverRetried() {
        QFETCH(QString, provider);
        test::LlmServer server(json{
            {"replies", json::array({{{"status", 401}, {"error_type", "authentication_error"}}, {{"text", "unreachable"}}})}});
        QVERIFY(server.ready());
        const auto out = LlmClient(modelFor(provider.toStdString(), server)).complete(request(), nullptr, {}, 1);
        QVERIFY(!out.call.ok);
        QCOMPARE(out.call.failure.kind, FailureKind::Unauthorized);
        QCOMPARE(out.call.failure.httpStatus, 401L);
        QVERIFY(out.retries.empty());
        QCOMPARE(server.requests().size(), std::size_t{1});
        QVERIFY(out.call.failure.message.find("API key") != std::string::npos);
        QVERIFY(out.call.failure.message.find(kKey) == std::string::npos);
    }

    void truncatedStreamsAreRetriedThenReported_data() { providers(); }
    void truncatedStreamsAreRetriedThenReported() {
        QFETCH(QString, provider);
        test::LlmServer server(
            json{{"default", {{"text", "this reply never finishes properly"}, {"truncate", true}, {"chunk_chars", 5}}}});
        QVERIFY(server.ready());
        auto m = modelFor(provider.toStdString(), server);
        m.maxRetries = 2;
        const auto out = LlmClient(m).complete(request(), nullptr, {}, 1);
        QVERIFY(!out.call.ok);
        QCOMPARE(out.call.failure.kind, FailureKind::Truncated);
        QCOMPARE(out.retries.size(), std::size_t{2});
        QCOMPARE(server.requests().size(), std::size_t{3});
        QVERIFY(!out.call.partialText.empty()); // what arrived is kept for the record
    }

    void malformedJsonIsRecordedNotRetried_data() { providers(); }
    void malformedJsonIsRecordedNotRetried() {
        QFETCH(QString, provider);
        test::LlmServer server(json{{"replies", json::array({{{"raw_body", "{\"choices\": [ not json"}, {"stream", "never"}},
                                                             {{"text", "unreachable"}}})}});
        QVERIFY(server.ready());
        const auto out = LlmClient(modelFor(provider.toStdString(), server)).complete(request(), nullptr, {}, 1);
        QVERIFY(!out.call.ok);
        QCOMPARE(out.call.failure.kind, FailureKind::Malformed);
        QVERIFY(out.retries.empty());
        QVERIFY(out.call.failure.message.find("not JSON") != std::string::npos);
    }

    void idleStreamsTimeOutAndRetry_data() { providers(); }
    void idleStreamsTimeOutAndRetry() {
        QFETCH(QString, provider);
        test::LlmServer server(
            json{{"replies", json::array({{{"text", "stalls in the middle"}, {"chunk_chars", 4}, {"stall_ms", 4000}},
                                          {{"text", "slow but steady"}, {"chunk_chars", 3}, {"chunk_delay_ms", 150}}})}});
        QVERIFY(server.ready());
        auto m = modelFor(provider.toStdString(), server);
        m.idleTimeoutS = 1.5;
        const auto t0 = std::chrono::steady_clock::now();
        const auto out = LlmClient(m).complete(request(), nullptr, {}, 1);
        QVERIFY2(out.call.ok, out.call.failure.message.c_str());
        // The second stream is slow (150 ms between events) but never idle: it completes.
        QCOMPARE(out.call.reply.text, std::string("slow but steady"));
        QCOMPARE(out.retries.size(), std::size_t{1});
        QCOMPARE(out.retries[0].failure.kind, FailureKind::Idle);
        QVERIFY(seconds(t0) < 4.0); // gave up on the stall before it ended
    }

    void totalTimeoutAndRefusedConnections() {
        test::LlmServer server(json{{"default", {{"text", "late"}, {"delay_ms", 5000}}}});
        QVERIFY(server.ready());
        auto m = modelFor("openai", server);
        m.totalTimeoutS = 1;
        m.maxRetries = 0;
        auto out = LlmClient(m).complete(request(), nullptr, {}, 1);
        QVERIFY(!out.call.ok);
        QCOMPARE(out.call.failure.kind, FailureKind::Timeout);
        QVERIFY(out.call.failure.message.find("total_timeout_s") != std::string::npos);

        m.baseUrl = "http://127.0.0.1:1/v1"; // nothing listens on port 1
        m.maxRetries = 1;
        out = LlmClient(m).complete(request(), nullptr, {}, 1);
        QVERIFY(!out.call.ok);
        QCOMPARE(out.call.failure.kind, FailureKind::Connect);
        QCOMPARE(out.retries.size(), std::size_t{1});
        QVERIFY(out.call.failure.message.find("base_url") != std::string::npos);
    }

    void stopTokenCancelsWaitsAndTransfers() {
        test::LlmServer server(json{{"replies", json::array({{{"status", 429}, {"headers", {{"retry-after", "30"}}}}})},
                                    {"default", {{"text", "slow"}, {"chunk_chars", 1}, {"chunk_delay_ms", 500}}}});
        QVERIFY(server.ready());
        const auto m = modelFor("openai", server);
        for (int round = 0; round < 2; ++round) { // round 0: waiting on Retry-After; round 1: mid-stream
            std::stop_source stop;
            const auto t0 = std::chrono::steady_clock::now();
            auto f =
                std::async(std::launch::async, [&] { return LlmClient(m).complete(request(), nullptr, stop.get_token(), 1); });
            std::this_thread::sleep_for(std::chrono::milliseconds(700));
            stop.request_stop();
            const auto out = f.get();
            QVERIFY(!out.call.ok);
            QCOMPARE(out.call.failure.kind, FailureKind::Cancelled);
            QVERIFY(seconds(t0) < 3.0);
        }
    }

  private:
    void providers() {
        QTest::addColumn<QString>("provider");
        QTest::newRow("openai") << QString("openai");
        QTest::newRow("anthropic") << QString("anthropic");
    }
};

QTEST_GUILESS_MAIN(TestLlmProviders)
#include "tst_llm_providers.moc"
