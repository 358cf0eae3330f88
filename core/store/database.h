#pragma once
// A thin RAII layer over one SQLite connection. One writer per workspace (the
// process running a search); readers anywhere (WAL mode). Every statement is
// prepared with bound parameters, never by pasting values into SQL.
#include "util/result.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace ks::store {

class Statement {
  public:
    Statement(sqlite3* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}
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
    Status run(); // step to completion; for INSERT/UPDATE

    std::string text(int column) const;
    std::int64_t int64(int column) const;
    double real(int column) const;
    bool isNull(int column) const;

  private:
    sqlite3* db_;
    sqlite3_stmt* stmt_;
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

    // Runs fn inside BEGIN IMMEDIATE ... COMMIT; rolls back when fn fails.
    template <typename Fn> Status transaction(Fn&& fn) const {
        if (auto s = exec("BEGIN IMMEDIATE"); !s) return s;
        Status result = fn();
        if (!result) {
            (void)exec("ROLLBACK");
            return result;
        }
        return exec("COMMIT");
    }

    static int newestSchemaVersion();

  private:
    Database(sqlite3* db, std::filesystem::path path) : db_(db), path_(std::move(path)) {}
    Status migrate();

    sqlite3* db_ = nullptr;
    std::filesystem::path path_;
};

} // namespace ks::store
