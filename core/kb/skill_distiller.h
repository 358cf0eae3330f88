#pragma once
// Skills: what a finished search learned, written back as a KB document that
// waits for review (pending -> approved | rejected). Without a language model
// the skill is a structured account of the winning path: each step's change
// (params, rewritten source, the model's stated reason) and its measured gain.
// With one, the model condenses that account into advice.
#include "kb/kb_document.h"
#include "store/database.h"
#include "synth/llm/llm_client.h"

#include <filesystem>
#include <optional>

namespace kw::kb {

struct DistilledSkill {
    KbDocument doc;
    std::filesystem::path file;
    bool byModel = false;
};

// Writes the skill of search `searchId` into `dir` (the user KB's skills/
// folder by default) as a pending document. `llm` may be null.
Result<DistilledSkill> distillSkill(const store::Database& db, std::int64_t searchId, const std::filesystem::path& dir,
                                    const synth::llm::LlmClient* llm = nullptr);

// Sets a skill's review status in its file (approved | rejected | pending).
Status setSkillStatus(const std::filesystem::path& file, const std::string& status);

} // namespace kw::kb
