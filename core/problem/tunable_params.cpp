#include "problem/tunable_params.h"
#include "util/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>
#include <optional>
#include <regex>
#include <sstream>

namespace kw::problem {
namespace {

bool parseInt(const std::string& text, long long& out) {
    try {
        std::size_t used = 0;
        out = std::stoll(text, &used);
        return used == text.size();
    } catch (const std::exception&) {
        return false;
    }
}

constexpr unsigned long long kMaxRangeValues = 1u << 16;
// The regexes below recurse once per character (libstdc++), so they only see
// declaration lines, and those are kept short.
constexpr std::size_t kMaxDeclarationLength = 1000;

// The text after "@kw-param " when `line` is a declaration: blanks, `//` (C++,
// CUDA) or `#` (Python), blanks, "@kw-param", at least one blank.
std::optional<std::string_view> declarationBody(std::string_view line) {
    constexpr std::string_view blanks = " \t\r\f\v", tag = "@kw-param";
    std::size_t i = line.find_first_not_of(blanks);
    if (i == std::string_view::npos) return std::nullopt;
    if (line.substr(i, 2) == "//")
        i += 2;
    else if (line[i] == '#')
        i += 1;
    else
        return std::nullopt;
    i = line.find_first_not_of(blanks, i);
    if (i == std::string_view::npos || line.substr(i, tag.size()) != tag) return std::nullopt;
    i += tag.size();
    if (i >= line.size() || blanks.find(line[i]) == std::string_view::npos) return std::nullopt; // "@kw-paramX"
    const std::size_t body = line.find_first_not_of(blanks, i);
    return body == std::string_view::npos ? std::string_view{} : line.substr(body);
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts;
    std::string part;
    std::istringstream in(s);
    while (std::getline(in, part, sep)) parts.push_back(trim(part));
    return parts;
}

} // namespace

std::vector<std::string> ParamDomain::values() const {
    std::vector<std::string> out;
    switch (kind) {
    case Kind::IntSet:
        for (auto v : ints) out.push_back(std::to_string(v));
        break;
    case Kind::IntRange:
        for (long long v = ints[0];; ++v) { // stops before ++v can pass INT64_MAX
            out.push_back(std::to_string(v));
            if (v >= ints[1]) break;
        }
        break;
    case Kind::Bool:
        out = {"false", "true"};
        break;
    case Kind::Enum:
        out = labels;
        break;
    }
    return out;
}

std::size_t ParamDomain::cardinality() const {
    switch (kind) {
    case Kind::IntSet:
        return ints.size();
    case Kind::IntRange: // unsigned: the distance between two int64 values may not fit in one
        return static_cast<std::size_t>(static_cast<unsigned long long>(ints[1]) - static_cast<unsigned long long>(ints[0]) + 1);
    case Kind::Bool:
        return 2;
    case Kind::Enum:
        return labels.size();
    }
    return 0;
}

bool ParamDomain::contains(const std::string& value) const {
    long long v = 0;
    switch (kind) {
    case Kind::IntSet:
        return parseInt(value, v) && std::find(ints.begin(), ints.end(), v) != ints.end();
    case Kind::IntRange:
        return parseInt(value, v) && v >= ints[0] && v <= ints[1];
    case Kind::Bool:
        return value == "true" || value == "false";
    case Kind::Enum:
        return std::find(labels.begin(), labels.end(), value) != labels.end();
    }
    return false;
}

std::string ParamDomain::describe() const {
    std::string s;
    switch (kind) {
    case Kind::IntSet:
        for (std::size_t i = 0; i < ints.size(); ++i) s += (i ? " | " : "") + std::to_string(ints[i]);
        return s;
    case Kind::IntRange:
        return std::to_string(ints[0]) + ".." + std::to_string(ints[1]);
    case Kind::Bool:
        return "bool";
    case Kind::Enum:
        s = "enum(";
        for (std::size_t i = 0; i < labels.size(); ++i) s += (i ? ", " : "") + labels[i];
        return s + ")";
    }
    return s;
}

const ParamDomain* ParamSpace::find(const std::string& name) const {
    for (const auto& p : params)
        if (p.name == name) return &p;
    return nullptr;
}

ParamAssignment ParamSpace::defaults() const {
    ParamAssignment a;
    for (const auto& p : params) a[p.name] = p.defaultValue;
    return a;
}

std::uint64_t ParamSpace::size() const {
    std::uint64_t total = 1;
    for (const auto& p : params) {
        const auto c = p.cardinality();
        if (c != 0 && total > std::numeric_limits<std::uint64_t>::max() / c) return std::numeric_limits<std::uint64_t>::max();
        total *= c;
    }
    return total;
}

Result<ParamAssignment> ParamSpace::complete(const ParamAssignment& partial) const {
    ParamAssignment out = defaults();
    for (const auto& [name, value] : partial) {
        const auto* domain = find(name);
        if (!domain) {
            std::string known;
            for (const auto& p : params) known += (known.empty() ? "" : ", ") + p.name;
            return makeError(ErrorCode::InvalidArgument,
                             "unknown parameter '" + name + "'; the candidate declares: " +
                                 (known.empty() ? "none (add '// @kw-param NAME: values' lines)" : known));
        }
        if (!domain->contains(value))
            return makeError(ErrorCode::InvalidArgument,
                             "parameter " + name + "=" + value + " is outside its domain " + domain->describe());
        out[name] = value;
    }
    return out;
}

Result<ParamSpace> parseParamDeclarations(const std::string& source, const std::string& origin) {
    ParamSpace space;
    std::istringstream in(source);
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        const auto declared = declarationBody(line);
        if (!declared) continue;
        const std::string where = origin + ":" + std::to_string(lineNo) + ": ";
        if (line.size() > kMaxDeclarationLength)
            return makeError(ErrorCode::ParseError, where + "@kw-param line longer than " +
                                                        std::to_string(kMaxDeclarationLength) +
                                                        " characters; declare fewer values");
        const std::string body(*declared);
        const auto colon = body.find(':');
        if (colon == std::string::npos)
            return makeError(ErrorCode::ParseError, where + "expected '@kw-param NAME: domain [= default]'");
        ParamDomain d;
        d.line = lineNo;
        d.name = trim(body.substr(0, colon));
        if (!isIdentifier(d.name))
            return makeError(ErrorCode::ParseError, where + "'" + d.name + "' is not a valid C identifier");
        if (space.find(d.name)) return makeError(ErrorCode::ParseError, where + "parameter " + d.name + " declared twice");
        std::string rest = body.substr(colon + 1);
        std::string def;
        if (const auto eq = rest.find('='); eq != std::string::npos) {
            def = trim(rest.substr(eq + 1));
            rest = rest.substr(0, eq);
        }
        const std::string domainText = trim(rest);
        if (domainText.empty())
            return makeError(ErrorCode::ParseError,
                             where + "parameter " + d.name +
                                 " has no domain; expected 'a | b | c', 'lo..hi', 'bool' or 'enum(x, y)' after ':'");
        static const std::regex range(R"(^(-?\d+)\s*\.\.\s*(-?\d+)$)");
        static const std::regex enumRe(R"(^enum\s*\((.*)\)$)");
        std::smatch dm;
        if (domainText == "bool") {
            d.kind = ParamDomain::Kind::Bool;
        } else if (std::regex_match(domainText, dm, range)) {
            d.kind = ParamDomain::Kind::IntRange;
            long long lo = 0, hi = 0;
            if (!parseInt(dm[1], lo) || !parseInt(dm[2], hi))
                return makeError(ErrorCode::ParseError, where + "range " + domainText + " has a bound outside 64-bit integers");
            if (lo > hi) return makeError(ErrorCode::ParseError, where + "empty range " + domainText);
            // The tuner lists every value of a domain, and values() counts up to hi.
            if (static_cast<unsigned long long>(hi) - static_cast<unsigned long long>(lo) >= kMaxRangeValues)
                return makeError(ErrorCode::ParseError, where + "range " + domainText + " has more than " +
                                                            std::to_string(kMaxRangeValues) +
                                                            " values; narrow it or list the values to try (a | b | c)");
            d.ints = {lo, hi};
        } else if (std::regex_match(domainText, dm, enumRe)) {
            d.kind = ParamDomain::Kind::Enum;
            for (const auto& label : split(dm[1], ',')) {
                if (!isIdentifier(label))
                    return makeError(ErrorCode::ParseError, where + "enum label '" + label + "' is not an identifier");
                d.labels.push_back(label);
            }
            if (d.labels.empty()) return makeError(ErrorCode::ParseError, where + "enum() needs at least one label");
        } else {
            d.kind = ParamDomain::Kind::IntSet;
            for (const auto& item : split(domainText, '|')) {
                long long v = 0;
                if (!parseInt(item, v))
                    return makeError(ErrorCode::ParseError, where + "cannot read domain '" + domainText +
                                                                "': expected 'a | b | c', 'lo..hi', 'bool' or 'enum(x, y)'");
                if (std::find(d.ints.begin(), d.ints.end(), v) == d.ints.end()) d.ints.push_back(v);
            }
        }
        d.defaultValue = def.empty() ? d.values().front() : def;
        if (!d.contains(d.defaultValue))
            return makeError(ErrorCode::ParseError, where + "default " + d.defaultValue + " is not in " + d.describe());
        space.params.push_back(std::move(d));
    }
    return space;
}

std::vector<std::string> paramDefines(const ParamSpace& space, const ParamAssignment& assignment) {
    std::vector<std::string> defs;
    for (const auto& [name, value] : assignment) {
        const auto* d = space.find(name);
        if (d && d->kind == ParamDomain::Kind::Bool) {
            defs.push_back("-D" + name + "=" + (value == "true" ? "1" : "0"));
        } else if (d && d->kind == ParamDomain::Kind::Enum) {
            const auto index = std::find(d->labels.begin(), d->labels.end(), value) - d->labels.begin();
            defs.push_back("-D" + name + "=" + std::to_string(index));
            defs.push_back("-D" + name + "_" + value + "=1");
        } else {
            defs.push_back("-D" + name + "=" + value);
        }
    }
    return defs;
}

std::string formatAssignment(const ParamAssignment& assignment) {
    std::string s;
    for (const auto& [k, v] : assignment) s += (s.empty() ? "" : " ") + k + "=" + v;
    return s;
}

Result<ParamAssignment> parseAssignmentJson(const std::string& text) {
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object())
        return makeError(ErrorCode::ParseError, "params are not a JSON object of name -> value: " + text.substr(0, 120));
    ParamAssignment a;
    for (auto it = j.begin(); it != j.end(); ++it) a[it.key()] = it->is_string() ? it->get<std::string>() : it->dump();
    return a;
}

} // namespace kw::problem
