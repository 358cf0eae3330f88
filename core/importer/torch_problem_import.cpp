#include "importer/torch_problem_import.h"

#include "eval/embedded_templates.h"
#include "eval/process_runner.h"
#include "problem/problem_loader.h"
#include "util/files.h"
#include "util/json_text.h"
#include "util/log.h"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <csignal>
#include <cstdlib>
#include <fstream>

namespace kw::importer {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

struct Scratch {
    fs::path dir;
    Scratch() {
        static int counter = 0;
        dir = fs::temp_directory_path() / ("kernelwright-import-" + std::to_string(::getpid()) + "-" + std::to_string(++counter));
        fs::create_directories(dir);
    }
    ~Scratch() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
};

std::string firstLine(const std::string& text) {
    const auto nl = text.find('\n');
    return nl == std::string::npos ? text : text.substr(0, nl);
}

// The Model class's docstring, or its first comment lines: the problem's description.
std::string descriptionOf(const std::string& source, const fs::path& file) {
    const auto cls = source.find("class Model");
    if (cls != std::string::npos) {
        const auto body = source.find(':', cls);
        const auto quote = body == std::string::npos ? std::string::npos : source.find_first_not_of(" \t\r\n", body + 1);
        for (const char* q : {"\"\"\"", "'''"})
            if (quote != std::string::npos && source.compare(quote, 3, q) == 0) {
                const auto end = source.find(q, quote + 3);
                if (end != std::string::npos) {
                    std::string doc = source.substr(quote + 3, end - quote - 3);
                    const auto b = doc.find_first_not_of(" \t\r\n");
                    if (b != std::string::npos) return doc.substr(b, doc.find_last_not_of(" \t\r\n") - b + 1);
                }
            }
    }
    return "Imported from " + file.filename().string() + " (KernelBench format): Model.forward is the operator to write.";
}

json shapeJson(const json& s) {
    json out = json::object();
    out["name"] = s.is_object() ? s.value("name", std::string("shape")) : std::string("shape");
    out["sizes"] = s.is_object() && s.contains("sizes") ? s.at("sizes") : json::object();
    return out;
}

} // namespace

std::string problemNameFor(const fs::path& file) {
    std::string name;
    for (char c : file.stem().string()) {
        const auto u = static_cast<unsigned char>(c);
        name += std::isalnum(u) ? static_cast<char>(std::tolower(u)) : '_';
    }
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front()))) name = "kb_" + name;
    return name;
}

std::optional<ImportReport> earlierImport(const fs::path& file, const fs::path& outDir) {
    std::error_code ec;
    if (!fs::is_regular_file(outDir / "problem.json", ec)) return std::nullopt;
    auto text = readTextFile(outDir / "problem.json", 16u << 20);
    auto source = readTextFile(file, 4u << 20);
    auto copied = readTextFile(outDir / "reference.py", 4u << 20);
    if (!text || !source || !copied || *source != *copied) return std::nullopt;
    const json p = json::parse(*text, nullptr, false);
    if (!p.is_object() || !p.contains("imported") || !p["imported"].is_object() ||
        p["imported"].value("from", std::string()) != fs::absolute(file).string())
        return std::nullopt;
    auto strings = [](const json& v) {
        std::vector<std::string> out;
        if (v.is_array())
            for (const auto& x : v)
                if (x.is_string()) out.push_back(x.get<std::string>());
        return out;
    };
    const auto& imported = p["imported"];
    ImportReport r;
    r.name = p.value("name", outDir.filename().string());
    r.dir = outDir;
    r.varied = strings(imported.value("varied", json::array()));
    r.fixed = strings(imported.value("fixed", json::array()));
    if (p.contains("shapes") && p["shapes"].is_object() && p["shapes"].contains("check") && p["shapes"]["check"].is_array())
        r.checkShapes = static_cast<int>(p["shapes"]["check"].size());
    r.forbidden = strings(p.value("forbidden", json::array()));
    r.referenceOps = strings(imported.value("reference_ops", json::array()));
    r.tolerance = imported.value("tolerance_basis", std::string());
    r.bytes = p.contains("bytes") && p["bytes"].is_string() ? p["bytes"].get<std::string>() : "";
    r.flops = p.contains("flops") && p["flops"].is_string() ? p["flops"].get<std::string>() : "";
    r.notes = strings(imported.value("notes", json::array()));
    r.device = imported.value("ran_on", std::string());
    return r;
}

Result<ImportReport> importTorchProblem(const fs::path& file, const ImportOptions& options) {
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) return makeError(ErrorCode::NotFound, file.string() + ": no such file");
    auto source = readTextFile(file, 4u << 20);
    if (!source) return source.error();
    if (fs::exists(options.outDir / "problem.json", ec))
        return makeError(ErrorCode::InvalidArgument, (options.outDir / "problem.json").string() +
                                                         " exists: import into a new folder (--out), nothing is overwritten");
    const std::string python = eval::torchPython();
    if (python.empty())
        return makeError(ErrorCode::NotFound, "python3 is not on PATH: the import runs the reference; install python3 with "
                                              "PyTorch, or set KW_PYTHON");

    Scratch scratch;
    std::ofstream(scratch.dir / "torch_import.py", std::ios::binary) << eval::embeddedTemplates().at("torch_import.py");
    std::ofstream(scratch.dir / "torch_sizes.py", std::ios::binary) << eval::embeddedTemplates().at("torch_sizes.py");
    eval::ProcessSpec spec;
    spec.argv = {python, (scratch.dir / "torch_import.py").string(), fs::absolute(file).string()};
    spec.workDir = scratch.dir;
    spec.stdoutFile = scratch.dir / "out.json";
    spec.stderrFile = scratch.dir / "err.txt";
    spec.limits.wallSeconds = options.timeoutS;
    if (!options.gpu.empty()) spec.extraEnv.push_back("CUDA_VISIBLE_DEVICES=" + options.gpu);
    log::problem()->info("importing {} with {}", file.string(), python);
    const auto o = eval::runProcess(spec);
    const auto text = [](const fs::path& p) {
        auto t = readTextFile(p);
        return t ? *t : std::string();
    };
    const std::string out = text(spec.stdoutFile), err = text(spec.stderrFile);
    if (!o.started) return makeError(ErrorCode::Io, "cannot start " + python + ": " + o.startError);
    if (o.timedOut)
        return makeError(ErrorCode::Io, file.string() + ": the reference did not finish its shapes within " +
                                            std::to_string(static_cast<int>(options.timeoutS)) +
                                            " s; import on the GPU host, or shrink the file's sizes");
    // The last line is the importer's answer; a file that prints keeps its prints before it.
    const auto lastNl = out.find_last_of('\n', out.size() >= 2 ? out.size() - 2 : 0);
    const json r = json::parse(lastNl == std::string::npos ? out : out.substr(lastNl + 1), nullptr, false);
    if (!r.is_object() && o.signal == SIGKILL)
        return makeError(ErrorCode::Io, file.string() + ": the importer was killed (signal 9), most often for memory: the file's "
                                                        "inputs at its own sizes did not fit beside the other imports; import it "
                                                        "alone (--jobs 1), on the GPU host, or with smaller sizes");
    if (!r.is_object())
        return makeError(ErrorCode::Io, file.string() + ": the importer gave no answer (exit " + std::to_string(o.exitCode) +
                                            (o.signal ? ", signal " + std::to_string(o.signal) : std::string()) +
                                            "): " + firstLine(err.substr(err.size() > 600 ? err.size() - 600 : 0)));
    if (!r.value("ok", false)) return makeError(ErrorCode::Validation, r.value("error", std::string("not importable")));
    const auto drawn = r.value("random_ops", std::vector<std::string>{});
    if (!drawn.empty() && !options.allowRandom) {
        std::string ops;
        for (const auto& d : drawn) ops += (ops.empty() ? "" : ", ") + d;
        return makeError(ErrorCode::Validation,
                         file.string() + ": Model.forward draws random numbers (" + ops +
                             "), so two runs of the reference disagree and no kernel's answer can be checked against it. "
                             "Draw them in __init__ (a fixed state, like nn.Linear's weights) or in get_inputs (an input), "
                             "or import with --allow-random: every compared call then starts from one generator state, and a "
                             "candidate must draw the same numbers in the same order");
    }

    ImportReport report;
    report.name = options.name.empty() ? problemNameFor(file) : options.name;
    report.dir = options.outDir;
    report.device = r.value("device", "");
    report.varied = r.value("varied", std::vector<std::string>{});
    const auto sizes = r.value("sizes", std::vector<std::string>{});
    const auto derived = r.value("derived", std::vector<std::string>{});
    for (const auto& s : sizes)
        if (std::find(report.varied.begin(), report.varied.end(), s) == report.varied.end() &&
            std::find(derived.begin(), derived.end(), s) == derived.end())
            report.fixed.push_back(s);
    if (r.contains("rejected") && r.at("rejected").is_array())
        for (const auto& x : r.at("rejected"))
            report.rejected.push_back(x.value("name", std::string()) + ": " + x.value("why", std::string()));
    report.referenceOps = r.value("forbidden", std::vector<std::string>{});
    if (options.forbidReferenceOps) report.forbidden = report.referenceOps;
    report.notes = r.value("notes", std::vector<std::string>{});
    report.tolerance = r.value("tolerance_basis", std::string());
    report.bytes = std::to_string(r.value("bytes", std::int64_t{0}));
    report.flops =
        std::to_string(r.contains("flops") && r.at("flops").is_number_integer() ? r.at("flops").get<long long>() : 0LL);

    json problem = json::object();
    problem["name"] = report.name;
    problem["title"] = report.name;
    problem["description"] = descriptionOf(*source, file);
    problem["backend"] = "torch";
    problem["reference"] = "reference.py";
    problem["sizes"] = sizes;
    json check = json::array();
    if (r.contains("check") && r.at("check").is_array())
        for (const auto& s : r.at("check")) check.push_back(shapeJson(s));
    report.checkShapes = static_cast<int>(check.size());
    json time = json::array();
    time.push_back(shapeJson(r.contains("time") ? r.at("time") : json::object()));
    problem["shapes"] = json::object();
    problem["shapes"]["check"] = check;
    problem["shapes"]["time"] = time;
    if (r.contains("tolerance") && !r["tolerance"].empty()) problem["tolerance"] = r["tolerance"];
    // Numbers at the time shape: the floor is computed there.
    problem["bytes"] = report.bytes;
    problem["flops"] = report.flops;
    if (!report.forbidden.empty()) problem["forbidden"] = report.forbidden;
    json imported = json::object();
    imported["from"] = fs::absolute(file).string();
    imported["varied"] = report.varied;
    imported["fixed"] = report.fixed;
    imported["notes"] = report.notes;
    imported["reference_ops"] = report.referenceOps;
    imported["tolerance_basis"] = report.tolerance;
    imported["ran_on"] = report.device;
    imported["torch"] = r.value("torch", std::string());
    problem["imported"] = imported;

    fs::create_directories(options.outDir, ec);
    if (ec) return makeError(ErrorCode::Io, options.outDir.string() + ": cannot create the folder: " + ec.message());
    {
        std::ofstream ref(options.outDir / "reference.py", std::ios::binary);
        ref << *source;
        std::ofstream pj(options.outDir / "problem.json", std::ios::binary);
        pj << problem.dump(2) << "\n";
        if (!ref || !pj) return makeError(ErrorCode::Io, options.outDir.string() + ": cannot write the problem's files");
    }
    if (auto loaded = problem::loadProblem(options.outDir); !loaded)
        return makeError(ErrorCode::Validation, "the imported problem does not load (a bug in the importer; the folder is kept "
                                                "for inspection): " +
                                                    loaded.error().message);
    return report;
}

} // namespace kw::importer
