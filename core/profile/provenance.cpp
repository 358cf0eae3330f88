#include "profile/provenance.h"

#include <cctype>
#include <cstdio>

namespace kw::profile {
namespace {

bool identifierChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Whether `word` appears in `text` as a whole identifier.
bool definesName(const std::string& text, const std::string& word) {
    if (word.empty()) return false;
    for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
        const bool before = at == 0 || !identifierChar(text[at - 1]);
        const bool after = at + word.size() >= text.size() || !identifierChar(text[at + word.size()]);
        if (before && after) return true;
    }
    return false;
}

// Names libraries give their kernels: never the candidate's, whatever its
// source mentions (a comment naming cuBLAS's kernel must not claim it).
bool libraryNamespace(const std::string& name) {
    static const char* const prefixes[] = {"at::",        "c10::",       "cub::",       "cutlass::",  "cudnn",
                                           "cublas",      "void at::",   "void cub::",  "void cudnn", "void cutlass::",
                                           "triton_poi_", "triton_red_", "triton_per_", "triton_tem_"};
    for (const char* p : prefixes)
        if (name.rfind(p, 0) == 0) return true;
    return false;
}

} // namespace

std::string kernelBaseName(const std::string& name) {
    std::string s = name;
    if (const auto paren = s.find('('); paren != std::string::npos) s = s.substr(0, paren);
    // Template arguments: cut at the first '<' that follows the name itself.
    int depth = 0;
    std::string flat;
    for (char c : s) {
        if (c == '<')
            ++depth;
        else if (c == '>')
            depth = depth > 0 ? depth - 1 : 0;
        else if (depth == 0)
            flat += c;
    }
    // The last word: past a return type ("void ") and namespaces ("ns::").
    std::size_t end = flat.size();
    while (end > 0 && !identifierChar(flat[end - 1])) --end;
    std::size_t begin = end;
    while (begin > 0 && identifierChar(flat[begin - 1])) --begin;
    return flat.substr(begin, end - begin);
}

Provenance provenanceOf(const KernelBreakdown& b, const std::string& source) {
    Provenance p;
    for (const auto& e : b.entries) {
        if (e.kind != "kernel") {
            p.transferUs += e.us;
            continue;
        }
        const bool own = !libraryNamespace(e.name) && definesName(source, kernelBaseName(e.name));
        if (own) {
            p.ownUs += e.us;
            p.own.push_back(kernelBaseName(e.name));
        } else {
            p.libraryUs += e.us;
            if (p.libraries.size() < 8) p.libraries.push_back(e.name.substr(0, 120));
        }
    }
    return p;
}

double Provenance::ownShare() const {
    const double kernels = ownUs + libraryUs;
    return kernels > 0 ? ownUs / kernels : 0;
}

std::string Provenance::summary() const {
    if (ownUs + libraryUs <= 0) return "no kernel ran on the device";
    char buf[160];
    std::snprintf(buf, sizeof buf, "own kernels %.1f %% of the kernels' device time", 100 * ownShare());
    std::string s = buf;
    if (!own.empty()) {
        s += " (" + own.front();
        if (own.size() > 1) s += " and " + std::to_string(own.size() - 1) + " more";
        s += ")";
    }
    std::snprintf(buf, sizeof buf, "; library %.1f %%", 100 * (1 - ownShare()));
    s += buf;
    if (!libraries.empty()) s += " (" + libraries.front().substr(0, 60) + (libraries.size() > 1 ? ", ..." : "") + ")";
    return s;
}

nlohmann::json toJson(const Provenance& p) {
    return {{"own_us", p.ownUs}, {"library_us", p.libraryUs}, {"transfer_us", p.transferUs}, {"own_share", p.ownShare()},
            {"own", p.own},      {"libraries", p.libraries}};
}

std::optional<Provenance> provenanceFromJson(const nlohmann::json& j) {
    if (!j.is_object() || !j.contains("own_us") || !j["own_us"].is_number() || !j.contains("library_us") ||
        !j["library_us"].is_number())
        return std::nullopt;
    Provenance p;
    p.ownUs = j["own_us"].get<double>();
    p.libraryUs = j["library_us"].get<double>();
    p.transferUs = j.value("transfer_us", 0.0);
    for (const auto& key : {"own", "libraries"}) {
        if (!j.contains(key) || !j[key].is_array()) continue;
        auto& out = std::string(key) == "own" ? p.own : p.libraries;
        for (const auto& n : j[key])
            if (n.is_string()) out.push_back(n.get<std::string>().substr(0, 300));
    }
    return p;
}

} // namespace kw::profile
