#include "profile/profile_report.h"

namespace kw::profile {
namespace {

const std::string* file(const ProfileRequest& r, const std::string& name) {
    auto it = r.jobFiles.find(name);
    return it == r.jobFiles.end() ? nullptr : &it->second;
}

// The candidate's runner's account of its median timed call at `shape` (the
// last timing shape when empty): runner_told is [set-up, launches,
// synchronize, export, first set's device time, each other set's, and
// (newer runners) describing the outputs for the judge, which launches no
// longer include: the launch signal is the candidate's host path alone].
void hostLaunchOf(const eval::EvaluationResult& result, const std::string& shape, DiagnosisInput& in) {
    const eval::TimingCase* t = nullptr;
    for (const auto& c : result.timing)
        if (shape.empty() || c.shape == shape) t = &c;
    if (!t || !t->clock.is_object()) return;
    const auto& clock = t->clock;
    const auto parts = clock.find("call_parts");
    const auto batch = clock.find("batch");
    if (parts == clock.end() || !parts->is_object() || batch == clock.end() || !batch->is_number()) return;
    const auto cand = parts->find("candidate");
    if (cand == parts->end() || !cand->is_object()) return;
    const auto told = cand->find("runner_told");
    if (told == cand->end() || !told->is_array() || told->size() < 6) return;
    for (const auto& v : *told)
        if (!v.is_number() || v.get<double>() < 0) return;
    const double b = batch->get<double>();
    if (b < 1) return;
    in.hostLaunchPerSet = (*told)[1].get<double>() / b;
    // The other sets' device time: the first set's also holds the rest of the
    // judge's lead (its flushes still run when the runner's first mark is
    // recorded: 226-229 us more than the others on an H200).
    in.devicePerSet = b >= 2 ? (*told)[5].get<double>() : (*told)[4].get<double>();
}

} // namespace

std::vector<std::string> ProfileReport::signalNames() const {
    std::vector<std::string> names;
    for (const auto& s : diagnosis) names.push_back(s.name);
    return names;
}

ProfileReport buildProfile(const eval::EvaluationResult& result, const ProfileRequest& request) {
    ProfileReport p;
    p.level = request.level;
    if (request.level == eval::ProfileLevel::None) return p;
    if (!result.correct()) {
        p.notes.push_back("no profile: the candidate is not correct (" + eval::statusName(result.status) + ")");
        return p;
    }
    if (request.roofs && !result.timing.empty())
        p.roofline = rooflineMetrics(result, *request.roofs);
    else if (!request.roofs)
        p.notes.push_back("roofline: " +
                          (request.noRoofs.empty()
                               ? std::string("no machine model for this host (run: kernelwright-cli machine probe)")
                               : request.noRoofs));
    else
        p.notes.push_back("roofline: the evaluation has no timing (check-only)");

    // A step that could not run leaves profile/unavailable-<tool>.txt saying why.
    // and a step that ran with a caveat leaves profile/note-<tool>.txt.
    const auto trimmed = [](std::string t) {
        while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
        return t;
    };
    for (const auto& [name, text] : request.jobFiles) {
        const bool ends = name.size() > 4 && name.compare(name.size() - 4, 4, ".txt") == 0;
        if (ends && name.rfind("unavailable-", 0) == 0)
            p.notes.push_back(name.substr(12, name.size() - 16) + ": not available: " + trimmed(text));
        else if (ends && name.rfind("note-", 0) == 0)
            p.notes.push_back(name.substr(5, name.size() - 9) + ": " + trimmed(text));
    }

    if (request.level == eval::ProfileLevel::Counters) {
        if (const auto* t = file(request, "counters.json")) {
            if (auto c = parseCounterReport(*t)) {
                p.counters = *c;
                if (!c->available) p.notes.push_back("counters: hardware counters not available: " + c->reason);
            } else
                p.notes.push_back("counters: " + c.error().message);
        } else
            p.notes.push_back("counters: the job wrote no profile/counters.json");
    }
    if (request.level == eval::ProfileLevel::Cachegrind) {
        const auto* out = file(request, "cachegrind.out");
        const auto* syms = file(request, "candidate-symbols.txt");
        if (out && syms) {
            if (auto c = parseCachegrind(*out, *syms))
                p.cachegrind = *c;
            else
                p.notes.push_back("cachegrind: " + c.error().message);
        } else if (!file(request, "unavailable-cachegrind.txt")) {
            p.notes.push_back("cachegrind: the job wrote no profile/cachegrind.out");
        }
    }
    if (request.level == eval::ProfileLevel::Ncu) {
        if (const auto* csv = file(request, "ncu.csv")) {
            if (auto k = parseNcuCsv(*csv))
                p.ncu = *k;
            else
                p.notes.push_back("ncu: " + k.error().message);
        } else if (!file(request, "unavailable-ncu.txt")) {
            p.notes.push_back("ncu: the job wrote no profile/ncu.csv");
        }
    }

    // GPU judges write a breakdown of one call at every level (it costs one profiled call).
    if (const auto* t = file(request, "breakdown.json")) {
        if (auto b = parseBreakdown(*t)) {
            p.breakdown = *b;
            if (!request.candidateSource.empty()) p.provenance = provenanceOf(*b, request.candidateSource);
        } else
            p.notes.push_back("breakdown: " + b.error().message);
    }

    DiagnosisInput in;
    in.roofline = p.roofline ? &*p.roofline : nullptr;
    in.counters = p.counters ? &*p.counters : nullptr;
    in.cachegrind = p.cachegrind ? &*p.cachegrind : nullptr;
    in.ncu = &p.ncu;
    if (!result.timing.empty()) {
        in.profiledBytes = result.timing.front().bytes;
        in.profiledFlops = result.timing.front().flops;
    }
    if (p.breakdown) {
        in.breakdown = &*p.breakdown;
        for (const auto& t : result.timing)
            if (t.shape == p.breakdown->shape) in.breakdownCallSeconds = t.candidate.median;
    }
    hostLaunchOf(result, p.breakdown ? p.breakdown->shape : std::string(), in);
    in.nearRoofline = request.nearRoofline;
    p.diagnosis = diagnose(in);
    return p;
}

nlohmann::json toJson(const ProfileReport& p) {
    nlohmann::json j{{"level", eval::profileLevelName(p.level)}, {"notes", p.notes}, {"signals", toJson(p.diagnosis)}};
    if (p.roofline) j["roofline"] = toJson(*p.roofline);
    if (p.counters) j["counters"] = toJson(*p.counters);
    if (p.cachegrind) j["cachegrind"] = toJson(*p.cachegrind);
    if (p.breakdown) j["breakdown"] = toJson(*p.breakdown);
    if (p.provenance) j["provenance"] = toJson(*p.provenance);
    if (!p.ncu.empty()) {
        j["ncu"] = nlohmann::json::array();
        for (const auto& k : p.ncu) j["ncu"].push_back(toJson(k));
    }
    return j;
}

} // namespace kw::profile
