#include "suite/suite.h"

#include "util/files.h"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

namespace kw::suite {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::optional<double> optNumber(const json& j, const char* key) {
    if (!j.contains(key) || !j[key].is_number()) return std::nullopt;
    return j[key].get<double>();
}

} // namespace

std::string modeName(Mode mode) {
    switch (mode) {
    case Mode::Reference:
        return "reference";
    case Mode::Seeds:
        return "seeds";
    case Mode::Search:
        return "search";
    }
    return "reference";
}

std::optional<Mode> parseMode(const std::string& name) {
    for (Mode m : {Mode::Reference, Mode::Seeds, Mode::Search})
        if (modeName(m) == name) return m;
    return std::nullopt;
}

Result<Suite> loadSuite(const fs::path& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return makeError(ErrorCode::NotFound, dir.string() + ": no such suite folder");
    Suite s;
    s.dir = dir;
    s.name = fs::absolute(dir).filename().string();
    if (fs::exists(dir / "suite.json", ec)) {
        auto text = readTextFile(dir / "suite.json");
        if (!text) return text.error();
        const auto j = json::parse(*text, nullptr, false);
        if (!j.is_object() || !j.contains("problems") || !j["problems"].is_array())
            return makeError(ErrorCode::ParseError, (dir / "suite.json").string() + ": expected {\"name\", \"problems\": [...]}");
        s.name = j.value("name", s.name);
        if (j.contains("not_imported") && j["not_imported"].is_array())
            for (const auto& f : j["not_imported"])
                if (f.is_object())
                    s.notImported.push_back(f.value("file", std::string("?")) + ": " + f.value("error", std::string()));
        for (const auto& p : j["problems"]) {
            if (!p.is_string())
                return makeError(ErrorCode::ParseError, (dir / "suite.json").string() + ": /problems holds a non-string");
            s.problems.push_back(dir / p.get<std::string>());
        }
    } else {
        for (const auto& e : fs::directory_iterator(dir, ec))
            if (e.is_directory() && fs::exists(e.path() / "problem.json")) s.problems.push_back(e.path());
        std::sort(s.problems.begin(), s.problems.end());
    }
    if (s.problems.empty())
        return makeError(ErrorCode::Validation,
                         dir.string() + ": holds no problems (make one with: kernelwright-cli problem import DIR)");
    return s;
}

json toJson(const Entry& e) {
    json j{{"problem", e.problem}, {"status", e.status}, {"wall_s", e.wallS}};
    if (!e.message.empty()) j["message"] = e.message;
    if (e.speedup) j["speedup"] = *e.speedup;
    if (e.speedupCompile) j["speedup_compile"] = *e.speedupCompile;
    if (e.interval) j["speedup_interval"] = {e.interval->first, e.interval->second};
    if (e.searchId) j["search_id"] = e.searchId;
    return j;
}

fs::path runFile(const Suite& suite, Mode mode) {
    return suite.dir / ("suite-run-" + modeName(mode) + ".jsonl");
}

std::vector<Entry> readRun(const fs::path& file) {
    std::vector<Entry> out;
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
        const auto j = json::parse(line, nullptr, false);
        if (!j.is_object() || !j.contains("problem") || !j.contains("status")) continue; // a line torn by a kill
        Entry e;
        e.problem = j.value("problem", "");
        e.status = j.value("status", "");
        e.message = j.value("message", "");
        e.speedup = optNumber(j, "speedup");
        e.speedupCompile = optNumber(j, "speedup_compile");
        if (const auto it = j.find("speedup_interval");
            it != j.end() && it->is_array() && it->size() == 2 && (*it)[0].is_number() && (*it)[1].is_number())
            e.interval = std::pair{(*it)[0].get<double>(), (*it)[1].get<double>()};
        e.wallS = j.value("wall_s", 0.0);
        e.searchId = j.contains("search_id") && j["search_id"].is_number_integer() ? j["search_id"].get<std::int64_t>() : 0;
        // A problem run again (after a failure was fixed) counts once: its last line.
        std::erase_if(out, [&](const Entry& x) { return x.problem == e.problem; });
        out.push_back(std::move(e));
    }
    return out;
}

Status appendRun(const fs::path& file, const Entry& entry) {
    const std::string line = toJson(entry).dump() + "\n";
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return makeError(ErrorCode::Io, file.string() + ": cannot append to the run file");
    // One write of a whole line: a kill leaves whole lines, or a torn last one readRun skips.
    const bool ok = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size()) && ::fsync(fd) == 0;
    ::close(fd);
    if (!ok) return makeError(ErrorCode::Io, file.string() + ": writing the run file failed (disk full?)");
    return {};
}

Metrics metricsOf(const std::vector<Entry>& entries) {
    Metrics m;
    m.problems = static_cast<int>(entries.size());
    double logEager = 0, logCompile = 0;
    int timedEager = 0, timedCompile = 0;
    for (double p : {0.0, 1.0, 1.5, 2.0}) {
        m.fastEager[p] = 0;
        m.fastCompile[p] = 0;
    }
    for (const auto& e : entries) {
        if (!e.correct()) {
            m.failures[e.status].push_back(e.problem + ": " + e.message);
            continue;
        }
        ++m.correct;
        if (e.speedupCompile) ++m.withCompile;
        for (auto& [p, count] : m.fastEager)
            if (p == 0 || (e.speedup && *e.speedup > p)) count += 1;
        for (auto& [p, count] : m.fastCompile)
            if (p == 0 ? true : (e.speedupCompile && *e.speedupCompile > p)) count += 1;
        if (e.speedup && *e.speedup > 0) {
            logEager += std::log(*e.speedup);
            ++timedEager;
        }
        if (e.speedupCompile && *e.speedupCompile > 0) {
            logCompile += std::log(*e.speedupCompile);
            ++timedCompile;
        }
    }
    for (auto* f : {&m.fastEager, &m.fastCompile})
        for (auto& [p, count] : *f) count = m.problems ? count / m.problems : 0;
    if (timedEager) m.geomeanEager = std::exp(logEager / timedEager);
    if (timedCompile) m.geomeanCompile = std::exp(logCompile / timedCompile);
    return m;
}

SelfAgreement selfAgreementOf(const std::vector<Entry>& entries) {
    SelfAgreement a;
    for (const auto& e : entries) {
        if (!e.correct() || !e.speedup || *e.speedup <= 0) continue;
        ++a.timed;
        if (agreesWithItself(*e.speedup, 0.01)) ++a.within1;
        if (agreesWithItself(*e.speedup)) ++a.within3;
        if (e.interval) ++a.withInterval;
        if (intervalHoldsOne(e.interval)) ++a.intervalHoldsOne;
        // Furthest as a ratio: 0.75x is further from 1.00 than 1.30x.
        if (a.worstProblem.empty() || std::abs(std::log(*e.speedup)) > std::abs(std::log(a.worst))) {
            a.worstProblem = e.problem;
            a.worst = *e.speedup;
        }
    }
    return a;
}

json toJson(const SelfAgreement& a) {
    json j{{"timed", a.timed},
           {"within_1pct", a.within1},
           {"within_3pct", a.within3},
           {"with_interval", a.withInterval},
           {"interval_holds_one", a.intervalHoldsOne}};
    if (!a.worstProblem.empty()) j["worst"] = {{"problem", a.worstProblem}, {"speedup", a.worst}};
    return j;
}

json toJson(const Metrics& m) {
    auto fast = [](const std::map<double, double>& f) {
        json j = json::object();
        for (const auto& [p, v] : f) {
            std::ostringstream key;
            key << "fast_" << p;
            j[key.str()] = v;
        }
        return j;
    };
    json failures = json::object();
    for (const auto& [status, list] : m.failures) failures[status] = list;
    json j{{"problems", m.problems},
           {"correct", m.correct},
           {"correctness_rate", m.problems ? static_cast<double>(m.correct) / m.problems : 0.0},
           {"over_eager", fast(m.fastEager)},
           {"over_torch_compile", fast(m.fastCompile)},
           {"with_torch_compile", m.withCompile},
           {"failures", failures}};
    if (m.geomeanEager) j["geomean_speedup_eager"] = *m.geomeanEager;
    if (m.geomeanCompile) j["geomean_speedup_torch_compile"] = *m.geomeanCompile;
    return j;
}

} // namespace kw::suite
