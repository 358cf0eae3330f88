#include "report/trajectory_export.h"

#include "store/llm_call_store.h"
#include "store/search_store.h"

#include <map>

namespace kw::report {
namespace {

using nlohmann::json;

constexpr int kSchemaVersion = 1;

json paramsObject(const std::string& text) {
    auto parsed = json::parse(text.empty() ? "{}" : text, nullptr, false);
    return parsed.is_object() ? parsed : json::object();
}

// The flat record; the chat form regroups the same fields.
json flatRecord(const store::SearchRecord& search, const store::LlmCallRecord& call, const store::NodeRecord& node) {
    const bool correct = node.status == "ok";
    return json{{"schema_version", kSchemaVersion},
                {"search_id", search.id},
                {"problem", search.problem},
                {"call_id", call.id},
                {"node_id", node.id},
                {"parent_node_id", call.parentNodeId},
                {"provider", call.provider},
                {"model", call.model},
                {"system", call.systemPrompt},
                {"prompt", call.prompt},
                {"reply", call.reply},
                {"reasoning", call.reasoning},
                {"status", *node.status},
                {"correct", correct},
                {"speedup", correct && node.speedup ? json(*node.speedup) : json(nullptr)},
                {"message", node.message},
                {"reward", correct ? node.speedup.value_or(0.0) : 0.0},
                {"params", paramsObject(node.paramsJson)},
                {"input_tokens", call.inputTokens},
                {"output_tokens", call.outputTokens},
                {"cost_usd", call.costUsd},
                {"created_at", call.createdAt}};
}

json chatRecord(json flat) {
    json messages = json::array();
    if (!flat["system"].get<std::string>().empty()) messages.push_back({{"role", "system"}, {"content", flat["system"]}});
    messages.push_back({{"role", "user"}, {"content", flat["prompt"]}});
    messages.push_back({{"role", "assistant"}, {"content", flat["reply"]}});
    for (const char* moved : {"system", "prompt", "reply"}) flat.erase(moved);
    return json{{"messages", std::move(messages)}, {"metadata", std::move(flat)}};
}

bool passes(const store::NodeRecord& node, const TrajectoryFilter& filter) {
    const bool correct = node.status == "ok";
    if ((filter.correctOnly || filter.minSpeedup) && !correct) return false;
    return !filter.minSpeedup || node.speedup.value_or(0.0) >= *filter.minSpeedup;
}

} // namespace

std::optional<TrajectoryFormat> parseTrajectoryFormat(const std::string& name) {
    if (name == "openai-chat") return TrajectoryFormat::OpenAiChat;
    if (name == "jsonl") return TrajectoryFormat::Jsonl;
    return std::nullopt;
}

Result<TrajectoryExport> exportTrajectories(const store::Database& db, const std::vector<std::int64_t>& searchIds,
                                            TrajectoryFormat format, const TrajectoryFilter& filter,
                                            const SecretScrubber& scrubber) {
    store::SearchStore searches(db);
    store::LlmCallStore calls(db);
    TrajectoryExport out;
    for (const auto id : searchIds) {
        auto search = searches.loadSearch(id);
        if (!search) return search.error();
        auto nodes = searches.loadNodes(id);
        if (!nodes) return nodes.error();
        auto records = calls.forSearch(id);
        if (!records) return records.error();
        std::map<std::int64_t, const store::NodeRecord*> byId;
        for (const auto& n : *nodes) byId[n.id] = &n;
        for (const auto& call : *records) {
            // A call that made no node (the connection failed, the budget ran
            // out) is no expansion: there is nothing to reward.
            const auto it = byId.find(call.nodeId);
            if (call.nodeId == 0 || it == byId.end()) continue;
            const auto& node = *it->second;
            if (!node.status) {
                ++out.unevaluated;
                continue;
            }
            if (!passes(node, filter)) {
                ++out.filteredOut;
                continue;
            }
            json record = flatRecord(*search, call, node);
            scrubber.scrub(record);
            if (format == TrajectoryFormat::OpenAiChat) record = chatRecord(std::move(record));
            out.text += record.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
            ++out.records;
        }
    }
    return out;
}

} // namespace kw::report
