#include "report/search_report.h"

#include "eval/evaluation_result.h"
#include "profile/provenance.h"
#include "report/standalone_kernel.h"
#include "report/tree_shape.h"
#include "report/tree_svg.h"
#include "store/evaluation_store.h"
#include "store/profile_store.h"
#include "store/search_store.h"
#include "util/format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>

namespace kw::report {
namespace {

std::string num(const char* format, double v) {
    return formatNumber(format, v);
}

// The best speedup after each finished node (in the order they were made),
// as an SVG polyline.
std::string curveSvg(const std::vector<store::NodeRecord>& nodes, const TreeShape& shape) {
    std::vector<const store::NodeRecord*> done;
    for (const auto& n : nodes)
        if (n.state == "done") done.push_back(&n);
    std::sort(done.begin(), done.end(), [](auto* a, auto* b) { return a->id < b->id; });
    const double w = 600, h = 200, m = 30;
    const double top = std::max(1.0, shape.bestSpeedup()) * 1.1;
    std::string points;
    double best = 0;
    for (std::size_t i = 0; i < done.size(); ++i) {
        if (const ShapeNode* n = shape.node(done[i]->id); n && n->glyph == Glyph::Correct) best = std::max(best, n->speedup);
        best = std::max(best, done[i]->speedup.value_or(0));
        const double x = m + (w - 2 * m) * (done.size() > 1 ? static_cast<double>(i) / static_cast<double>(done.size() - 1) : 0);
        const double y = h - m - (h - 2 * m) * best / top;
        points += num("%.1f", x) + "," + num("%.1f", y) + " ";
    }
    const std::string W = num("%.0f", w), H = num("%.0f", h), M = num("%.0f", m), HM = num("%.0f", h - m),
                      WM = num("%.0f", w - m);
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + W + "\" height=\"" + H +
           "\" font-family=\"sans-serif\" font-size=\"11\">" + "<line x1=\"" + M + "\" y1=\"" + HM + "\" x2=\"" + WM +
           "\" y2=\"" + HM + "\" stroke=\"#999\"/>" + "<line x1=\"" + M + "\" y1=\"" + M + "\" x2=\"" + M + "\" y2=\"" + HM +
           "\" stroke=\"#999\"/>" + "<polyline fill=\"none\" stroke=\"#1e88e5\" stroke-width=\"2\" points=\"" + points + "\"/>" +
           "<text x=\"" + M + "\" y=\"" + num("%.0f", h - 8) + "\">evaluations: " + std::to_string(done.size()) +
           "</text><text x=\"2\" y=\"" + M + "\">" + num("%.3g", top) + "x</text></svg>";
}

// Whose kernels a node's profiled call ran ("own 92 %"), from its stored
// profile; "-" for CPU nodes and nodes never profiled on a GPU.
std::string provenanceCell(const store::Database& db, std::int64_t evaluationId) {
    if (evaluationId <= 0) return "-";
    auto rec = store::ProfileStore(db).latest(evaluationId);
    if (!rec || !*rec) return "-";
    const auto j = nlohmann::json::parse((*rec)->reportJson, nullptr, false);
    if (!j.is_object() || !j.contains("provenance")) return "-";
    const auto p = profile::provenanceFromJson(j["provenance"]);
    return p ? "own " + num("%.0f", 100 * p->ownShare()) + " %" : "-";
}

// Where the best node was measured (host, CPU or GPU, compiler, flags, as
// its judge reported them) and its times shape by shape: the candidate and
// every baseline with their medians and spread, the speedup with its 95 %
// interval. Empty when the node has no stored result.
std::string bestNodeDetail(const store::Database& db, std::int64_t evaluationId) {
    if (evaluationId <= 0) return "";
    auto rec = store::EvaluationStore(db).find(evaluationId);
    if (!rec) return "";
    auto r = eval::parseResultJson(rec->resultJson);
    if (!r) return "";
    std::string html = "<h2>Where it was measured</h2>\n<table>";
    for (auto it = r->env.begin(); it != r->env.end(); ++it) {
        if (it.value().is_object() || it.value().is_array()) continue; // isolation details: below
        html += "<tr><th>" + markupEscape(it.key()) + "</th><td>" +
                markupEscape(it.value().is_string() ? it.value().get<std::string>() : it.value().dump()) + "</td></tr>";
    }
    if (r->env.contains("isolation") && r->env["isolation"].is_object())
        html += "<tr><th>isolation</th><td><code>" + markupEscape(r->env["isolation"].dump()) + "</code></td></tr>";
    html += "</table>\n";
    if (r->timing.empty()) return html;
    html += "<h2>Best node, shape by shape</h2>\n<table><tr><th>shape</th><th>sizes</th><th>candidate median (CV)</th>";
    for (const auto& b : r->timing.front().baselines) html += "<th>" + markupEscape(b.name) + " median (CV)</th>";
    html += "<th>speedup over the reference (95 %)</th><th>rounds</th></tr>\n";
    const auto timed = [](const eval::TimingStats& t) {
        return markupEscape(formatSeconds(t.median)) + " (" + num("%.1f", 100 * t.cv) + " %)";
    };
    for (const auto& t : r->timing) {
        html += "<tr><td>" + markupEscape(t.shape) + "</td><td><code>" + markupEscape(t.sizes.dump()) + "</code></td><td>" +
                timed(t.candidate) + "</td>";
        for (const auto& b : t.baselines) html += "<td>" + timed(b) + "</td>";
        html += "<td>" + num("%.4g", t.speedup) + "x" +
                (t.speedupInterval.first > 0
                     ? " (" + num("%.3g", t.speedupInterval.first) + "-" + num("%.3g", t.speedupInterval.second) + ")"
                     : std::string(" (no interval: too few rounds to bound it)")) +
                "</td><td>" + std::to_string(t.reps) + "</td></tr>\n";
    }
    return html + "</table>\n";
}

} // namespace

Result<std::string> searchReportHtml(const store::Database& db, std::int64_t searchId, int topCandidates) {
    store::SearchStore store(db);
    auto search = store.loadSearch(searchId);
    if (!search) return search.error();
    auto nodes = store.loadNodes(searchId);
    if (!nodes) return nodes.error();
    TreeShape shape;
    std::vector<ShapeNode> shaped;
    for (const auto& n : *nodes) {
        const Glyph g = glyphOf(nodeStateOf(n.state), n.status ? eval::parseStatus(*n.status) : std::nullopt, n.pruned);
        shaped.push_back({n.id, n.parentId, g, g == Glyph::Correct ? n.speedup.value_or(0) : 0, n.seq});
    }
    shape.apply(shaped);
    const std::string id = std::to_string(searchId);
    // People see a node's number in its search (#N), never the workspace's id.
    std::string bestNumber = "-";
    for (const auto& n : *nodes)
        if (search->bestNode && n.id == *search->bestNode) bestNumber = "#" + std::to_string(n.seq);
    std::string html =
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Kernelwright search " + id +
        "</title><style>body{font-family:sans-serif;margin:2em;max-width:1200px}pre{background:#f5f5f5;padding:1em;overflow:auto}"
        "table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:4px 8px;text-align:left}"
        ".tree{overflow:auto;border:1px solid #ddd}</style></head><body>\n";
    html += "<h1>Search " + id + ": " + markupEscape(search->problem) + "</h1>\n<p>status " + markupEscape(search->status) +
            (search->stopReason.empty() ? "" : " (" + markupEscape(search->stopReason) + ")") + " · " +
            std::to_string(search->evaluations) + " evaluations · best " +
            (search->bestSpeedup ? num("%.4g", *search->bestSpeedup) + "x" : std::string("-")) + " at node " + bestNumber +
            "</p>\n<p><code>" + markupEscape(search->configJson) + "</code></p>\n";
    html += "<h2>Best speedup so far</h2>\n" + curveSvg(*nodes, shape) + "\n<h2>Tree</h2>\n<div class=\"tree\">" +
            treeSvg(shape) + "</div>\n";
    std::vector<const store::NodeRecord*> correct;
    for (const auto& n : *nodes)
        if (const ShapeNode* placed = shape.node(n.id); placed && placed->glyph == Glyph::Correct) correct.push_back(&n);
    std::stable_sort(correct.begin(), correct.end(),
                     [](auto* a, auto* b) { return a->speedup.value_or(0) > b->speedup.value_or(0); });
    // Provenance: the share of the profiled call's kernel time in the
    // candidate's own kernels (delegating to a library earns about 1x).
    auto intervals = store.speedupIntervals(searchId);
    const auto intervalOf = [&](std::int64_t nodeId) -> std::string {
        if (!intervals) return "-";
        const auto it = intervals->find(nodeId);
        return it == intervals->end() ? "-" : num("%.3g", it->second.first) + "-" + num("%.3g", it->second.second);
    };
    html += "<h2>Top candidates</h2>\n<table><tr><th>node</th><th>parent</th><th>speedup</th><th>95 % interval</th>"
            "<th>origin</th><th>provenance</th><th>params</th></tr>\n";
    std::map<std::int64_t, std::int64_t> seqOf;
    for (const auto& n : *nodes) seqOf[n.id] = n.seq;
    for (std::size_t i = 0; i < correct.size() && i < static_cast<std::size_t>(std::max(0, topCandidates)); ++i)
        html += "<tr><td>#" + std::to_string(correct[i]->seq) + "</td><td>" +
                (correct[i]->parentId ? "#" + std::to_string(seqOf[correct[i]->parentId]) : std::string("(root)")) + "</td><td>" +
                num("%.4g", correct[i]->speedup.value_or(0)) + "x</td><td>" + intervalOf(correct[i]->id) + "</td><td>" +
                markupEscape(correct[i]->origin) + "</td><td>" + markupEscape(provenanceCell(db, correct[i]->evaluationId)) +
                "</td><td><code>" + markupEscape(correct[i]->paramsJson) + "</code></td></tr>\n";
    html += "</table>\n";
    if (search->bestNode) {
        for (const auto& n : *nodes)
            if (n.id == *search->bestNode) html += bestNodeDetail(db, n.evaluationId);
        auto kernel = standaloneKernel(db, searchId, *search->bestNode);
        html += "<h2>Best kernel (node " + bestNumber + ")</h2>\n<pre>" +
                markupEscape(kernel ? *kernel : kernel.error().message) + "</pre>\n";
    }
    return html + "</body></html>\n";
}

} // namespace kw::report
