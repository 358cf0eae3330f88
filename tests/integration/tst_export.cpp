// The exports of a real LLM search (the CLI against the scripted server): the
// trajectory records of both formats follow docs/export-format.md, the filters
// hold, the best-kernel folder's command evaluates the kernel again, and no
// API key reaches any export, even one a reply echoed into the workspace.
#include "cli_runner.h"
#include "llm_server_fixture.h"
#include "saxpy_replies.h"

#include <QtCore/QFileInfo>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <regex>

#include <sys/stat.h>

#include <fstream>
#include <iterator>
#include <sstream>

using namespace kw;
using nlohmann::json;

namespace {

// The model's own key (settings file, sent as a Bearer header), another
// provider's key in the environment, and a token that only looks like one.
const char* kSettingsKey = "sk-export-settings-key-5a4b3c2d1e";
const char* kEnvKey = "env-anthropic-key-0f9e8d7c6b5a";
const char* kHeaderToken = "zzTokenOnlyInAHeader0042";

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<json> jsonLines(const QString& text) {
    std::vector<json> out;
    std::istringstream in(text.toStdString());
    for (std::string line; std::getline(in, line);) out.push_back(json::parse(line, nullptr, false));
    return out;
}

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

} // namespace

class TestExport : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        // A reply that leaks: the other provider's key and an Authorization header.
        const std::string leak = "Debug note: my request used x-api-key: " + std::string(kEnvKey) +
                                 " and Authorization: Bearer " + kHeaderToken + " and " + kSettingsKey + "\n\n";
        server_ = std::make_unique<test::LlmServer>(
            json{{"replies",
                  json::array({{{"text", leak + test::saxpyKernelReply(0, true)}, {"input_tokens", 1000}, {"output_tokens", 200}},
                               {{"text", "No code this time."}, {"input_tokens", 900}, {"output_tokens", 20}},
                               {{"text", test::saxpyKernelReply(4, false)}, {"input_tokens", 1100}, {"output_tokens", 210}}})},
                 {"default", {{"text", test::saxpyKernelReply(8, false)}, {"input_tokens", 1000}, {"output_tokens", 200}}}});
        QVERIFY(server_->ready());
        config_ = dir() + "/llm.json";
        json cfg{{"models", json::array({{{"name", "scripted"},
                                          {"provider", "openai"},
                                          {"base_url", server_->baseUrl("/v1")},
                                          {"model", "scripted-model"},
                                          {"api_key", kSettingsKey},
                                          {"max_retries", 1},
                                          {"retry_base_s", 0.05}}})}};
        std::ofstream(config_) << cfg.dump(2);
        chmod(config_.c_str(), 0600);
        db_ = qs(dir() + "/ws.db");
        env_ = QProcessEnvironment::systemEnvironment();
        env_.insert("ANTHROPIC_API_KEY", kEnvKey);
        env_.insert("KW_LLM_CONFIG", qs(config_));
        const auto run = test::runCli({"--db", db_, "search", "start", "--problem", qs(test::problemDir("saxpy").string()),
                                       "--synth", "llm", "--model", "scripted", "--budget", "5", "--workers", "1",
                                       "--llm-concurrency", "1", "--time-budget", "0.05"},
                                      300000, env_);
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        // The echoed foreign key is in the workspace: the exports have something to scrub.
        QVERIFY(readAll(db_.toStdString()).find(kEnvKey) != std::string::npos ||
                readAll(db_.toStdString() + "-wal").find(kEnvKey) != std::string::npos);
    }

    void jsonlRecordsOfARealSearch() {
        const auto run = test::runCli({"--db", db_, "export", "trajectories", "1", "--format", "jsonl"}, 60000, env_);
        QVERIFY2(run.code == 0, qPrintable(run.err));
        const auto records = jsonLines(run.out);
        QCOMPARE(records.size(), std::size_t{4}); // four LLM expansions, all evaluated (one without a kernel)
        int failed = 0;
        for (const auto& r : records) {
            QVERIFY2(r.is_object(), qPrintable(run.out));
            for (const char* s :
                 {"problem", "provider", "model", "system", "prompt", "reply", "reasoning", "status", "message", "created_at"})
                QVERIFY2(r.contains(s) && r[s].is_string(), s);
            for (const char* i :
                 {"schema_version", "search_id", "call_id", "node_id", "parent_node_id", "input_tokens", "output_tokens"})
                QVERIFY2(r.contains(i) && r[i].is_number_integer(), i);
            QVERIFY(r["reward"].is_number() && r["cost_usd"].is_number() && r["correct"].is_boolean() && r["params"].is_object());
            QVERIFY(r["prompt"].get<std::string>().find("## Problem") != std::string::npos);
            QVERIFY(r["system"].get<std::string>().find("exactly one fenced code block") != std::string::npos);
            if (r["correct"].get<bool>())
                QVERIFY(r["speedup"].is_number() && r["reward"] == r["speedup"]);
            else {
                ++failed;
                QCOMPARE(r["reward"].get<double>(), 0.0);
            }
        }
        QCOMPARE(failed, 1);
        QCOMPARE(records[1]["status"].get<std::string>(), std::string("synth_error"));
        QVERIFY(run.err.contains("4 record(s)"));
    }

    void chatRecordsAndFilters() {
        const QString out = qs(dir() + "/chat.jsonl");
        const auto run = test::runCli(
            {"--db", db_, "export", "trajectories", "1", "--format", "openai-chat", "--correct-only", "--out", out}, 60000, env_);
        QVERIFY2(run.code == 0, qPrintable(run.err));
        const auto records = jsonLines(qs(readAll(out.toStdString())));
        QCOMPARE(records.size(), std::size_t{3});
        for (const auto& r : records) {
            const auto& m = r["messages"];
            QCOMPARE(m.size(), std::size_t{3});
            QCOMPARE(m[0]["role"].get<std::string>(), std::string("system"));
            QCOMPARE(m[1]["role"].get<std::string>(), std::string("user"));
            QCOMPARE(m[2]["role"].get<std::string>(), std::string("assistant"));
            QVERIFY(m[2]["content"].get<std::string>().find("```cpp") != std::string::npos);
            QVERIFY(r["metadata"]["correct"].get<bool>() && r["metadata"]["reward"].get<double>() > 0);
        }
        // A bar no kernel reaches leaves nothing; a bad format or id is a usage error.
        const auto none =
            test::runCli({"--db", db_, "export", "trajectories", "1", "--format", "jsonl", "--min-speedup", "1e9"}, 60000, env_);
        QCOMPARE(none.code, 0);
        QVERIFY(none.out.isEmpty());
        QCOMPARE(test::runCli({"--db", db_, "export", "trajectories", "1", "--format", "csv"}, 60000, env_).code, 2);
        QCOMPARE(test::runCli({"--db", db_, "export", "trajectories", "9", "--format", "jsonl"}, 60000, env_).code, 2);
    }

    void bestKernelFolderVerifiesAgain() {
        const auto out = dir() + "/best";
        const auto run = test::runCli({"--db", db_, "export", "best", "1", "--out", qs(out)}, 60000, env_);
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        const auto readme = readAll(out + "/README.md");
        for (const char* part : {"# saxpy: the best kernel of search 1", "## Timings", "| shape |", "reference", "## Machine",
                                 "- compiler:", "## Verify it again", "kernelwright-cli eval --problem "})
            QVERIFY2(readme.find(part) != std::string::npos, part);
        QDir folder(qs(out));
        const auto kernels = folder.entryList({"*.cpp"}, QDir::Files);
        QCOMPARE(kernels.size(), 1);
        QVERIFY(readAll(out + "/" + kernels[0].toStdString()).find("#define UNROLL") != std::string::npos);
        // The README's command, as written, with the CLI on the PATH: the kernel is correct.
        const auto begin = readme.find("```sh\n") + 6;
        const auto command = readme.substr(begin, readme.find('\n', begin) - begin);
        QVERIFY(command.find(kernels[0].toStdString()) != std::string::npos);
        QProcess shell;
        auto env = env_;
        env.insert("PATH", QFileInfo(test::cliPath()).absolutePath() + ":" + env.value("PATH"));
        env.insert("XDG_DATA_HOME", qs(dir() + "/verify-data")); // its own result cache: a real evaluation
        shell.setProcessEnvironment(env);
        shell.start("bash", {"-c", qs(command + " --time-budget 0.05")});
        QVERIFY(shell.waitForFinished(300000));
        QVERIFY2(shell.exitCode() == 0, shell.readAll().constData());
    }

    void reportOfARealSearch() {
        const auto out = dir() + "/report.html";
        const auto run = test::runCli({"--db", db_, "export", "report", "1", "--out", qs(out)}, 60000, env_);
        QVERIFY2(run.code == 0, qPrintable(run.err));
        const auto html = readAll(out);
        QVERIFY(html.rfind("<!DOCTYPE html>", 0) == 0);
        QVERIFY(html.find("<h1>Search 1: saxpy</h1>") != std::string::npos);
        QVERIFY(html.find("<svg") != std::string::npos && html.find("<circle") != std::string::npos);
        QVERIFY(html.find("Top candidates") != std::string::npos);
        // Provenance is a GPU profile's: a CPU search's nodes read "-".
        QVERIFY(html.find("<th>provenance</th>") != std::string::npos && html.find("<td>-</td>") != std::string::npos);
        QVERIFY(html.find("Best kernel (node ") != std::string::npos);
        // The machine and compiler the best was measured with, its times shape
        // by shape with the reference beside them, and each top node's interval and parent.
        QVERIFY(html.find("<h2>Where it was measured</h2>") != std::string::npos);
        QVERIFY(html.find("<th>compiler</th>") != std::string::npos && html.find("<th>flags</th>") != std::string::npos);
        QVERIFY(html.find("<h2>Best node, shape by shape</h2>") != std::string::npos);
        QVERIFY(html.find("<th>reference median (CV)</th>") != std::string::npos);
        const auto shapes = html.substr(html.find("<h2>Best node, shape by shape</h2>"), 900);
        QVERIFY2(
            std::regex_search(
                shapes, std::regex("<td>large</td>.*x \\(([0-9.]+-[0-9.]+|no interval: too few rounds to bound it)\\)</td>")),
            shapes.c_str());
        // Each top row: its number, its parent (#N, or "(root)" for a seed), speedup and interval.
        QVERIFY(html.find("<th>parent</th><th>speedup</th><th>95 % interval</th>") != std::string::npos);
        QVERIFY(std::regex_search(html, std::regex("<tr><td>#[0-9]+</td><td>(#[0-9]+|\\(root\\))</td><td>[0-9.]+x</td>"
                                                   "<td>([0-9.]+-[0-9.]+|-)</td>")));
        QVERIFY2(html.find("src=\"http") == std::string::npos && html.find("<script") == std::string::npos,
                 "the report is self-contained");
        // Bad input: a search that is not there, no --out.
        const auto missing = test::runCli({"--db", db_, "export", "report", "9", "--out", qs(dir() + "/none.html")}, 60000, env_);
        QCOMPARE(missing.code, 2);
        QVERIFY2(missing.err.contains("9"), qPrintable(missing.err));
        QCOMPARE(test::runCli({"--db", db_, "export", "report", "1"}, 60000, env_).code, 2);
    }

    void noKeyInAnyExport() {
        const auto best = dir() + "/best-for-keys";
        QCOMPARE(test::runCli({"--db", db_, "export", "best", "1", "--out", qs(best)}, 60000, env_).code, 0);
        QCOMPARE(
            test::runCli({"--db", db_, "export", "report", "1", "--out", qs(dir() + "/report-for-keys.html")}, 60000, env_).code,
            0);
        QCOMPARE(test::runCli({"--db", db_, "search", "export", "1", "--best", qs(dir() + "/old-export.cpp")}, 60000, env_).code,
                 0);
        std::vector<std::string> texts{readAll(dir() + "/old-export.cpp"), readAll(dir() + "/report-for-keys.html")};
        for (const auto& f : QDir(qs(best)).entryList(QDir::Files)) texts.push_back(readAll(best + "/" + f.toStdString()));
        // Also without the keys in sight (another shell): the header net still holds.
        auto bare = QProcessEnvironment::systemEnvironment();
        bare.remove("ANTHROPIC_API_KEY");
        bare.insert("XDG_CONFIG_HOME", qs(dir() + "/empty-config"));
        for (const auto& e : {env_, bare})
            for (const char* format : {"jsonl", "openai-chat"}) {
                const auto run = test::runCli({"--db", db_, "export", "trajectories", "1", "--format", format}, 60000, e);
                QCOMPARE(run.code, 0);
                QVERIFY(run.out.contains("[redacted]"));
                texts.push_back(run.out.toStdString() + run.err.toStdString());
            }
        for (const auto& text : texts) {
            QVERIFY(!text.empty());
            for (const char* secret : {kSettingsKey, kEnvKey, kHeaderToken})
                QVERIFY2(text.find(secret) == std::string::npos, secret);
        }
    }

  private:
    std::string dir() const { return dir_.path().toStdString(); }

    QTemporaryDir dir_;
    std::unique_ptr<test::LlmServer> server_;
    std::string config_;
    QString db_;
    QProcessEnvironment env_;
};

QTEST_GUILESS_MAIN(TestExport)
#include "tst_export.moc"
