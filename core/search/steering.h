#pragma once
// Steering a search from outside its engine: commands posted to the
// workspace's commands table, applied by the running engine (or when the
// search resumes). The CLI and the workbench post through this one API.
#include "store/database.h"
#include "util/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <string>

namespace kw::search {

struct SteeringCommand {
    std::string verb; // pause, resume, stop, budget, prune, unprune, pin, unpin, boost, hint, add_child
    nlohmann::json args = nlohmann::json::object();
    std::int64_t node = 0; // the node it applies to, 0 for search-wide verbs
    std::string origin;    // who posts it ("cli", "workbench"): the search's steering timeline shows it

    static SteeringCommand pause() { return {"pause", nlohmann::json::object(), 0, {}}; }
    static SteeringCommand resume() { return {"resume", nlohmann::json::object(), 0, {}}; }
    static SteeringCommand stop() { return {"stop", nlohmann::json::object(), 0, {}}; }
    static SteeringCommand budget(std::int64_t maxEvaluations);
    static SteeringCommand prune(std::int64_t node, bool on = true);
    // `once`: expand the node next, then release the pin (the default);
    // else it stays until unpinned. A posted pin without "once" is sticky.
    static SteeringCommand pin(std::int64_t node, bool on = true, bool once = true);
    static SteeringCommand boost(std::int64_t node, double amount);
    static SteeringCommand hint(std::int64_t node, const std::string& text);
    static SteeringCommand addChild(std::int64_t node, const std::string& name, const std::string& source,
                                    const nlohmann::json& params);
};

// Checks the command against the stored search (it exists and is not
// finished, the node is one of its nodes, the values make sense) and posts
// it. Returns the command's id; errors say what to fix and that nothing changed.
Result<std::int64_t> postSteering(const store::Database& db, std::int64_t searchId, const SteeringCommand& command);
// The same through a writing connection of its own for the moment of posting
// (the workbench reads through read-only ones).
Result<std::int64_t> postSteering(const std::filesystem::path& database, std::int64_t searchId, const SteeringCommand& command);

} // namespace kw::search
