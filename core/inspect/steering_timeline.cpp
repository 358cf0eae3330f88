#include "inspect/steering_timeline.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace kw::inspect {
namespace {

std::string number(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

std::string detailOf(const std::string& verb, const nlohmann::json& a) {
    if (!a.is_object()) return "";
    if (verb == "budget" && a.contains("max_evaluations") && a["max_evaluations"].is_number())
        return "to " + number(a["max_evaluations"].get<double>()) + " evaluations";
    if (verb == "boost" && a.contains("amount") && a["amount"].is_number()) return "by " + number(a["amount"].get<double>());
    if (verb == "pin") return a.value("once", true) ? "for the next expansion" : "until unpinned";
    if (verb == "hint" && a.contains("text") && a["text"].is_string()) {
        const auto text = a["text"].get<std::string>();
        return "\"" + (text.size() > 80 ? text.substr(0, 77) + "..." : text) + "\"";
    }
    if (verb == "add_child" && a.contains("name") && a["name"].is_string()) return a["name"].get<std::string>();
    return "";
}

} // namespace

std::vector<SteeringEntry> steeringTimeline(const std::vector<store::CommandRecord>& commands,
                                            const std::map<std::int64_t, std::int64_t>& seqOfNode) {
    std::vector<SteeringEntry> out;
    out.reserve(commands.size());
    for (const auto& c : commands) {
        SteeringEntry e;
        e.id = c.id;
        e.postedAt = c.createdAt;
        e.origin = c.origin;
        e.verb = c.verb;
        e.appliedAt = c.appliedAt;
        e.outcome = c.outcome;
        const auto args = nlohmann::json::parse(c.argsJson, nullptr, false);
        if (args.is_object() && args.contains("node") && args["node"].is_number_integer()) {
            const auto seq = seqOfNode.find(args["node"].get<std::int64_t>());
            e.node = seq != seqOfNode.end() ? seq->second : 0;
        }
        e.detail = detailOf(c.verb, args);
        out.push_back(std::move(e));
    }
    return out;
}

} // namespace kw::inspect
