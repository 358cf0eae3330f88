#include "kb/skill_distiller.h"

#include "kb/front_matter.h"
#include "kb/kb_index.h"
#include "problem/problem_loader.h"
#include "store/search_store.h"
#include "util/files.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <sstream>

namespace kw::kb {
namespace {

std::map<std::string, std::string> paramsOf(const std::string& json) {
    std::map<std::string, std::string> out;
    auto j = nlohmann::json::parse(json, nullptr, false);
    if (j.is_object())
        for (auto it = j.begin(); it != j.end(); ++it) out[it.key()] = it->is_string() ? it->get<std::string>() : it->dump();
    return out;
}

std::string paramsDiff(const std::map<std::string, std::string>& before, const std::map<std::string, std::string>& after) {
    std::string s;
    for (const auto& [k, v] : after) {
        auto it = before.find(k);
        if (it == before.end())
            s += (s.empty() ? "" : ", ") + k + "=" + v;
        else if (it->second != v)
            s += (s.empty() ? "" : ", ") + k + " " + it->second + " -> " + v;
    }
    return s;
}

int lineCount(const std::string& s) {
    return static_cast<int>(std::count(s.begin(), s.end(), '\n'));
}

} // namespace

Result<DistilledSkill> distillSkill(const store::Database& db, std::int64_t searchId, const std::filesystem::path& dir,
                                    const synth::llm::LlmClient* llm) {
    store::SearchStore store(db);
    auto search = store.loadSearch(searchId);
    if (!search) return search.error();
    if (!search->bestNode || !search->bestSpeedup || *search->bestSpeedup <= 0)
        return makeError(ErrorCode::Validation,
                         "search " + std::to_string(searchId) + " has no correct timed kernel to learn from");
    auto nodes = store.loadNodes(searchId);
    if (!nodes) return nodes.error();
    std::map<std::int64_t, store::NodeRecord> byId;
    for (const auto& n : *nodes) byId[n.id] = n;
    std::vector<store::NodeRecord> path; // seed first
    for (auto id = *search->bestNode; id && byId.count(id); id = byId[id].parentId) path.insert(path.begin(), byId[id]);
    auto problem = problem::loadProblem(search->problemDir);
    const std::string title = problem ? problem->title : search->problem;
    const std::string description = problem ? problem->description : "";

    std::ostringstream body;
    body << "# What worked for " << title << "\n\n";
    body << "## Outcome\n"
         << "Search " << searchId << " on " << search->problem << " reached " << *search->bestSpeedup
         << "x over the reference in " << search->evaluations << " evaluations on " << hostPlatform() << ".\n";
    if (!description.empty())
        body << "Operator: " << description.substr(0, 400) << (description.size() > 400 ? "..." : "") << "\n";
    body << "\n## Winning path\n";
    std::string lastSource;
    std::map<std::string, std::string> lastParams;
    for (std::size_t i = 0; i < path.size(); ++i) {
        const auto& n = path[i];
        const auto params = paramsOf(n.paramsJson);
        body << "- step " << i << " (" << n.origin << ", node #" << n.seq << "): "; // the number every view shows
        if (i == 0) body << "start from " << n.sourceName;
        const auto diff = paramsDiff(lastParams, params);
        if (i > 0 && !diff.empty()) body << "params " << diff;
        if (i > 0 && n.sourceHash != path[i - 1].sourceHash) {
            auto src = store.sourceText(n.sourceHash);
            body << (diff.empty() ? "" : "; ") << "source rewritten (" << (src ? lineCount(*src) : 0) << " lines)";
            if (src) lastSource = *src;
        }
        body << " -> " << n.speedup.value_or(0) << "x";
        if (n.origin == "llm" && !n.message.empty()) body << "; reason given: " << n.message.substr(0, 200);
        body << "\n";
        lastParams = params;
    }
    const auto& best = path.back();
    body << "\n## Best configuration\n";
    for (const auto& [k, v] : paramsOf(best.paramsJson)) body << "- " << k << " = " << v << "\n";
    if (paramsOf(best.paramsJson).empty()) body << "- (no tunable params)\n";
    // What did not work is advice too: the failures the search ran into.
    std::map<std::string, int> failures;
    for (const auto& n : *nodes)
        if (n.status && *n.status != "ok") ++failures[*n.status];
    if (!failures.empty()) {
        body << "\n## Failures seen\n";
        for (const auto& [status, count] : failures) body << "- " << count << " x " << status << "\n";
    }

    DistilledSkill skill;
    KbDocument& d = skill.doc;
    d.id = "skill-" + search->problem + "-s" + std::to_string(searchId);
    std::replace(d.id.begin(), d.id.end(), '_', '-');
    d.title = "Skill: what worked for " + title;
    d.category = "skills";
    d.platforms = {hostPlatform().empty() ? "any" : hostPlatform()};
    d.triggers = {};
    d.tags = {search->problem, "skill"};
    d.status = "pending";
    d.body = body.str();
    if (llm) {
        synth::llm::ChatRequest req;
        req.system = "You write short, precise engineering notes for kernel developers.";
        req.user =
            "From this account of a kernel search, write advice for the next engineer tuning a similar operator on the same "
            "machine: which changes mattered, in what order, which parameter values won and why that is plausible, and what "
            "failed. Markdown with ## sections, 150-400 words, no code blocks.\n\n" +
            d.body;
        req.maxTokens = 1500;
        req.temperature = 0.3;
        const auto out = llm->complete(req, nullptr, {}, 1);
        if (out.call.ok && !out.call.reply.text.empty()) {
            d.body = "# " + d.title + "\n\n" + out.call.reply.text + "\n\n" + d.body.substr(d.body.find("## Outcome"));
            skill.byModel = true;
        }
    }
    d.sections = splitSections(d.body);
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    skill.file = dir / (d.id + ".md");
    if (auto s = writeFileAtomic(skill.file, renderFrontMatter(d) + d.body); !s) return s.error();
    d.path = skill.file.string();
    return skill;
}

Status setSkillStatus(const std::filesystem::path& file, const std::string& status) {
    if (status != "approved" && status != "rejected" && status != "pending")
        return makeError(ErrorCode::InvalidArgument, "a skill's status is approved, rejected or pending");
    auto text = readTextFile(file);
    if (!text) return text.error();
    auto parsed = parseDocument(file.string(), *text);
    if (!parsed.errors.empty()) return makeError(ErrorCode::Validation, parsed.errors.front());
    if (parsed.doc.category != "skills")
        return makeError(ErrorCode::InvalidArgument, file.string() + " is not a skill (category " + parsed.doc.category + ")");
    parsed.doc.status = status;
    return writeFileAtomic(file, renderFrontMatter(parsed.doc) + parsed.doc.body);
}

} // namespace kw::kb
