#include "store/migrations.h"

namespace ks::store {

const std::vector<std::string>& migrations() {
    static const std::vector<std::string> steps{
        // 1: evaluations (the result cache lives here) and the append-only event log.
        R"sql(
CREATE TABLE evaluations (
  id             INTEGER PRIMARY KEY,
  cache_key      TEXT NOT NULL,
  problem        TEXT NOT NULL,
  problem_hash   TEXT NOT NULL,
  candidate_hash TEXT NOT NULL,
  params         TEXT NOT NULL,
  status         TEXT NOT NULL,
  speedup        REAL,
  result         TEXT NOT NULL,
  created_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX evaluations_by_cache_key ON evaluations(cache_key);
CREATE INDEX evaluations_by_problem ON evaluations(problem);
CREATE TABLE events (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  kind       TEXT NOT NULL,
  payload    TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
)sql",
    };
    return steps;
}

} // namespace ks::store
