#include "kb/kb_import.h"
#include "util/text.h"

#include "eval/process_runner.h"
#include "kb/front_matter.h"
#include "util/files.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <map>
#include <sstream>

namespace kw::kb {
namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string slug(const std::string& s) {
    std::string out;
    for (unsigned char c : lower(s)) {
        if (std::isalnum(c))
            out += static_cast<char>(c);
        else if (!out.empty() && out.back() != '-')
            out += '-';
    }
    while (!out.empty() && out.back() == '-') out.pop_back();
    return out.empty() ? "imported" : out.substr(0, 60);
}

// Keywords that suggest a platform or a signal (lowercase substrings).
const std::vector<std::pair<const char*, const char*>> kPlatformWords{
    {"avx", "x86-64"},    {"x86", "x86-64"},    {"xeon", "x86-64"},  {"epyc", "x86-64"},       {"h100", "hopper"},
    {"hopper", "hopper"}, {"cuda", "hopper"},   {"wgmma", "hopper"}, {"mi300", "cdna3"},       {"cdna", "cdna3"},
    {"hip", "cdna3"},     {"neon", "neoverse"}, {"sve", "neoverse"}, {"neoverse", "neoverse"}, {"aarch64", "neoverse"}};
const std::vector<std::pair<const char*, const char*>> kSignalWords{{"bandwidth", "memory_bound"},
                                                                    {"memory-bound", "memory_bound"},
                                                                    {"memory bound", "memory_bound"},
                                                                    {"flops", "compute_bound"},
                                                                    {"compute-bound", "compute_bound"},
                                                                    {"occupancy", "low_occupancy"},
                                                                    {"latency", "latency_bound"},
                                                                    {"compile", "compile_error"},
                                                                    {"mismatch", "wrong_answer"},
                                                                    {"vectoriz", "low_vectorization"},
                                                                    {"simd", "low_vectorization"},
                                                                    {"launch overhead", "launch_overhead"},
                                                                    {"reduction", "op:reduction"},
                                                                    {"softmax", "op:softmax"},
                                                                    {"gemm", "op:gemm"},
                                                                    {"matrix multipl", "op:gemm"},
                                                                    {"convolution", "op:conv"},
                                                                    {"layernorm", "op:normalization"},
                                                                    {"normalization", "op:normalization"},
                                                                    {"gather", "op:gather"},
                                                                    {"jagged", "op:jagged"},
                                                                    {"embedding", "op:embedding"},
                                                                    {"attention", "op:attention"}};

// Plain text: headings are markdown '#' lines, or short lines that look like
// a numbered or capitalized title; long stretches without any are cut every
// ~350 words at a paragraph break.
std::string sectionize(const std::string& text) {
    std::istringstream in(text);
    std::string line, out;
    int words = 0;
    bool lastBlank = true;
    while (std::getline(in, line)) {
        const std::string t = trim(line);
        if (t.rfind("#", 0) == 0) {
            const auto h = t.find_first_not_of('#');
            out += "\n## " + trim(t.substr(h == std::string::npos ? t.size() : h)) + "\n";
            words = 0;
        } else if (lastBlank && !t.empty() && t.size() < 70 && t.back() != '.' && t.back() != ',' &&
                   (std::isdigit(static_cast<unsigned char>(t[0])) || std::isupper(static_cast<unsigned char>(t[0]))) &&
                   std::count(t.begin(), t.end(), ' ') < 8 && text.size() > 800) {
            out += "\n## " + t + "\n";
            words = 0;
        } else {
            if (t.empty() && words > 350) {
                out += "\n## (continued)\n";
                words = 0;
            }
            out += line + "\n";
            words += static_cast<int>(std::count(t.begin(), t.end(), ' ')) + (t.empty() ? 0 : 1);
        }
        lastBlank = t.empty();
    }
    return out;
}

ImportedDocument propose(const std::filesystem::path& source, const std::string& text) {
    ImportedDocument imp;
    imp.source = source;
    imp.proposedFrontMatter = true;
    KbDocument& d = imp.doc;
    d.id = "imported-" + slug(source.stem().string());
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
        if (!trim(line).empty()) {
            d.title = trim(line.substr(line.find_first_not_of("# ") == std::string::npos ? 0 : line.find_first_not_of("# ")));
            break;
        }
    if (d.title.empty()) d.title = source.stem().string();
    if (d.title.size() > 100) d.title = d.title.substr(0, 100);
    const std::string l = lower(text);
    for (const auto& [word, platform] : kPlatformWords)
        if (l.find(word) != std::string::npos && !contains(d.platforms, platform)) d.platforms.push_back(platform);
    if (d.platforms.empty()) d.platforms.push_back("any");
    for (const auto& [word, signal] : kSignalWords)
        if (l.find(word) != std::string::npos && !contains(d.triggers, signal)) d.triggers.push_back(signal);
    d.category = d.platforms.front() == "any" ? "guidance" : "hardware";
    d.tags = {"imported"};
    d.status = "shipped";
    d.body = "# " + d.title + "\n" + sectionize(text);
    d.sections = splitSections(d.body);
    imp.text = renderFrontMatter(d) + d.body;
    return imp;
}

Result<ImportedDocument> importFile(const std::filesystem::path& file) {
    const std::string ext = lower(file.extension().string());
    std::string text;
    if (ext == ".pdf") {
        auto t = pdfText(file);
        if (!t) return t.error();
        text = *t;
    } else if (ext == ".md" || ext == ".markdown" || ext == ".txt") {
        auto t = readTextFile(file);
        if (!t) return t.error();
        text = *t;
    } else {
        return makeError(ErrorCode::InvalidArgument,
                         file.string() + ": cannot import '" + ext + "' files (markdown, text and PDF only)");
    }
    if (trim(text).empty())
        return makeError(ErrorCode::Validation, file.string() + ": no text in it (a scanned PDF has none to extract)");
    if (text.rfind("---", 0) == 0) { // front matter of its own: kept when valid
        auto parsed = parseDocument(file.string(), text);
        if (!parsed.errors.empty()) {
            std::string all;
            for (const auto& e : parsed.errors) all += "\n  " + e;
            return makeError(ErrorCode::Validation, "invalid front matter:" + all);
        }
        return ImportedDocument{parsed.doc, text, file, false};
    }
    return propose(file, text);
}

} // namespace

Result<std::string> pdfText(const std::filesystem::path& pdf) {
    // Unique per call: imports may run on several threads of one process.
    static std::atomic<int> calls{0};
    const auto out = std::filesystem::temp_directory_path() /
                     ("kernelwright-pdf-" + std::to_string(getpid()) + "-" + std::to_string(calls.fetch_add(1)) + ".txt");
    eval::ProcessSpec spec;
    spec.argv = {"pdftotext", "-enc", "UTF-8", std::filesystem::absolute(pdf).string(), out.string()};
    spec.workDir = std::filesystem::temp_directory_path();
    spec.stdoutFile = out.string() + ".log";
    spec.stderrFile = out.string() + ".err";
    spec.limits.wallSeconds = 120;
    const auto p = eval::runProcess(spec);
    auto err = readTextFile(spec.stderrFile);
    auto text = readTextFile(out);
    std::error_code ec;
    for (const auto& f : {out, std::filesystem::path(spec.stdoutFile), std::filesystem::path(spec.stderrFile)})
        std::filesystem::remove(f, ec);
    if (!p.started) return makeError(ErrorCode::NotFound, "pdftotext is not available (install poppler-utils): " + p.startError);
    if (p.exitCode != 0 || !text)
        return makeError(ErrorCode::ParseError, pdf.string() + ": pdftotext failed (exit " + std::to_string(p.exitCode) +
                                                    "): " + (err ? trim(*err) : ""));
    return *text;
}

Result<std::vector<ImportedDocument>> importPath(const std::filesystem::path& path) {
    std::vector<ImportedDocument> out;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        std::vector<std::filesystem::path> files;
        for (auto it = std::filesystem::recursive_directory_iterator(path, ec);
             it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
            if (ec) break;
            const auto ext = lower(it->path().extension().string());
            if (it->is_regular_file() && (ext == ".md" || ext == ".markdown" || ext == ".txt" || ext == ".pdf"))
                files.push_back(it->path());
        }
        std::sort(files.begin(), files.end());
        for (const auto& f : files) {
            auto d = importFile(f);
            if (!d) return d.error();
            out.push_back(std::move(*d));
        }
        if (out.empty()) return makeError(ErrorCode::NotFound, path.string() + ": no .md, .txt or .pdf files in it");
        return out;
    }
    if (!std::filesystem::exists(path, ec)) return makeError(ErrorCode::NotFound, path.string() + ": no such file or folder");
    auto d = importFile(path);
    if (!d) return d.error();
    out.push_back(std::move(*d));
    return out;
}

} // namespace kw::kb
