#include "profile/kernel_breakdown.h"

#include <cxxabi.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>

namespace kw::profile {
namespace {

constexpr std::size_t kMaxEntries = 64;

// CUPTI names a CUDA kernel by its mangled symbol (_Z12rmsnorm_rowsPKfS0_Pflf);
// a reader wants rmsnorm_rows(float const*, ...). Anything else, or a symbol
// that does not demangle, stays as it is. Names are capped before this
// (300 characters), which bounds the demangler's work on a candidate's names.
std::string readable(const std::string& name) {
    if (name.rfind("_Z", 0) != 0) return name;
    int status = 0;
    const std::unique_ptr<char, decltype(&std::free)> out(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status),
                                                          &std::free);
    return status == 0 && out ? std::string(out.get()).substr(0, 300) : name;
}

std::optional<KernelBreakdown> fromJson(const nlohmann::json& j, std::string& why) {
    if (!j.is_object()) {
        why = "not a JSON object";
        return std::nullopt;
    }
    KernelBreakdown b;
    b.source = j.value("source", std::string());
    b.shape = j.value("shape", std::string());
    const auto list = j.value("kernels", nlohmann::json());
    if (!list.is_array()) {
        why = "no \"kernels\" array";
        return std::nullopt;
    }
    for (const auto& e : list) {
        if (!e.is_object() || !e.contains("name") || !e["name"].is_string() || !e.contains("us") || !e["us"].is_number()) {
            why = "an entry without a name and a duration (us)";
            return std::nullopt;
        }
        BreakdownEntry x;
        x.name = readable(e["name"].get<std::string>().substr(0, 300));
        x.kind = e.value("kind", std::string("kernel"));
        if (x.kind != "kernel" && x.kind != "copy" && x.kind != "memset") x.kind = "kernel";
        x.calls = std::max(1, e.value("calls", 1));
        x.us = e["us"].get<double>();
        if (!std::isfinite(x.us) || x.us < 0) {
            why = "an entry with a negative or non-finite duration";
            return std::nullopt;
        }
        b.entries.push_back(std::move(x));
    }
    std::stable_sort(b.entries.begin(), b.entries.end(), [](const auto& a, const auto& c) { return a.us > c.us; });
    if (b.entries.size() > kMaxEntries) b.entries.resize(kMaxEntries);
    int launches = 0;
    double us = 0;
    for (const auto& e : b.entries) launches += e.calls, us += e.us;
    // The judge's totals cover entries past the 64 it keeps; never fewer than listed.
    b.launches = std::max(launches, j.value("launches", 0));
    b.deviceUs = std::max(us, j.value("device_us", 0.0));
    return b;
}

} // namespace

int KernelBreakdown::count(const std::string& kind) const {
    int n = 0;
    for (const auto& e : entries)
        if (e.kind == kind) n += e.calls;
    return n;
}

Result<KernelBreakdown> parseBreakdown(const std::string& text) {
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded())
        return makeError(ErrorCode::ParseError, "profile/breakdown.json is not JSON (the judge's profiling pass failed)");
    std::string why;
    auto b = fromJson(j, why);
    if (!b) return makeError(ErrorCode::ParseError, "malformed profile/breakdown.json: " + why);
    return *b;
}

nlohmann::json toJson(const KernelBreakdown& b) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& e : b.entries) list.push_back({{"name", e.name}, {"kind", e.kind}, {"calls", e.calls}, {"us", e.us}});
    return {{"source", b.source}, {"shape", b.shape}, {"launches", b.launches}, {"device_us", b.deviceUs}, {"kernels", list}};
}

std::optional<KernelBreakdown> breakdownFromJson(const nlohmann::json& j) {
    std::string why;
    return fromJson(j, why);
}

} // namespace kw::profile
