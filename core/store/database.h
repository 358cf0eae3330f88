#pragma once
// A thin RAII layer over one SQLite connection. One writer per workspace (the
// process running a search); readers anywhere (WAL mode). Every statement is
// prepared with bound parameters, never by pasting values into SQL.
//
// Threads of one process may share a connection (bench's GPU lanes, the suite
// runner's workers): SQLite serialises each call, but a transaction belongs
// to the connection, so transactions take turns here; a second thread's
// BEGIN would otherwise fail ("cannot start a transaction within a
// transaction") or its writes would join, and be rolled back with, another's.
// Writes go through transaction(); lastInsertId() is read inside one. Reads
// do not take turns: a thread reading a shared connection may see another
// thread's writes before they commit (separate connections, as other
// processes use, never do).
#include "util/result.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace kw::store {

class Statement {
  public:
    Statement(sqlite3* db, sqlite3_stmt* stmt, std::recursive_mutex* turn) : db_(db), stmt_(stmt), turn_(turn) {}
    Statement(Statement&& other) noexcept;
    Statement& operator=(Statement&&) = delete;
    ~Statement();

    Statement& bind(int index, const std::string& value);
    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, double value);
    Statement& bindNull(int index);
    Statement& bind(int index, const std::optional<double>& value);

    // true: a row is available; false: done.
    Result<bool> step();
    Status run(); // step to completion; for INSERT/UPDATE (takes the connection's turn)

    std::string text(int column) const;
    std::int64_t int64(int column) const;
    double real(int column) const;
    bool isNull(int column) const;

  private:
    sqlite3* db_;
    sqlite3_stmt* stmt_;
    std::recursive_mutex* turn_; // the connection's: see Database
};

// Steps a statement to its end, mapping each row with read(statement).
template <typename T, typename Read> Result<std::vector<T>> readAll(Statement& stmt, Read read) {
    std::vector<T> out;
    for (;;) {
        auto row = stmt.step();
        if (!row) return row.error();
        if (!*row) return out;
        out.push_back(read(stmt));
    }
}

class Database {
  public:
    enum class Mode { ReadWrite, ReadOnly };

    // Creates the file (and its folder) when needed, enables WAL and foreign
    // keys, and migrates the schema to the newest version (ReadWrite only).
    static Result<Database> open(const std::filesystem::path& path, Mode mode = Mode::ReadWrite);

    Database(Database&&) noexcept;
    Database& operator=(Database&&) noexcept;
    ~Database();

    Result<Statement> prepare(const std::string& sql) const;
    Status exec(const std::string& sql) const;
    std::int64_t lastInsertId() const;
    int schemaVersion() const;
    const std::filesystem::path& path() const { return path_; }

    // True when the write-ahead log or its shared-memory index on disk is no
    // longer the file this connection opened (removed or replaced by another
    // process). Every connection here keeps them on close
    // (SQLITE_FCNTL_PERSIST_WAL), so only a process outside Kernelwright, or
    // one whose locks were dropped under it, gets here; this connection would
    // then read a stale picture ("malformed", an empty list) and its writes
    // would go to a file nobody reads. Connections of one process share one
    // mapping of the index, so only closing all of them and opening again
    // reads the workspace as it is (the workbench's main window does).
    bool walReplaced() const;

    // Runs fn inside BEGIN IMMEDIATE ... COMMIT; rolls back when fn fails.
    // Transactions on one Database take turns across threads. Nested on one
    // thread (fn calling a store method that opens its own), the inner one
    // joins the outer: its failure is fn's, and the outer rolls back.
    template <typename Fn> Status transaction(Fn&& fn) const {
        std::lock_guard turn(turn_->mutex);
        if (turn_->depth > 0) {
            ++turn_->depth;
            Status result = fn();
            --turn_->depth;
            return result;
        }
        if (auto s = exec("BEGIN IMMEDIATE"); !s) return s;
        turn_->depth = 1;
        Status result = fn();
        turn_->depth = 0;
        if (!result) {
            (void)exec("ROLLBACK");
            return result;
        }
        return exec("COMMIT");
    }

    // Runs an INSERT and returns its row id, both inside one transaction: the
    // id is this insert's, whatever other threads write meanwhile.
    Result<std::int64_t> insert(Statement& stmt) const;

    static int newestSchemaVersion();

  private:
    Database(sqlite3* db, std::filesystem::path path) : db_(db), path_(std::move(path)), turn_(std::make_unique<Turn>()) {}
    Status migrate();
    void noteWalFiles();

    // A file's identity on disk (device, inode); 0/0 when it does not exist.
    struct FileId {
        std::uint64_t dev = 0, ino = 0;
        bool operator==(const FileId&) const = default;
    };

    // Held for a transaction, exec() and Statement::run(); depth counts the
    // transactions open on the holding thread. On the heap: a Database moves,
    // its statements keep pointing at the same mutex.
    struct Turn {
        std::recursive_mutex mutex;
        int depth = 0;
    };
    sqlite3* db_ = nullptr;
    std::filesystem::path path_;
    Mode mode_ = Mode::ReadWrite;
    FileId wal_, shm_;           // as this connection opened them
    std::unique_ptr<Turn> turn_; // null only in a moved-from Database, which may only be destroyed or assigned
};

} // namespace kw::store
