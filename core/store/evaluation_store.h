#pragma once
#include "store/database.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kw::store {

struct EvaluationRecord {
    std::int64_t id = 0;
    std::string cacheKey;
    std::string problem;
    std::string problemHash;
    std::string candidateHash;
    std::string paramsJson;
    std::string status;
    std::optional<double> speedup;
    std::string resultJson;
    std::string createdAt;
    // The newest node that used it (filled by recent() only): its search and
    // its number in that search; 0 when no search's node used it.
    std::int64_t searchId = 0, nodeSeq = 0;
};

// Evaluations of candidates; doubles as the result cache.
class EvaluationStore {
  public:
    explicit EvaluationStore(const Database& db) : db_(db) {}

    // One transaction per evaluation; returns the new row id.
    Result<std::int64_t> insert(const EvaluationRecord& record) const;
    // The newest cacheable result for the key. Infrastructure failures are never
    // served from the cache: they say nothing about the candidate.
    Result<std::optional<EvaluationRecord>> findCached(const std::string& cacheKey) const;
    Result<std::vector<EvaluationRecord>> recent(int limit) const;
    Result<EvaluationRecord> find(std::int64_t id) const;

  private:
    const Database& db_;
};

} // namespace kw::store
