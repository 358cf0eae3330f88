#pragma once
// Persistence of searches: one row per search, one per node (each insert and
// each result its own transaction), shared sources, steering commands, and
// the append-only events other processes follow.
#include "store/database.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kw::store {

struct SearchRecord {
    std::int64_t id = 0;
    std::string problem, problemDir, problemHash, configJson, status, stopReason;
    std::int64_t evaluations = 0;
    std::optional<std::int64_t> bestNode;
    std::optional<double> bestSpeedup;
    std::optional<std::int64_t> ownerPid;
    std::string createdAt, updatedAt;
    // What people keep about it (search/search_notes.h); the search's own
    // process leaves these alone.
    std::string label, notes;
    std::vector<std::string> tags;
    bool archived = false;
};

// What deleting a search removed (its evaluations stay: they are the
// workspace's cache, shared by content with every other search).
struct SearchDeletion {
    std::int64_t nodes = 0, commands = 0, events = 0, llmCalls = 0, retrievals = 0;
};

struct NodeRecord {
    std::int64_t id = 0, searchId = 0, parentId = 0;
    std::int64_t seq = 0;
    std::string origin, sourceName, sourceHash, paramsJson, state;
    std::optional<std::string> status;
    std::optional<double> speedup;
    std::string message;
    std::int64_t evaluationId = 0;
    bool pinned = false, pruned = false;
    bool pinOnce = false; // stored as pinned = 2 (1: a sticky pin)
    bool flagged = false; // implausibly fast: kept from being best until reviewed
    double boost = 0;
    std::string hint, createdAt;
    std::string finishedAt; // when its result was recorded ("" while pending or running)
};

struct CommandRecord {
    std::int64_t id = 0, searchId = 0;
    std::string verb, argsJson, createdAt;
    std::string origin;    // "cli", "workbench", or "" (posted before origins were kept)
    std::string appliedAt; // "" while pending
    std::string outcome;   // what applying it did, or why it was refused
};

struct EventRecord {
    std::int64_t id = 0;
    std::string kind, payload;
};

class SearchStore {
  public:
    explicit SearchStore(const Database& db) : db_(db) {}

    Result<std::int64_t> createSearch(const SearchRecord& search) const;
    Result<SearchRecord> loadSearch(std::int64_t id) const;
    Result<std::vector<SearchRecord>> listSearches() const;
    Status updateSearch(const SearchRecord& search) const;
    // Writes the search's label, notes, tags and archived flag only, after
    // `change` has seen the stored record, in one transaction: two processes
    // tagging at once both keep their tags.
    Status updateSearchNotes(std::int64_t id, const std::function<Status(SearchRecord&)>& change) const;
    // Removes the search with its nodes, steering commands, events, LLM calls
    // and their retrievals, in one transaction, once `allow` has seen the
    // stored record and said yes (a search that started meanwhile is kept).
    Result<SearchDeletion> deleteSearch(std::int64_t id, const std::function<Status(const SearchRecord&)>& allow) const;

    Status putSource(const std::string& hash, const std::string& text) const;
    Result<std::string> sourceText(const std::string& hash) const;

    // Inserts the node and its "node_added" event in one transaction.
    Result<std::int64_t> insertNode(const NodeRecord& node) const;
    Status setNodeState(std::int64_t nodeId, const std::string& state) const;
    // Records a node's result, the search's counters and a "node_finished" event atomically.
    Status finishNode(const NodeRecord& node, const SearchRecord& search) const;
    Status updateNodeFlags(const NodeRecord& node) const; // pinned, pruned, boost, hint
    Result<std::vector<NodeRecord>> loadNodes(std::int64_t searchId) const;
    // The given nodes of a search, by id (a follower's refresh after events).
    // The speedup's 95 % interval of each node of the search that has one
    // (its shapes' combined: geometric means of the lows and the highs), for
    // the nodes `ids` or, empty, all of them. Read apart from the nodes: only
    // the workbench shows it, and it parses every result.
    Result<std::map<std::int64_t, std::pair<double, double>>> speedupIntervals(std::int64_t searchId,
                                                                               const std::vector<std::int64_t>& ids = {}) const;
    Result<std::vector<NodeRecord>> loadNodesById(std::int64_t searchId, const std::vector<std::int64_t>& ids) const;
    // The node numbered `seq` in the search (the number people see: #seq); NotFound when none.
    Result<std::int64_t> nodeIdOfNumber(std::int64_t searchId, std::int64_t seq) const;

    Result<std::int64_t> postCommand(std::int64_t searchId, const std::string& verb, const std::string& argsJson,
                                     const std::string& origin = "") const;
    Result<std::vector<CommandRecord>> pendingCommands(std::int64_t searchId) const;
    // Every command posted to the search, applied or not, oldest first: its steering timeline.
    Result<std::vector<CommandRecord>> commandsOf(std::int64_t searchId) const;
    Status markCommand(std::int64_t commandId, const std::string& outcome) const;

    Status appendEvent(std::int64_t searchId, const std::string& kind, const std::string& payload) const;
    // The newest event's id (0 when none): where a follower that just loaded the nodes starts reading.
    Result<std::int64_t> lastEventId(std::int64_t searchId) const;
    Result<std::vector<EventRecord>> eventsAfter(std::int64_t searchId, std::int64_t afterId, int limit = 1000) const;

  private:
    const Database& db_;
};

} // namespace kw::store
