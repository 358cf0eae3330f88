#pragma once
// The files SQLite keeps for a workspace: the database and, beside it, its
// write-ahead log (-wal), shared-memory index (-shm) and rollback journal
// (-journal). Nothing but SQLite may open them in a process that has the
// workspace open (closing any descriptor of them drops the process's locks),
// and nothing may write over them.
#include <filesystem>

namespace kw::store {

// True when file is one of the workspace's files: the same file on disk
// (through any link or relative path), or the same path when it does not exist.
bool isWorkspaceFile(const std::filesystem::path& file, const std::filesystem::path& database);

} // namespace kw::store
