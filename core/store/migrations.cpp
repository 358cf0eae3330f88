#include "store/migrations.h"

namespace kw::store {

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
        // 2: searches, their nodes (sources shared by content hash), and the
        // steering commands other processes post for a running search.
        R"sql(
CREATE TABLE sources (
  hash TEXT PRIMARY KEY,
  text TEXT NOT NULL
);
CREATE TABLE searches (
  id             INTEGER PRIMARY KEY,
  problem        TEXT NOT NULL,
  problem_dir    TEXT NOT NULL,
  problem_hash   TEXT NOT NULL,
  config         TEXT NOT NULL,
  status         TEXT NOT NULL,
  stop_reason    TEXT NOT NULL DEFAULT '',
  evaluations    INTEGER NOT NULL DEFAULT 0,
  best_node      INTEGER,
  best_speedup   REAL,
  owner_pid      INTEGER,
  created_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE TABLE nodes (
  id            INTEGER PRIMARY KEY,
  search_id     INTEGER NOT NULL REFERENCES searches(id),
  parent_id     INTEGER REFERENCES nodes(id),
  seq           INTEGER NOT NULL,
  origin        TEXT NOT NULL,
  source_name   TEXT NOT NULL,
  source_hash   TEXT NOT NULL REFERENCES sources(hash),
  params        TEXT NOT NULL,
  state         TEXT NOT NULL,
  status        TEXT,
  speedup       REAL,
  message       TEXT NOT NULL DEFAULT '',
  evaluation_id INTEGER REFERENCES evaluations(id),
  pinned        INTEGER NOT NULL DEFAULT 0,
  pruned        INTEGER NOT NULL DEFAULT 0,
  boost         REAL NOT NULL DEFAULT 0,
  hint          TEXT NOT NULL DEFAULT '',
  created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  finished_at   TEXT,
  UNIQUE (search_id, source_hash, params)
);
CREATE INDEX nodes_by_search ON nodes(search_id, seq);
CREATE TABLE commands (
  id         INTEGER PRIMARY KEY,
  search_id  INTEGER NOT NULL REFERENCES searches(id),
  verb       TEXT NOT NULL,
  args       TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  applied_at TEXT,
  outcome    TEXT
);
CREATE INDEX commands_pending ON commands(search_id, applied_at);
ALTER TABLE events ADD COLUMN search_id INTEGER;
CREATE INDEX events_by_search ON events(search_id, id);
)sql",
        // 3: every language-model call: what was sent, what came back, what it
        // cost. API keys are never stored.
        R"sql(
CREATE TABLE llm_calls (
  id              INTEGER PRIMARY KEY,
  search_id       INTEGER REFERENCES searches(id),
  parent_node_id  INTEGER REFERENCES nodes(id),
  node_id         INTEGER REFERENCES nodes(id),
  provider        TEXT NOT NULL,
  model_name      TEXT NOT NULL,
  model           TEXT NOT NULL,
  system_prompt   TEXT NOT NULL,
  prompt          TEXT NOT NULL,
  prompt_cut      TEXT NOT NULL DEFAULT '[]',
  reply           TEXT NOT NULL DEFAULT '',
  reasoning       TEXT NOT NULL DEFAULT '',
  input_tokens    INTEGER NOT NULL DEFAULT 0,
  output_tokens   INTEGER NOT NULL DEFAULT 0,
  usage_estimated INTEGER NOT NULL DEFAULT 0,
  cost_usd        REAL NOT NULL DEFAULT 0,
  latency_s       REAL NOT NULL DEFAULT 0,
  attempts        INTEGER NOT NULL DEFAULT 1,
  status          TEXT NOT NULL,
  error           TEXT NOT NULL DEFAULT '',
  created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX llm_calls_by_search ON llm_calls(search_id, id);
CREATE INDEX llm_calls_by_node ON llm_calls(node_id);
)sql",
        // 4: the knowledge base's index (documents, a full-text index over their
        // sections) and which sections fed which LLM call.
        R"sql(
CREATE TABLE kb_docs (
  id         TEXT PRIMARY KEY,
  path       TEXT NOT NULL,
  root       TEXT NOT NULL,
  hash       TEXT NOT NULL,
  title      TEXT NOT NULL,
  category   TEXT NOT NULL,
  platforms  TEXT NOT NULL,
  triggers   TEXT NOT NULL,
  tags       TEXT NOT NULL,
  status     TEXT NOT NULL,
  body       TEXT NOT NULL,
  indexed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE VIRTUAL TABLE kb_fts USING fts5(doc_id UNINDEXED, section UNINDEXED, heading, text, meta, tokenize = 'porter unicode61');
CREATE TABLE kb_retrievals (
  id          INTEGER PRIMARY KEY,
  llm_call_id INTEGER REFERENCES llm_calls(id),
  node_id     INTEGER REFERENCES nodes(id),
  doc_id      TEXT NOT NULL,
  section     TEXT NOT NULL,
  score       REAL NOT NULL,
  reason      TEXT NOT NULL,
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX kb_retrievals_by_call ON kb_retrievals(llm_call_id);
)sql",
        // 5: what profiling learned about an evaluation: metrics per level and
        // the diagnosis (signal names alone too, for queries and retrieval).
        R"sql(
CREATE TABLE profiles (
  id            INTEGER PRIMARY KEY,
  evaluation_id INTEGER NOT NULL REFERENCES evaluations(id),
  level         TEXT NOT NULL,
  report        TEXT NOT NULL,
  diagnosis     TEXT NOT NULL DEFAULT '',
  machine       TEXT NOT NULL DEFAULT '',
  created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (evaluation_id, level)
);
)sql",
        // 6: a result faster than the operator's floor (or the problem's
        // plausibility limit) is flagged; it is no search's best until a
        // person reviews it (pins the node).
        R"sql(
ALTER TABLE nodes ADD COLUMN flagged INTEGER NOT NULL DEFAULT 0;
)sql",
        // 7: which node used an evaluation (the workbench names evaluations
        // by their search and node number).
        R"sql(
CREATE INDEX nodes_by_evaluation ON nodes(evaluation_id);
)sql",
        // 8: who posted a steering command (the CLI or the workbench), for
        // the search's steering timeline.
        R"sql(
ALTER TABLE commands ADD COLUMN origin TEXT;
)sql",
        // 9: what people keep about a search (run management): a name, notes,
        // tags (a JSON array), and whether it is archived (kept, out of the
        // lists). The search's process never writes these columns.
        R"sql(
ALTER TABLE searches ADD COLUMN label TEXT NOT NULL DEFAULT '';
ALTER TABLE searches ADD COLUMN notes TEXT NOT NULL DEFAULT '';
ALTER TABLE searches ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';
ALTER TABLE searches ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;
)sql",
    };
    return steps;
}

} // namespace kw::store
