#include "report/model_report.h"

#include "report/tree_svg.h"
#include "util/format.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace kw::report {
namespace {

std::string num(const char* format, double v) {
    return formatNumber(format, v);
}

std::string times(double x) {
    return num("%.2f", x) + "x";
}

// Each region's forward before (grey) and after (blue), costliest first.
std::string barsSvg(const model::ModelFolder& f) {
    struct Bar {
        std::string name;
        double before = 0, after = -1;
    };
    std::vector<Bar> bars;
    if (f.ab && !f.ab->regions.empty())
        for (const auto& r : f.ab->regions) bars.push_back({r.name, r.beforeSeconds, r.afterSeconds});
    else
        for (const auto& r : f.extract.regions) bars.push_back({r.name, r.seconds, -1});
    std::stable_sort(bars.begin(), bars.end(), [](const Bar& a, const Bar& b) { return a.before > b.before; });
    double longest = 1e-9;
    for (const auto& b : bars) longest = std::max({longest, b.before, b.after});
    const int row = 30, label = 140, width = 460;
    std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(label + width + 90) + "\" height=\"" +
                      std::to_string(row * static_cast<int>(bars.size()) + 10) +
                      "\" font-family=\"sans-serif\" font-size=\"12\">";
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const int y = 5 + row * static_cast<int>(i);
        const auto& b = bars[i];
        const auto w = [&](double s) { return std::to_string(static_cast<int>(width * s / longest + 0.5)); };
        svg += "<text x=\"0\" y=\"" + std::to_string(y + 16) + "\">" + markupEscape(b.name) + "</text>";
        svg += "<rect x=\"" + std::to_string(label) + "\" y=\"" + std::to_string(y) + "\" width=\"" + w(b.before) +
               "\" height=\"11\" fill=\"#aaa\"><title>before " + formatSeconds(b.before) + "</title></rect>";
        if (b.after >= 0)
            svg += "<rect x=\"" + std::to_string(label) + "\" y=\"" + std::to_string(y + 12) + "\" width=\"" + w(b.after) +
                   "\" height=\"11\" fill=\"#2a7fd0\"><title>after " + formatSeconds(b.after) + "</title></rect>";
        svg += "<text x=\"" + std::to_string(label + width + 6) + "\" y=\"" + std::to_string(y + 16) + "\">" +
               formatSeconds(b.before) + (b.after >= 0 ? " &#8594; " + formatSeconds(b.after) : "") + "</text>";
    }
    return svg + "</svg>";
}

} // namespace

std::string modelSectionHtml(const model::ModelFolder& f) {
    const auto& e = f.extract;
    std::string html = "<section class=\"model\">\n<h2>Model " + markupEscape(e.modelName) + "</h2>\n<p>a step takes " +
                       formatSeconds(e.stepSeconds) + " on the " + (e.device == "cuda" ? "GPU" : "CPU") + " · folder " +
                       markupEscape(f.dir.string()) + "</p>\n";
    if (f.ab)
        for (const auto& r : f.ab->rows)
            if (r.variant == "swapped" || r.variant == "swapped vs compile")
                html += "<p><b>" +
                        markupEscape(r.variant == "swapped" ? "end to end over eager" : "end to end over torch.compile") + ": " +
                        times(r.speedup) + "</b> (95 % interval " + num("%.2f", r.low) + "-" + num("%.2f", r.high) + ", " +
                        std::to_string(f.ab->rounds) + " interleaved rounds)</p>\n";
    if (f.applied)
        html += std::string("<p>") +
                (f.applied->modelOk ? "the swapped model's output matches the original's on fresh inputs"
                                    : "the swapped model's output DIFFERS: " + markupEscape(f.applied->modelWhy)) +
                "</p>\n";
    std::map<std::string, const suite::Entry*> searched;
    for (const auto& s : f.searched) searched[s.problem] = &s;
    std::map<std::string, const model::RegionCheck*> checks;
    if (f.applied)
        for (const auto& c : f.applied->regions) checks[c.region] = &c;
    html += "<table><tr><th>region</th><th>kind</th><th>share</th><th>problem</th><th>from</th><th>search</th><th>in the "
            "model</th></tr>\n";
    for (const auto& r : e.regions) {
        std::string search = "-", inModel = f.applied ? "kept" : "not applied";
        if (auto it = searched.find(r.problem); it != searched.end())
            search = std::to_string(it->second->searchId) + " · " +
                     (it->second->speedup ? times(*it->second->speedup) + " alone" : markupEscape(it->second->status));
        if (auto it = checks.find(r.name); it != checks.end())
            inModel = !it->second->swapped ? "kept: " + markupEscape(it->second->why)
                      : it->second->ok     ? "swapped, output checked"
                                           : "WRONG: " + markupEscape(it->second->why);
        html += "<tr><td>" + markupEscape(r.name) + "</td><td>" + markupEscape(r.kind) + "</td><td>" +
                num("%.1f", 100 * r.share) + " %</td><td>" + markupEscape(r.problem.empty() ? "-" : r.problem) + "</td><td>" +
                (!r.skipped.empty()  ? "skipped: " + markupEscape(r.skipped)
                 : r.matched.empty() ? std::string("its own problem")
                                     : markupEscape(r.matched) + " (by behaviour)") +
                "</td><td>" + search + "</td><td>" + inModel + "</td></tr>\n";
    }
    html += "</table>\n<h3>Each region's forward, before and after</h3>\n" + barsSvg(f) + "\n";
    if (f.ab) {
        html += "<h3>A/B</h3>\n<table><tr><th>variant</th><th>median step</th><th>speedup</th><th>95 % "
                "interval</th><th>over</th></tr>\n";
        for (const auto& r : f.ab->rows)
            html += "<tr><td>" + markupEscape(r.variant) + "</td><td>" + formatSeconds(r.medianSeconds) + "</td><td>" +
                    times(r.speedup) + "</td><td>" + num("%.3f", r.low) + "-" + num("%.3f", r.high) + "</td><td>" +
                    markupEscape(r.over) +
                    (r.slowerInModel ? " · <b>slower in the model</b>, though " + times(*r.kernelSpeedup) + " alone" : "") +
                    "</td></tr>\n";
        html += "</table>\n";
        for (const auto& n : f.ab->notes) html += "<p>note: " + markupEscape(n) + "</p>\n";
    } else {
        html += "<p>not timed A/B yet (kernelwright-cli model ab " + markupEscape(f.dir.string()) + ")</p>\n";
    }
    return html + "</section>\n";
}

std::string modelReportHtml(const model::ModelFolder& f) {
    return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Kernelwright model " + markupEscape(f.extract.modelName) +
           "</title><style>body{font-family:sans-serif;margin:2em;max-width:1200px}"
           "table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:4px 8px;text-align:left}</style></head><body>\n" +
           modelSectionHtml(f) + "</body></html>\n";
}

} // namespace kw::report
