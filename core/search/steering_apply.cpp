#include "search/steering_apply.h"

#include "synth/tuner.h"

#include "util/hash.h"

#include <nlohmann/json.hpp>

namespace kw::search {

std::string applySteering(const store::CommandRecord& c, std::int64_t searchId, SteeringTarget& target) {
    nlohmann::json args = nlohmann::json::parse(c.argsJson, nullptr, false);
    if (args.is_discarded() || !args.is_object()) return "rejected: arguments are not a JSON object";
    auto nodeArg = [&]() -> Node* {
        return args.contains("node") && args["node"].is_number_integer() ? target.findNode(args["node"].get<NodeId>()) : nullptr;
    };
    if (c.verb == "pause") {
        target.pause();
    } else if (c.verb == "resume") {
        target.resume();
    } else if (c.verb == "stop") {
        target.stop();
    } else if (c.verb == "budget") {
        if (!args.contains("max_evaluations") || !args["max_evaluations"].is_number_integer() ||
            args["max_evaluations"].get<int>() < 1)
            return "rejected: budget needs max_evaluations >= 1";
        target.setBudget(args["max_evaluations"].get<int>());
    } else if (c.verb == "hint" && !target.readsHints() && synth::hintTerms(args.value("text", std::string())).empty()) {
        // Accepted, it would be kept and never read: say so instead.
        return "rejected: this search's synthesizer is the tuner, which reads only NAME=value terms of the node's "
               "params (e.g. VEC=8: the node's next child takes them); an llm or hybrid search puts any hint in the "
               "model's prompt";
    } else if (c.verb == "prune" || c.verb == "unprune" || c.verb == "pin" || c.verb == "unpin" || c.verb == "boost" ||
               c.verb == "hint") {
        Node* n = nodeArg();
        if (!n) return "rejected: no such node in search " + std::to_string(searchId);
        if (c.verb == "prune" || c.verb == "unprune") n->pruned = c.verb == "prune";
        if (c.verb == "pin" || c.verb == "unpin") {
            n->pinned = c.verb == "pin";
            n->pinOnce = n->pinned && args.value("once", false);
        }
        if (c.verb == "boost") n->boost = args.value("amount", 1.0);
        if (c.verb == "hint") n->hint = args.value("text", "");
        if (auto s = target.flagsChanged(*n); !s) return "failed: " + s.error().message;
    } else if (c.verb == "add_child") {
        Node* parent = nodeArg();
        if (!parent) return "rejected: no such parent node";
        synth::Proposal p;
        p.parent = parent->id;
        p.origin = NodeOrigin::Manual;
        p.sourceName = args.value("name", parent->sourceName);
        p.source = args.value("source", "");
        if (p.source.empty()) return "rejected: the manual child has no source";
        if (args.contains("params") && args["params"].is_object())
            for (auto it = args["params"].begin(); it != args["params"].end(); ++it)
                p.params[it.key()] = it->is_string() ? it->get<std::string>() : it->dump();
        if (target.inTree(p)) return "rejected: this source and params are already in the tree";
        p.rationale = "manual child";
        auto id = target.addManualChild(p, args.value("hint", ""));
        if (!id) return "failed: " + id.error().message;
        return "applied: node " + std::to_string(*id);
    } else {
        return "rejected: unknown verb " + c.verb;
    }
    return "applied";
}

} // namespace kw::search
