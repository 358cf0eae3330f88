#include "store/database.h"

#include "store/migrations.h"
#include "util/log.h"

#include <sqlite3.h>
#include <sys/stat.h>

namespace kw::store {

Statement::Statement(Statement&& other) noexcept : db_(other.db_), stmt_(other.stmt_), turn_(other.turn_) {
    other.stmt_ = nullptr;
}

Statement::~Statement() {
    if (stmt_) sqlite3_finalize(stmt_);
}

Statement& Statement::bind(int index, const std::string& value) {
    sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
    return *this;
}
Statement& Statement::bind(int index, std::int64_t value) {
    sqlite3_bind_int64(stmt_, index, value);
    return *this;
}
Statement& Statement::bind(int index, double value) {
    sqlite3_bind_double(stmt_, index, value);
    return *this;
}
Statement& Statement::bindNull(int index) {
    sqlite3_bind_null(stmt_, index);
    return *this;
}
Statement& Statement::bind(int index, const std::optional<double>& value) {
    return value ? bind(index, *value) : bindNull(index);
}

Result<bool> Statement::step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    return makeError(ErrorCode::Database, std::string("database: ") + sqlite3_errmsg(db_));
}

Status Statement::run() {
    // A write stepped while another thread's transaction is open would join it.
    std::lock_guard turn(*turn_);
    for (;;) {
        auto r = step();
        if (!r) return r.error();
        if (!*r) return {};
    }
}

std::string Statement::text(int column) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
    return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column))) : std::string();
}
std::int64_t Statement::int64(int column) const {
    return sqlite3_column_int64(stmt_, column);
}
double Statement::real(int column) const {
    return sqlite3_column_double(stmt_, column);
}
bool Statement::isNull(int column) const {
    return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

Result<Database> Database::open(const std::filesystem::path& path, Mode mode) {
    std::error_code ec;
    if (mode == Mode::ReadWrite && path.has_parent_path()) {
        std::filesystem::create_directories(path.parent_path(), ec);
        if (ec) return makeError(ErrorCode::Io, path.parent_path().string() + ": cannot create folder: " + ec.message());
    }
    if (mode == Mode::ReadOnly && !std::filesystem::exists(path, ec))
        return makeError(ErrorCode::NotFound, path.string() + ": no such workspace database");
    sqlite3* raw = nullptr;
    const int flags = mode == Mode::ReadWrite ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
    if (sqlite3_open_v2(path.c_str(), &raw, flags | SQLITE_OPEN_FULLMUTEX, nullptr) != SQLITE_OK) {
        std::string msg = raw ? sqlite3_errmsg(raw) : "out of memory";
        sqlite3_close(raw);
        return makeError(ErrorCode::Database, path.string() + ": cannot open database: " + msg);
    }
    // The last connection to close would otherwise remove the write-ahead log
    // and its shared-memory index. It decides it is the last by taking a lock,
    // and a process's POSIX locks are dropped when any descriptor of the file
    // closes in it (a file dialog sniffing its type): another process still
    // reading through them would then read a stale index.
    int persist = 1;
    sqlite3_file_control(raw, "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
    Database db(raw, path);
    db.mode_ = mode;
    sqlite3_busy_timeout(raw, 10000); // other processes (GUI, steering CLI) hold short locks
    // A file that is not a database fails here, with SQLite's own words.
    if (auto s = db.exec("SELECT count(*) FROM sqlite_master"); !s)
        return makeError(ErrorCode::Database, path.string() + ": not a Kernelwright workspace: " + s.error().message);
    if (mode == Mode::ReadWrite) {
        if (auto s = db.exec("PRAGMA journal_mode=WAL"); !s)
            return makeError(ErrorCode::Database, path.string() + ": " + s.error().message);
        if (auto s = db.exec("PRAGMA synchronous=NORMAL"); !s)
            return makeError(ErrorCode::Database, path.string() + ": " + s.error().message);
    }
    if (auto s = db.exec("PRAGMA foreign_keys=ON"); !s)
        return makeError(ErrorCode::Database, path.string() + ": " + s.error().message);
    db.noteWalFiles();
    if (mode == Mode::ReadWrite) {
        if (auto s = db.migrate(); !s) return s.error();
    } else if (db.schemaVersion() > newestSchemaVersion()) {
        return makeError(ErrorCode::Database, path.string() + ": written by a newer Kernelwright (schema " +
                                                  std::to_string(db.schemaVersion()) + "); upgrade to open it");
    }
    return db;
}

Database::Database(Database&& other) noexcept
    : db_(other.db_), path_(std::move(other.path_)), mode_(other.mode_), wal_(other.wal_), shm_(other.shm_),
      turn_(std::move(other.turn_)) {
    other.db_ = nullptr;
}

Database& Database::operator=(Database&& other) noexcept {
    if (this != &other) {
        if (db_) sqlite3_close(db_);
        db_ = other.db_;
        path_ = std::move(other.path_);
        mode_ = other.mode_;
        wal_ = other.wal_;
        shm_ = other.shm_;
        turn_ = std::move(other.turn_);
        other.db_ = nullptr;
    }
    return *this;
}

Database::~Database() {
    if (db_) sqlite3_close(db_);
}

Result<Statement> Database::prepare(const std::string& sql) const {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size()), &stmt, nullptr) != SQLITE_OK)
        return makeError(ErrorCode::Database, std::string("database: ") + sqlite3_errmsg(db_) + " in: " + sql);
    return Statement(db_, stmt, &turn_->mutex);
}

Status Database::exec(const std::string& sql) const {
    // A statement run while another thread's transaction is open would join it.
    std::lock_guard turn(turn_->mutex);
    char* err = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        std::string msg = err ? err : sqlite3_errmsg(db_);
        sqlite3_free(err);
        return makeError(ErrorCode::Database, "database: " + msg);
    }
    return {};
}

Result<std::int64_t> Database::insert(Statement& stmt) const {
    std::int64_t id = 0;
    auto s = transaction([&]() -> Status {
        if (auto r = stmt.run(); !r) return r;
        id = lastInsertId();
        return {};
    });
    if (!s) return s.error();
    return id;
}

std::int64_t Database::lastInsertId() const {
    return sqlite3_last_insert_rowid(db_);
}

int Database::schemaVersion() const {
    auto stmt = prepare("PRAGMA user_version");
    if (!stmt) return -1;
    auto row = stmt->step();
    return row && *row ? static_cast<int>(stmt->int64(0)) : -1;
}

static std::pair<std::uint64_t, std::uint64_t> identityOf(const std::filesystem::path& file) {
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0) return {0, 0};
    return {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
}

void Database::noteWalFiles() {
    // After the first read: a WAL connection has both files open by now.
    const auto [walDev, walIno] = identityOf(path_.string() + "-wal");
    const auto [shmDev, shmIno] = identityOf(path_.string() + "-shm");
    wal_ = {walDev, walIno};
    shm_ = {shmDev, shmIno};
}

bool Database::walReplaced() const {
    const auto changed = [](const FileId& opened, const std::string& file) {
        if (opened == FileId{}) return false; // not a WAL connection, or nothing to compare with
        const auto [dev, ino] = identityOf(file);
        return FileId{dev, ino} != opened;
    };
    return changed(wal_, path_.string() + "-wal") || changed(shm_, path_.string() + "-shm");
}

int Database::newestSchemaVersion() {
    return static_cast<int>(migrations().size());
}

Status Database::migrate() {
    const int current = schemaVersion();
    const auto& steps = migrations();
    if (current > static_cast<int>(steps.size()))
        return makeError(ErrorCode::Database, path_.string() + ": written by a newer Kernelwright (schema " +
                                                  std::to_string(current) + "); upgrade to open it");
    for (int v = current; v < static_cast<int>(steps.size()); ++v) {
        auto s = transaction([&]() -> Status {
            if (auto r = exec(steps[static_cast<std::size_t>(v)]); !r) return r;
            return exec("PRAGMA user_version=" + std::to_string(v + 1));
        });
        if (!s)
            return makeError(ErrorCode::Database,
                             path_.string() + ": migration to schema " + std::to_string(v + 1) + " failed: " + s.error().message);
        log::store()->info("{}: migrated to schema {}", path_.string(), v + 1);
    }
    return {};
}

} // namespace kw::store
