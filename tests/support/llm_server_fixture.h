#pragma once
// Starts the scripted LLM test server (tests/support/llm_test_server.cpp) on
// 127.0.0.1 with a script of replies and faults, and stops it at scope exit.
#include "test_support.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QFile>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtCore/QThread>

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

namespace kw::test {

class LlmServer {
  public:
    explicit LlmServer(const nlohmann::json& script) {
        const auto dir = std::string(dir_.path().toStdString());
        std::ofstream(dir + "/script.json") << script.dump(2);
        const char* exe = std::getenv("KW_LLM_TEST_SERVER");
        process_.start(QString::fromUtf8(exe ? exe : "llm_test_server"),
                       {"--script", QString::fromStdString(dir + "/script.json"), "--port-file",
                        QString::fromStdString(dir + "/port"), "--log", QString::fromStdString(dir + "/requests.log")});
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 10000 && port_ == 0) {
            QFile f(QString::fromStdString(dir + "/port"));
            if (f.open(QIODevice::ReadOnly))
                port_ = f.readAll().trimmed().toInt();
            else
                QThread::msleep(20);
        }
    }
    ~LlmServer() {
        process_.kill();
        process_.waitForFinished(3000);
    }

    bool ready() const { return port_ > 0; }
    int port() const { return port_; }
    std::string baseUrl(const std::string& suffix = "") const { return "http://127.0.0.1:" + std::to_string(port_) + suffix; }
    std::string dir() const { return dir_.path().toStdString(); }

    // Every request the server received, in order.
    std::vector<nlohmann::json> requests() const {
        std::vector<nlohmann::json> out;
        std::ifstream in(dir() + "/requests.log");
        std::string line;
        while (std::getline(in, line))
            if (!line.empty()) out.push_back(nlohmann::json::parse(line, nullptr, false));
        return out;
    }

  private:
    QTemporaryDir dir_;
    QProcess process_;
    int port_ = 0;
};

} // namespace kw::test
