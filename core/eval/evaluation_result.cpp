#include "eval/evaluation_result.h"

#include "util/text.h"

#include <array>
#include <cmath>

namespace kw::eval {

namespace {
// The judges' own account of their clock (docs/result-format.md), carried as written.
constexpr const char* kClockKeys[] = {
    "input_sets", "batch",      "handoff_seconds",    "empty_call_seconds", "call_overhead_seconds",
    "cache",      "call_parts", "idle_probe_seconds", "reps_planned",       "device_room_bytes"};
} // namespace

namespace {
constexpr std::array<std::pair<EvalStatus, const char*>, 9> kNames{{
    {EvalStatus::Ok, "ok"},
    {EvalStatus::CompileError, "compile_error"},
    {EvalStatus::RuntimeError, "runtime_error"},
    {EvalStatus::Timeout, "timeout"},
    {EvalStatus::WrongAnswer, "wrong_answer"},
    {EvalStatus::Oom, "oom"},
    {EvalStatus::SandboxViolation, "sandbox_violation"},
    {EvalStatus::InfraError, "infra_error"},
    {EvalStatus::SynthError, "synth_error"},
}};

// The harness writes NaN/inf as strings to stay valid JSON.
double number(const nlohmann::json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return 0;
    if (it->is_number()) return it->get<double>();
    if (it->is_string()) {
        const auto s = it->get<std::string>();
        if (s == "nan") return std::nan("");
        if (s == "inf") return INFINITY;
        if (s == "-inf") return -INFINITY;
    }
    return 0;
}

TimingStats readStats(const nlohmann::json& j) {
    TimingStats s;
    s.name = j.value("name", "");
    s.median = number(j, "median");
    s.p10 = number(j, "p10");
    s.p90 = number(j, "p90");
    s.mean = number(j, "mean");
    s.cv = number(j, "cv");
    s.min = number(j, "min");
    s.max = number(j, "max");
    if (j.contains("samples"))
        for (const auto& v : j["samples"]) s.samples.push_back(v.is_number() ? v.get<double>() : 0.0);
    return s;
}

nlohmann::json writeStats(const TimingStats& s) {
    return {{"name", s.name}, {"median", s.median}, {"p10", s.p10}, {"p90", s.p90},        {"mean", s.mean},
            {"cv", s.cv},     {"min", s.min},       {"max", s.max}, {"samples", s.samples}};
}

nlohmann::json finite(double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
}
} // namespace

std::string statusName(EvalStatus status) {
    for (const auto& [s, n] : kNames)
        if (s == status) return n;
    return "infra_error";
}

std::optional<EvalStatus> parseStatus(const std::string& name) {
    for (const auto& [s, n] : kNames)
        if (name == n) return s;
    return std::nullopt;
}

EvaluationResult failedResult(EvalStatus status, std::string message) {
    EvaluationResult r;
    r.status = status;
    r.message = std::move(message);
    return r;
}

Result<EvaluationResult> parseResultJson(const std::string& text) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        return makeError(ErrorCode::ParseError, std::string("result.json is not valid JSON: ") + e.what());
    }
    if (!j.is_object()) return makeError(ErrorCode::ParseError, "result.json: expected an object");
    EvaluationResult r;
    try {
        auto status = parseStatus(j.value("status", ""));
        if (!status) return makeError(ErrorCode::ParseError, "result.json: unknown status \"" + j.value("status", "") + "\"");
        r.status = *status;
        r.message = j.value("message", "");
        if (j.contains("speedup") && j["speedup"].is_number()) r.speedup = j["speedup"].get<double>();
        r.implausibleSpeedup = j.value("implausible_speedup", false);
        r.buildLog = j.value("build_log", "");
        if (j.contains("env")) r.env = j["env"];
        if (j.contains("input_secret") && j["input_secret"].is_string()) r.inputSecret = j["input_secret"].get<std::string>();
        if (j.contains("phase_seconds")) r.phaseSeconds = j["phase_seconds"];
        r.compileSeconds = j.value("compile_seconds", 0.0);
        r.wallSeconds = j.value("wall_seconds", 0.0);
        r.cached = j.value("cached", false);
        for (const auto& c : j.value("checks", nlohmann::json::array())) {
            CheckCase cc;
            cc.shape = c.value("shape", "");
            cc.sizes = c.value("sizes", nlohmann::json::object());
            cc.seed = c.value("seed", 0ull);
            cc.output = c.value("output", "");
            cc.passed = c.value("passed", false);
            cc.kind = c.value("kind", "");
            cc.detail = c.value("detail", "");
            cc.elements = c.value("elements", 0ll);
            cc.mismatches = c.value("mismatches", 0ll);
            cc.unwritten = c.value("unwritten", 0ll);
            cc.nondeterministic = c.value("nondeterministic", 0ll);
            cc.maxAbsError = number(c, "max_abs_error");
            cc.maxRelError = number(c, "max_rel_error");
            if (c.contains("first_mismatch")) {
                cc.firstIndex = c["first_mismatch"].value("index", 0ll);
                cc.firstExpected = number(c["first_mismatch"], "expected");
                cc.firstActual = number(c["first_mismatch"], "actual");
            }
            r.checks.push_back(std::move(cc));
        }
        for (const auto& t : j.value("timing", nlohmann::json::array())) {
            TimingCase tc;
            tc.shape = t.value("shape", "");
            tc.sizes = t.value("sizes", nlohmann::json::object());
            tc.bytes = number(t, "bytes");
            tc.flops = number(t, "flops");
            tc.gathers = number(t, "gathers");
            tc.speedup = number(t, "speedup");
            tc.warmup = t.value("warmup", 0);
            tc.reps = t.value("reps", 0);
            if (const auto it = t.find("speedup_interval");
                it != t.end() && it->is_array() && it->size() == 2 && (*it)[0].is_number() && (*it)[1].is_number())
                tc.speedupInterval = {(*it)[0].get<double>(), (*it)[1].get<double>()};
            if (t.contains("candidate")) tc.candidate = readStats(t["candidate"]);
            for (const auto& b : t.value("baselines", nlohmann::json::array())) tc.baselines.push_back(readStats(b));
            if (t.contains("speedups") && t["speedups"].is_object())
                for (const auto& [name, v] : t["speedups"].items())
                    if (v.is_number() && v.get<double>() > 0) tc.speedups[name] = v.get<double>();
            for (std::size_t b = 0; b < tc.baselines.size(); ++b) {
                const auto& stats = tc.baselines[b];
                if (tc.speedups.count(stats.name)) continue;
                if (b == 0 && tc.speedup > 0)
                    tc.speedups[stats.name] = tc.speedup;
                else if (tc.candidate.median > 0 && stats.median > 0)
                    tc.speedups[stats.name] = stats.median / tc.candidate.median;
            }
            for (const char* key : kClockKeys)
                if (t.contains(key)) tc.clock[key] = t[key];
            r.timing.push_back(std::move(tc));
        }
    } catch (const nlohmann::json::exception& e) {
        return makeError(ErrorCode::ParseError, std::string("result.json: unexpected content: ") + e.what());
    }
    return r;
}

double TimingCase::speedupOver(const std::string& baseline) const {
    const auto it = speedups.find(baseline);
    return it == speedups.end() ? 0 : it->second;
}

std::optional<double> EvaluationResult::speedupOverBestBaseline() const {
    double logSum = 0;
    int n = 0;
    for (const auto& t : timing) {
        double least = 0;
        for (const auto& [name, s] : t.speedups)
            if (s > 0 && (least == 0 || s < least)) least = s;
        if (least <= 0) continue;
        logSum += std::log(least);
        ++n;
    }
    if (n == 0) return std::nullopt;
    return std::exp(logSum / n);
}

std::string EvaluationResult::bestBaselineName() const {
    std::map<std::string, int> wins;
    for (const auto& t : timing) {
        std::string best;
        double least = 0;
        for (const auto& [name, s] : t.speedups)
            if (s > 0 && (least == 0 || s < least)) least = s, best = name;
        if (!best.empty()) ++wins[best];
    }
    std::string name;
    int most = 0;
    for (const auto& [n, w] : wins)
        if (w > most) most = w, name = n;
    return name;
}

nlohmann::json toJson(const EvaluationResult& r) {
    nlohmann::json j{{"schema", 1},
                     {"status", statusName(r.status)},
                     {"message", validUtf8(r.message)},
                     {"speedup", r.speedup ? nlohmann::json(*r.speedup) : nlohmann::json(nullptr)},
                     {"implausible_speedup", r.implausibleSpeedup},
                     {"build_log", validUtf8(r.buildLog)},
                     {"env", r.env},
                     {"input_secret", validUtf8(r.inputSecret)},
                     {"phase_seconds", r.phaseSeconds},
                     {"compile_seconds", r.compileSeconds},
                     {"wall_seconds", r.wallSeconds},
                     {"cached", r.cached}};
    auto checks = nlohmann::json::array();
    for (const auto& c : r.checks) {
        nlohmann::json cj{{"shape", c.shape},
                          {"sizes", c.sizes},
                          {"seed", c.seed},
                          {"output", c.output},
                          {"passed", c.passed},
                          {"kind", c.kind},
                          {"elements", c.elements},
                          {"mismatches", c.mismatches},
                          {"unwritten", c.unwritten},
                          {"nondeterministic", c.nondeterministic},
                          {"max_abs_error", finite(c.maxAbsError)},
                          {"max_rel_error", finite(c.maxRelError)}};
        if (!c.detail.empty()) cj["detail"] = validUtf8(c.detail);
        if (c.firstIndex)
            cj["first_mismatch"] = {
                {"index", *c.firstIndex}, {"expected", finite(c.firstExpected)}, {"actual", finite(c.firstActual)}};
        checks.push_back(cj);
    }
    j["checks"] = checks;
    auto timing = nlohmann::json::array();
    for (const auto& t : r.timing) {
        auto baselines = nlohmann::json::array();
        for (const auto& b : t.baselines) baselines.push_back(writeStats(b));
        timing.push_back({{"shape", t.shape},
                          {"sizes", t.sizes},
                          {"bytes", t.bytes},
                          {"flops", t.flops},
                          {"gathers", t.gathers},
                          {"speedup", t.speedup},
                          {"speedups", t.speedups},
                          {"warmup", t.warmup},
                          {"reps", t.reps},
                          {"candidate", writeStats(t.candidate)},
                          {"baselines", baselines}});
        if (t.speedupInterval.second > 0) timing.back()["speedup_interval"] = {t.speedupInterval.first, t.speedupInterval.second};
        if (t.clock.is_object())
            for (const auto& [key, value] : t.clock.items()) timing.back()[key] = value;
    }
    j["timing"] = timing;
    return j;
}

} // namespace kw::eval
