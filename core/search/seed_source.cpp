#include "search/seed_source.h"

#include "search/node_record.h"

namespace kw::search {

std::vector<synth::Proposal> seedProposals(const problem::ProblemSpec& problem, const Note& note) {
    std::vector<const problem::SourceFile*> seeds;
    for (const auto& s : problem.seeds) seeds.push_back(&s);
    if (seeds.empty()) {
        note("problem " + problem.name + " has no seed candidates; the search starts from its reference");
        seeds.push_back(&problem.reference);
    }
    bool anyParams = false;
    std::vector<synth::Proposal> out;
    for (const auto* seed : seeds) {
        anyParams = anyParams || !seed->params.params.empty();
        synth::Proposal p;
        p.origin = NodeOrigin::Seed;
        p.sourceName = seed->name;
        p.source = seed->text;
        p.params = seed->params.defaults();
        p.rationale = "seed";
        out.push_back(std::move(p));
    }
    if (!anyParams) note("nothing to tune: no seed declares @kw-param lines; the seeds are still evaluated");
    return out;
}

Result<std::vector<synth::Proposal>> historyProposals(store::SearchStore& store, std::int64_t searchId,
                                                      const problem::ProblemSpec& problem, const SearchTree& tree, int most,
                                                      const Note& note) {
    auto searches = store.listSearches();
    if (!searches) return searches.error();
    std::vector<synth::Proposal> out;
    int known = 0;
    for (auto it = searches->rbegin(); it != searches->rend() && static_cast<int>(out.size()) + known < most; ++it) {
        if (it->id == searchId || it->problem != problem.name || !it->bestNode || it->bestSpeedup.value_or(0) <= 0) continue;
        auto nodes = store.loadNodes(it->id);
        if (!nodes) return nodes.error();
        for (const auto& n : *nodes) {
            if (n.id != *it->bestNode) continue;
            auto node = nodeFromRecord(n);
            auto source = store.sourceText(n.sourceHash);
            if (!node || !source) break;
            if (tree.contains(n.sourceHash, node->params)) { // the earlier best is one of this search's seeds already
                ++known;
                break;
            }
            synth::Proposal p;
            p.origin = NodeOrigin::Seed;
            p.sourceName = n.sourceName;
            p.source = *source;
            p.params = node->params;
            p.rationale = "best of search " + std::to_string(it->id) + " (" + std::to_string(it->bestSpeedup.value_or(0)) + "x)";
            out.push_back(std::move(p));
            break;
        }
    }
    if (out.empty() && known == 0)
        note("no earlier search of " + problem.name + " to seed from");
    else
        note("seeded from history: " + std::to_string(out.size()) + " best kernel(s) of earlier searches of " + problem.name +
             " added" + (known ? ", " + std::to_string(known) + " already among the seeds" : ""));
    return out;
}

} // namespace kw::search
