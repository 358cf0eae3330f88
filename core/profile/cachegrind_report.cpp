#include "profile/cachegrind_report.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace kw::profile {
namespace {

std::vector<std::string> words(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> w;
    for (std::string x; in >> x;) w.push_back(x);
    return w;
}

// nm -C lines: "ADDRESS TYPE NAME" (NAME may hold spaces once demangled).
std::set<std::string> definedFunctions(const std::string& symbols) {
    std::set<std::string> names;
    std::istringstream in(symbols);
    for (std::string line; std::getline(in, line);) {
        const auto a = line.find(' ');
        if (a == std::string::npos || a + 3 > line.size()) continue;
        const char type = line[a + 1];
        if (type != 'T' && type != 't' && type != 'W' && type != 'i') continue;
        names.insert(line.substr(a + 3));
    }
    return names;
}

} // namespace

double CachegrindReport::count(const std::string& event) const {
    auto it = candidate.find(event);
    return it == candidate.end() ? 0 : it->second;
}

double CachegrindReport::d1MissRate() const {
    const double accesses = count("Dr") + count("Dw");
    return accesses > 0 ? (count("D1mr") + count("D1mw")) / accesses : 0;
}

double CachegrindReport::llMisses() const {
    return count("DLmr") + count("DLmw");
}

Result<CachegrindReport> parseCachegrind(const std::string& out, const std::string& symbols) try {
    CachegrindReport r;
    const auto mine = definedFunctions(symbols);
    if (mine.empty())
        return makeError(ErrorCode::ParseError,
                         "the candidate's symbol list is empty (nm found no functions in build/candidate.so)");
    std::map<std::string, double> perFunction;
    std::string fn;
    bool summary = false;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("desc: LL", 0) == 0)
            r.llDescription = line.substr(6);
        else if (line.rfind("events:", 0) == 0)
            r.events = words(line.substr(7));
        else if (line.rfind("fn=", 0) == 0)
            fn = line.substr(3);
        else if (line.rfind("fl=", 0) == 0 || line.rfind("desc:", 0) == 0 || line.rfind("cmd:", 0) == 0)
            continue;
        else if (line.rfind("summary:", 0) == 0) {
            const auto w = words(line.substr(8));
            for (std::size_t i = 0; i < w.size() && i < r.events.size(); ++i) r.program[r.events[i]] = std::stod(w[i]);
            summary = true;
        } else if (!line.empty() && std::isdigit(static_cast<unsigned char>(line[0]))) {
            if (r.events.empty())
                return makeError(ErrorCode::ParseError, "cachegrind output has counts before its 'events:' line");
            if (!mine.count(fn)) continue;
            const auto w = words(line);
            // The first word is the line number; trailing zero counts may be left out.
            for (std::size_t i = 1; i < w.size() && i - 1 < r.events.size(); ++i) {
                const double v = std::stod(w[i]);
                r.candidate[r.events[i - 1]] += v;
                if (i == 1) perFunction[fn] += v;
            }
        }
    }
    if (r.events.empty() || !summary)
        return makeError(ErrorCode::ParseError,
                         "not a complete cachegrind output (no 'events:' or 'summary:' line): did valgrind finish?");
    for (const auto& [name, ir] : perFunction) r.functions.emplace_back(name, ir);
    std::sort(r.functions.begin(), r.functions.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    if (r.functions.size() > 8) r.functions.resize(8);
    return r;
} catch (const std::exception& e) {
    return makeError(ErrorCode::ParseError, std::string("a count in the cachegrind output is not a number (") + e.what() + ")");
}

nlohmann::json toJson(const CachegrindReport& r) {
    nlohmann::json fns = nlohmann::json::array();
    for (const auto& [name, ir] : r.functions) fns.push_back({{"function", name}, {"Ir", ir}});
    return {{"events", r.events},    {"candidate", r.candidate},       {"program", r.program},     {"functions", fns},
            {"ll", r.llDescription}, {"d1_miss_rate", r.d1MissRate()}, {"ll_misses", r.llMisses()}};
}

} // namespace kw::profile
