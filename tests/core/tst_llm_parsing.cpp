// The pieces of the LLM synthesizer that need no network: SSE framing, reply
// parsing, the prompt's token budget, the settings file, the retry schedule.
#include "problem/problem_loader.h"
#include "synth/llm/http_client.h"
#include "synth/llm/llm_client.h"
#include "synth/llm/llm_config.h"
#include "synth/llm/prompt_builder.h"
#include "synth/llm/reply_parser.h"
#include "synth/llm/sse_parser.h"
#include "test_support.h"

#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <sys/stat.h>

#include <fstream>

using namespace kw;
using namespace kw::synth::llm;

class TestLlmParsing : public QObject {
    Q_OBJECT
  private slots:
    void sseEventsSurviveAnySplit() {
        const std::string stream =
            "event: message_start\r\ndata: {\"a\":1}\r\n\r\n: keep-alive\n\ndata: line one\ndata: line two\n\ndata: [DONE]\n\n";
        for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
            SseParser p;
            auto events = p.feed(stream.substr(0, cut));
            auto rest = p.feed(stream.substr(cut));
            events.insert(events.end(), rest.begin(), rest.end());
            QCOMPARE(events.size(), std::size_t{3});
            QCOMPARE(events[0].event, std::string("message_start"));
            QCOMPARE(events[0].data, std::string("{\"a\":1}"));
            QCOMPARE(events[1].data, std::string("line one\nline two"));
            QCOMPARE(events[2].data, std::string("[DONE]"));
            QVERIFY(!p.pending());
        }
        SseParser cutShort;
        cutShort.feed("data: {\"partial\":");
        QVERIFY(cutShort.pending());
    }

    void repliesYieldOneKernel() {
        const std::string fn = "saxpy";
        auto one = parseReply("I unrolled the loop.\n\n```cpp\nvoid saxpy() {}\n```\nThat is all.", fn);
        QVERIFY(one.ok());
        QCOMPARE(one->code, std::string("void saxpy() {}\n"));
        QVERIFY(one->explanation.rfind("I unrolled the loop.", 0) == 0);
        QVERIFY(one->explanation.find("That is all.") != std::string::npos);
        QVERIFY(one->explanation.find("saxpy") == std::string::npos);
        // Several blocks: fine when exactly one is C++.
        auto mixed = parseReply("Build with:\n```sh\ng++ -O3\n```\n```c++\nvoid saxpy() {}\n```\n", fn);
        QVERIFY(mixed.ok());
        QCOMPARE(mixed->code, std::string("void saxpy() {}\n"));
        auto ambiguous = parseReply("```cpp\nvoid saxpy() {}\n```\nor\n```cpp\nvoid saxpy() { }\n```\n", fn);
        QVERIFY(!ambiguous.ok());
        QVERIFY(ambiguous.error().message.find("2 code blocks") != std::string::npos);
        auto bare = parseReply("void saxpy(const float* x) { }", fn);
        QVERIFY(bare.ok());
        auto prose = parseReply("I would use AVX-512 here.", fn);
        QVERIFY(!prose.ok());
        QVERIFY(prose.error().message.find("no code block") != std::string::npos);
        QVERIFY(!parseReply("   \n", fn).ok());
        auto unclosed = parseReply("```cpp\nvoid saxpy() {\n", fn);
        QVERIFY(!unclosed.ok());
        QVERIFY(unclosed.error().message.find("never closed") != std::string::npos);
        auto cutOff = parseReply("```cpp\nvoid saxpy() {}\n```", fn, "length");
        QVERIFY(!cutOff.ok());
        QVERIFY(cutOff.error().message.find("max_tokens") != std::string::npos);
        auto otherName = parseReply("```cpp\nvoid axpy() {}\n```", fn);
        QVERIFY(!otherName.ok());
        QVERIFY(!parseReply("```cpp\n```\n", fn).ok());
    }

    // A torch problem asks for a python block defining ModelNew, shows the
    // reference module, and its replies are parsed as Python.
    void torchProblemsSpeakPython() {
        auto spec = problem::loadProblem(test::bundledProblemsDir() / "gpu" / "gpu_softmax");
        QVERIFY2(spec.ok(), spec.ok() ? "" : spec.error().message.c_str());
        PromptInput in;
        in.problem = &*spec;
        in.source = spec->seeds.front().text;
        const auto prompt = buildPrompt(in, 100000);
        QVERIFY(prompt.system.find("```python") != std::string::npos);
        QVERIFY(prompt.system.find("class ModelNew(torch.nn.Module)") != std::string::npos);
        QVERIFY(prompt.system.find("`torch.softmax`") != std::string::npos); // the forbidden op, named
        QVERIFY(prompt.user.find("class Model(") != std::string::npos);      // the reference module
        QVERIFY(prompt.user.find("```python\n") != std::string::npos);
        QVERIFY(prompt.user.find("bf16 rtol") != std::string::npos);
        const std::string reply = "Fused the max and the sum.\n\n```sh\npip install triton\n```\n```python\nimport torch\nclass "
                                  "ModelNew(torch.nn.Module):\n    pass\n```\n";
        auto parsed = parseReply(reply, "ModelNew", {}, "python");
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message.c_str());
        QVERIFY(parsed->code.find("class ModelNew") != std::string::npos);
        auto bare = parseReply("import torch\nclass ModelNew(torch.nn.Module):\n    pass\n", "ModelNew", {}, "python");
        QVERIFY(bare.ok());
        auto none = parseReply("I would write a Triton kernel.", "ModelNew", {}, "python");
        QVERIFY(!none.ok());
        QVERIFY2(none.error().message.find("```python") != std::string::npos, none.error().message.c_str());
    }

    void promptBudgetCutsTheLeastValuableFirst() {
        auto spec = problem::loadProblem(test::problemDir("saxpy"));
        QVERIFY(spec.ok());
        PromptInput in;
        in.problem = &*spec;
        in.source = "void saxpy(const float* x, const float* z, float* y, int64_t N, float a) { /* ... */ }\n";
        in.params = "UNROLL=4";
        in.hint = "try non-temporal stores";
        for (int i = 0; i < 6; ++i) in.ancestors.push_back({100 + i, "llm", "ok", 1.5, "", std::string(400, 'a')});
        for (int i = 0; i < 6; ++i) in.siblings.push_back({200 + i, "llm", "compile_error", 0, "", std::string(400, 's')});
        KnowledgeSnippet low, high;
        low.title = "low";
        low.text = std::string(800, 'k');
        low.score = 0.1;
        high.title = "high";
        high.text = std::string(800, 'K');
        high.score = 0.9;
        in.knowledge.push_back(low);
        in.knowledge.push_back(high);

        const auto full = buildPrompt(in, 100000);
        QVERIFY(full.cut.empty());
        QVERIFY(full.user.find("try non-temporal stores") != std::string::npos);
        QVERIFY(full.system.find("void saxpy(const float* x, const float* z, float* y, int64_t N, float a)") !=
                std::string::npos);

        const int budget = full.estimatedTokens - 700; // room for some context, not all
        const auto cut = buildPrompt(in, budget);
        QVERIFY(!cut.cut.empty());
        QVERIFY(cut.estimatedTokens <= budget);
        // Siblings go first, the lowest-ranked knowledge before the best one.
        QVERIFY(cut.cut.front().rfind("sibling node", 0) == 0);
        auto pos = [&](const std::string& label) { return std::find(cut.cut.begin(), cut.cut.end(), label) - cut.cut.begin(); };
        if (pos("knowledge: high") < static_cast<long>(cut.cut.size())) QVERIFY(pos("knowledge: low") < pos("knowledge: high"));
        // Essentials stay, whatever the budget.
        const auto tiny = buildPrompt(in, 10);
        QVERIFY(tiny.user.find(in.source) != std::string::npos);
        QVERIFY(tiny.user.find("try non-temporal stores") != std::string::npos);
        QVERIFY(tiny.user.find("## Problem") != std::string::npos);
        QVERIFY(tiny.user.find("sibling") == std::string::npos || tiny.user.find("ssss") == std::string::npos);
    }

    void compileErrorsLeadTheFeedback() {
        auto spec = problem::loadProblem(test::problemDir("saxpy"));
        QVERIFY(spec.ok());
        PromptInput in;
        in.problem = &*spec;
        in.source = "void saxpy() {}";
        eval::EvaluationResult r = eval::failedResult(eval::EvalStatus::CompileError, "the candidate does not compile");
        for (int i = 0; i < 200; ++i) r.buildLog += "In file included from noise.h:" + std::to_string(i) + "\n";
        r.buildLog += "kernel.cpp:3:5: error: 'foo' was not declared in this scope\n";
        in.feedback = r;
        const auto p = buildPrompt(in, 2000);
        QVERIFY(p.user.find("error: 'foo' was not declared") != std::string::npos);
        QVERIFY(std::find(p.cut.begin(), p.cut.end(), "the build log beyond its error lines") != p.cut.end());
    }

    void settingsGuardTheirKeys() {
        QTemporaryDir dir;
        const auto file = std::filesystem::path(dir.path().toStdString()) / "llm.json";
        std::ofstream(file) << R"({"models": [{"name": "gpt", "provider": "openai", "model": "gpt-x", "api_key": "sk-test-123456",
                                  "price_in_per_mtok": 2, "price_out_per_mtok": 8}]})";
        chmod(file.c_str(), 0644);
        auto open = loadSettings(file, true);
        QVERIFY(!open.ok());
        QVERIFY(open.error().message.find("chmod 600") != std::string::npos);
        QVERIFY(open.error().message.find("sk-test") == std::string::npos);
        chmod(file.c_str(), 0600);
        auto ok = loadSettings(file, true);
        QVERIFY2(ok.ok(), ok.ok() ? "" : ok.error().message.c_str());
        auto m = resolveModel(*ok, "gpt");
        QVERIFY(m.ok());
        QCOMPARE(m->apiKey.reveal(), std::string("sk-test-123456"));
        QCOMPARE(m->cost(1'000'000, 500'000), 2.0 + 4.0);
        QCOMPARE(redact("echo sk-test-123456 back", m->apiKey), std::string("echo [redacted] back"));

        QVERIFY(!loadSettings(std::filesystem::path(dir.path().toStdString()) / "none.json", true).ok());
        QVERIFY(loadSettings(std::filesystem::path(dir.path().toStdString()) / "none.json", false).ok());
        std::ofstream(file) << R"({"models": [{"name": "x", "provider": "gemini"}]})";
        auto bad = loadSettings(file, true);
        QVERIFY(!bad.ok());
        QVERIFY(bad.error().message.find("/models/0/provider") != std::string::npos);

        qputenv("KW_TEST_MISSING_KEY", "");
        std::ofstream(file) << R"({"models": [{"name": "needs-key", "api_key_env": "KW_TEST_MISSING_KEY"}]})";
        auto needs = resolveModel(*loadSettings(file, true), "needs-key");
        QVERIFY(!needs.ok());
        QVERIFY(needs.error().message.find("KW_TEST_MISSING_KEY") != std::string::npos);
        auto preset = resolveModel({}, "ollama:qwen2.5-coder");
        QVERIFY(preset.ok());
        QCOMPARE(preset->model, std::string("qwen2.5-coder"));
        QVERIFY(preset->apiKey.empty());
        QVERIFY(!resolveModel({}, "nonsense").ok());
    }

    void retriesBackOffAndHonourRetryAfter() {
        ModelConfig m;
        m.retryBaseS = 1;
        m.retryMaxS = 10;
        std::mt19937_64 rng(7);
        Failure f{FailureKind::Server, "", 503, -1};
        for (int retry = 0; retry < 8; ++retry) {
            const double ceiling = std::min(10.0, std::pow(2.0, retry));
            const double w = LlmClient::backoffSeconds(m, f, retry, rng);
            QVERIFY(w >= 0.5 * ceiling && w <= ceiling);
        }
        f.retryAfterS = 3;
        QCOMPARE(LlmClient::backoffSeconds(m, f, 0, rng), 3.0);
        QCOMPARE(parseRetryAfter("7"), 7.0);
        QVERIFY(parseRetryAfter("soon") < 0);
        QVERIFY(parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT") == 0); // in the past: no wait
        QVERIFY(isRetryable(FailureKind::RateLimited));
        QVERIFY(isRetryable(FailureKind::Truncated));
        QVERIFY(!isRetryable(FailureKind::Unauthorized));
        QVERIFY(!isRetryable(FailureKind::Malformed));
    }
};

QTEST_GUILESS_MAIN(TestLlmParsing)
#include "tst_llm_parsing.moc"
