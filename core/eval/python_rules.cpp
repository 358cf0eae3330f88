// checkPythonRules: the torch judge's own rule pass (torch_rules.py, embedded
// in the library) run here by python3 before anything is sent to a GPU host,
// so a candidate that breaks a rule costs no GPU time.
#include "eval/embedded_templates.h"
#include "eval/process_runner.h"
#include "eval/static_rules.h"
#include "util/log.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace kw::eval {
namespace {

constexpr std::size_t kMaxSourceBytes = 1u << 20;

std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// A private scratch folder, removed on every path out.
struct Scratch {
    std::filesystem::path dir;
    Scratch() {
        static std::atomic<unsigned> counter{0};
        dir = std::filesystem::temp_directory_path() /
              ("kw-pyrules-" + std::to_string(getpid()) + "-" + std::to_string(counter.fetch_add(1)));
        std::filesystem::create_directories(dir);
    }
    ~Scratch() {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
};

} // namespace

std::vector<RuleViolation> checkPythonRules(const std::string& source, const std::vector<std::string>& forbidden) {
    if (source.size() > kMaxSourceBytes)
        return {{"size", 1, "(" + std::to_string(source.size()) + " bytes)", "a candidate source is at most 1 MiB; shorten it"}};
    const std::string python = findExecutable("python3");
    if (python.empty()) {
        log::eval()->warn("python3 is not on PATH: the torch candidate's rules are left to the judge on the evaluation host");
        return {};
    }
    std::error_code ec;
    Scratch scratch;
    {
        std::ofstream(scratch.dir / "torch_rules.py", std::ios::binary) << embeddedTemplates().at("torch_rules.py");
        std::ofstream(scratch.dir / "candidate.py", std::ios::binary) << source;
    }
    ProcessSpec spec;
    spec.argv = {python, "-I", (scratch.dir / "torch_rules.py").string(), nlohmann::json(forbidden).dump()};
    spec.workDir = scratch.dir;
    spec.stdinFile = scratch.dir / "candidate.py";
    spec.stdoutFile = scratch.dir / "out.json";
    spec.stderrFile = scratch.dir / "err.txt";
    spec.limits.wallSeconds = 60;
    spec.limits.addressSpaceBytes = 4ull << 30;
    const ProcessOutcome o = runProcess(spec);
    const std::string out = slurp(spec.stdoutFile);
    const auto parsed = nlohmann::json::parse(out, nullptr, false);
    if (!o.started || o.exitCode != 0 || !parsed.is_array()) {
        // The rules themselves failed (python3 broken here): the judge runs them again.
        log::eval()->warn("the torch rule pass did not run here ({}): the judge's pass on the evaluation host decides",
                          o.started ? "exit " + std::to_string(o.exitCode) + ": " + slurp(spec.stderrFile).substr(0, 300)
                                    : o.startError);
        return {};
    }
    std::vector<RuleViolation> found;
    for (const auto& v : parsed) {
        if (!v.is_object()) continue;
        found.push_back({v.value("rule", std::string("rule")), v.value("line", 1), v.value("excerpt", std::string()),
                         v.value("why", std::string())});
    }
    return found;
}

} // namespace kw::eval
