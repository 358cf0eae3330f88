#include "kb/front_matter.h"
#include "util/text.h"

#include <algorithm>
#include <cctype>
#include <mutex>
#include <sstream>

namespace kw::kb {
namespace {

// "[a, b, c]" -> {a, b, c}; a bare word is a list of one.
std::vector<std::string> parseList(const std::string& value, bool& ok) {
    std::string v = trim(value);
    ok = true;
    std::vector<std::string> out;
    if (v.empty()) return out;
    if (v.front() == '[') {
        if (v.back() != ']') {
            ok = false;
            return out;
        }
        v = v.substr(1, v.size() - 2);
    }
    std::stringstream in(v);
    std::string item;
    while (std::getline(in, item, ',')) {
        item = trim(item);
        if (item.size() >= 2 && (item.front() == '"' || item.front() == '\'') && item.back() == item.front())
            item = item.substr(1, item.size() - 2);
        if (!item.empty()) out.push_back(item);
    }
    return out;
}

std::string joined(const std::vector<std::string>& list) {
    std::string s;
    for (const auto& x : list) s += (s.empty() ? "" : ", ") + x;
    return s;
}

} // namespace

const std::vector<std::string>& knownCategories() {
    static const std::vector<std::string> v{"constraints", "guidance", "hardware", "code_samples", "skills"};
    return v;
}
namespace {
std::mutex platformsMutex;
std::vector<std::string>& platformList() {
    static std::vector<std::string> v{"x86-64", "hopper", "cdna3", "neoverse", "any"};
    return v;
}
} // namespace

std::vector<std::string> knownPlatforms() {
    const std::lock_guard lock(platformsMutex);
    return platformList();
}

void registerPlatform(const std::string& platform) {
    const std::lock_guard lock(platformsMutex);
    if (!contains(platformList(), platform)) platformList().push_back(platform);
}
const std::vector<std::string>& knownSignals() {
    static const std::vector<std::string> v{
        "memory_bound",     "compute_bound",    "latency_bound",  "near_roofline",   "low_vectorization", "low_occupancy",
        "launch_overhead",  "compile_error",    "wrong_answer",   "runtime_error",   "timeout",           "oom",
        "nondeterministic", "unwritten_output", "input_modified", "op:elementwise",  "op:reduction",      "op:normalization",
        "op:softmax",       "op:gemm",          "op:conv",        "op:gather",       "op:scan",           "op:jagged",
        "op:embedding",     "op:attention",     "op:sort",        "register_spills", "bank_conflicts",    "uncoalesced",
        "tail_effect"};
    return v;
}

bool isValidId(const std::string& id) {
    return !id.empty() &&
           std::all_of(id.begin(), id.end(), [](unsigned char c) { return std::islower(c) || std::isdigit(c) || c == '-'; });
}

bool contains(const std::vector<std::string>& list, const std::string& value) {
    return std::find(list.begin(), list.end(), value) != list.end();
}

std::vector<KbSection> splitSections(const std::string& body) {
    std::vector<KbSection> out;
    KbSection current;
    std::istringstream in(body);
    std::string line;
    bool inCode = false;
    while (std::getline(in, line)) {
        if (line.rfind("```", 0) == 0) inCode = !inCode;
        if (!inCode && line.rfind("## ", 0) == 0) {
            if (!trim(current.text).empty() || !current.heading.empty()) out.push_back(current);
            current = KbSection{trim(line.substr(3)), ""};
            continue;
        }
        current.text += line + "\n";
    }
    if (!trim(current.text).empty() || !current.heading.empty()) out.push_back(current);
    return out;
}

ParsedDocument parseDocument(const std::string& path, const std::string& text) {
    ParsedDocument p;
    p.doc.path = path;
    auto fail = [&](int line, const std::string& what, const std::string& key = {}) {
        p.errors.push_back(path + ":" + std::to_string(line) + ": " + what);
        p.fieldErrors.push_back({key, what});
    };
    std::istringstream in(text);
    std::string line;
    int n = 0;
    if (!std::getline(in, line) || trim(line) != "---") {
        fail(1, "missing front matter: the file must start with a line '---', then id, title, category, platforms, triggers, "
                "tags, then '---'");
        return p;
    }
    ++n;
    bool closed = false;
    std::vector<std::string> seen;
    while (std::getline(in, line)) {
        ++n;
        if (trim(line) == "---") {
            closed = true;
            break;
        }
        if (trim(line).empty() || trim(line)[0] == '#') continue;
        const auto colon = line.find(':');
        if (colon == std::string::npos) {
            fail(n, "expected 'key: value', got '" + trim(line) + "'");
            continue;
        }
        const std::string key = trim(line.substr(0, colon));
        const std::string value = trim(line.substr(colon + 1));
        if (contains(seen, key)) fail(n, "'" + key + "' is given twice", key);
        seen.push_back(key);
        bool ok = true;
        if (key == "id") {
            p.doc.id = value;
            if (!isValidId(value)) fail(n, "id '" + value + "' must be lowercase letters, digits and '-'", key);
        } else if (key == "title") {
            p.doc.title = value;
            if (value.empty()) fail(n, "the title is empty: write one line that says what the document is about", key);
        } else if (key == "category") {
            p.doc.category = value;
            if (!contains(knownCategories(), value))
                fail(n, "unknown category '" + value + "' (known: " + joined(knownCategories()) + ")", key);
        } else if (key == "platforms" || key == "triggers" || key == "tags") {
            auto list = parseList(value, ok);
            if (!ok) fail(n, key + ": expected a list like [a, b]", key);
            if (key == "platforms") {
                p.doc.platforms = list;
                const auto platforms = knownPlatforms();
                for (const auto& x : list)
                    if (!contains(platforms, x))
                        fail(n,
                             "unknown platform '" + x + "' (known: " + joined(platforms) +
                                 "; a new chip's folder hardware/<platform>/ adds one)",
                             key);
            } else if (key == "triggers") {
                p.doc.triggers = list;
                for (const auto& x : list)
                    if (!contains(knownSignals(), x))
                        fail(n, "unknown trigger '" + x + "' (known signals are listed in docs/kb-format.md)", key);
            } else {
                p.doc.tags = list;
            }
        } else if (key == "status") {
            p.doc.status = value;
        } else {
            fail(n, "unknown key '" + key + "' (expected id, title, category, platforms, triggers, tags)", key);
        }
    }
    if (!closed) {
        fail(n, "the front matter is never closed: add a line '---' after it");
        return p;
    }
    for (const char* required : {"id", "title", "category", "platforms", "triggers"})
        if (!contains(seen, required)) fail(1, std::string("missing '") + required + "' in the front matter", required);
    if (contains(seen, "platforms") && p.doc.platforms.empty())
        fail(1, "platforms must list at least one platform (or 'any')", "platforms");
    std::string rest((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    p.doc.body = rest;
    p.doc.sections = splitSections(rest);
    if (trim(rest).empty()) fail(n, "the document has no body");
    return p;
}

std::string renderFrontMatter(const KbDocument& d) {
    auto list = [](const std::vector<std::string>& v) { return "[" + joined(v) + "]"; };
    std::string s = "---\nid: " + d.id + "\ntitle: " + d.title + "\ncategory: " + d.category +
                    "\nplatforms: " + list(d.platforms) + "\ntriggers: " + list(d.triggers) + "\ntags: " + list(d.tags) + "\n";
    if (d.category == "skills") s += "status: " + d.status + "\n";
    return s + "---\n";
}

} // namespace kw::kb
