#include "profile/counter_report.h"

namespace kw::profile {
namespace {

double at(const std::map<std::string, double>& m, const char* key) {
    auto it = m.find(key);
    return it == m.end() ? 0 : it->second;
}

} // namespace

double CounterReport::ipc() const {
    const double c = at(perCall, "cycles");
    return c > 0 ? at(perCall, "instructions") / c : 0;
}

double CounterReport::cacheMissRate() const {
    const double r = at(perCall, "cache_references");
    return r > 0 ? at(perCall, "cache_misses") / r : 0;
}

double CounterReport::coresBusy() const {
    const double clock = at(perCall, "task_clock_ns");
    return secondsPerCall > 0 && clock > 0 ? clock / 1e9 / secondsPerCall : 0;
}

Result<CounterReport> parseCounterReport(const std::string& text) {
    auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return makeError(ErrorCode::ParseError, "profile/counters.json is not a JSON object (the harness's counter step failed)");
    try {
        CounterReport r;
        r.available = j.value("available", false);
        r.reason = j.value("reason", "");
        r.calls = j.value("calls", 0);
        r.threads = j.value("threads", 0);
        r.secondsPerCall = j.value("seconds_per_call", 0.0);
        if (auto it = j.find("per_call"); it != j.end() && it->is_object())
            for (auto e = it->begin(); e != it->end(); ++e)
                if (e->is_number()) r.perCall[e.key()] = e->get<double>();
        if (auto it = j.find("missing"); it != j.end() && it->is_object())
            for (auto e = it->begin(); e != it->end(); ++e)
                if (e->is_string()) r.missing[e.key()] = e->get<std::string>();
        return r;
    } catch (const nlohmann::json::exception& e) {
        return makeError(ErrorCode::ParseError, std::string("malformed profile/counters.json: ") + e.what());
    }
}

nlohmann::json toJson(const CounterReport& r) {
    return {{"available", r.available},
            {"reason", r.reason},
            {"calls", r.calls},
            {"threads", r.threads},
            {"seconds_per_call", r.secondsPerCall},
            {"per_call", r.perCall},
            {"missing", r.missing},
            {"ipc", r.ipc()},
            {"cache_miss_rate", r.cacheMissRate()},
            {"cores_busy", r.coresBusy()}};
}

} // namespace kw::profile
