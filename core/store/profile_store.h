#pragma once
// Profiles per evaluation and level (schema 5). A node's profile is its
// evaluation's; re-profiling at the same level replaces the row.
#include "store/database.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kw::store {

struct ProfileRecord {
    std::int64_t id = 0, evaluationId = 0;
    std::string level;
    std::string reportJson;
    std::vector<std::string> diagnosis;
    std::string machine; // the host whose machine model gave the roofs
    std::string createdAt;
};

class ProfileStore {
  public:
    explicit ProfileStore(const Database& db) : db_(db) {}

    Status save(const ProfileRecord& record) const;
    // The deepest level stored for the evaluation, none when it was never profiled.
    Result<std::optional<ProfileRecord>> latest(std::int64_t evaluationId) const;
    Result<std::vector<ProfileRecord>> all(std::int64_t evaluationId) const;

  private:
    const Database& db_;
};

} // namespace kw::store
