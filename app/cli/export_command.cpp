// kernelwright-cli export trajectories|best|report: a workspace's data for the next
// step (training sets, a kernel for someone's codebase). The work is in
// core/report; this file parses arguments and prints.
#include "args.h"
#include "command_table.h"
#include "commands.h"
#include "exit_codes.h"

#include "model/model_pipeline.h"
#include "report/best_kernel_export.h"
#include "report/model_report.h"
#include "report/search_report.h"
#include "report/secret_scrubber.h"
#include "report/trajectory_export.h"
#include "store/database.h"
#include "store/workspace_files.h"
#include "util/files.h"
#include "util/paths.h"

#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kw::cli {
namespace {

const char* kExportHelp = R"(usage: kernelwright-cli export trajectories SEARCH... --format openai-chat|jsonl
                              [--correct-only] [--min-speedup X] [--out FILE]
       kernelwright-cli export best SEARCH --out DIR
       kernelwright-cli export report SEARCH|MODEL_DIR --out FILE.html

  trajectories   one JSON line per LLM expansion of the searches: the prompt as sent
                 (system and user messages), the reply, the evaluation (status,
                 speedup, message) and the reward (the speedup; 0 when not correct).
                 Expansions not evaluated yet are left out. Schema: docs/export-format.md
    --format openai-chat   {"messages": [...], "metadata": {...}}: chat fine-tuning data
    --format jsonl         one flat object per expansion
    --correct-only         only expansions whose kernel was correct
    --min-speedup X        only correct ones with a speedup of at least X
    --out FILE             write there (default: standard output)
  best           the best kernel of SEARCH in DIR: its source with the params baked
                 in, and README.md with its timings per shape against the baselines,
                 the machine, and the command that evaluates it again
  report         a self-contained HTML page of SEARCH for reviews: its summary, the
                 best-speedup curve and the whole tree (inline SVG), the top
                 candidates and the best kernel's source; no external file or script.
                 Given a model's folder (what model extract made) instead: the
                 model's regions, their searches and checks, each region before
                 and after (inline SVG) and the A/B table with intervals

  --llm-config FILE      LLM settings whose keys must be scrubbed too (default as for search)

Secrets never leave: API keys this process can see (environment, LLM settings),
Authorization/x-api-key values and key-shaped tokens are replaced by [redacted].
)";

int usage(const char* what) {
    std::fprintf(stderr, "export: %s\n\n%s", what, kExportHelp);
    return kExitUsage;
}

bool parseId(const std::string& text, std::int64_t& id) {
    try {
        std::size_t used = 0;
        id = std::stoll(text, &used);
        return used == text.size() && id > 0;
    } catch (const std::exception&) {
        return false;
    }
}

std::filesystem::path workspaceOf(const GlobalOptions& global) {
    return global.database.empty() ? paths::defaultDatabase() : std::filesystem::path(global.database);
}

// An export never writes over the workspace it reads (a rename over the
// database would replace it, results and all).
bool writesOverWorkspace(const std::optional<std::string>& out, const GlobalOptions& global, const char* verb) {
    if (!out || !store::isWorkspaceFile(*out, workspaceOf(global))) return false;
    std::fprintf(stderr, "%s: --out %s is the workspace's own database file; choose another file\n", verb, out->c_str());
    return true;
}

Result<store::Database> openForExport(const GlobalOptions& global) {
    const std::filesystem::path path = workspaceOf(global);
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        return makeError(ErrorCode::NotFound, "no workspace at " + path.string() + " (give one with --db PATH)");
    return store::Database::open(path, store::Database::Mode::ReadOnly);
}

int trajectories(const Args& args, const GlobalOptions& global) {
    const auto& pos = args.positional();
    std::vector<std::int64_t> ids;
    for (std::size_t i = 1; i < pos.size(); ++i) {
        std::int64_t id = 0;
        if (!parseId(pos[i], id)) return usage(("'" + pos[i] + "' is not a search id (see `search list`)").c_str());
        ids.push_back(id);
    }
    if (ids.empty()) return usage("export trajectories needs at least one search id");
    const auto formatName = args.value("format");
    if (!formatName) return usage("export trajectories needs --format openai-chat or --format jsonl");
    const auto format = report::parseTrajectoryFormat(*formatName);
    if (!format) return usage(("unknown --format '" + *formatName + "' (expected openai-chat or jsonl)").c_str());
    report::TrajectoryFilter filter;
    filter.correctOnly = args.has("correct-only");
    if (auto min = args.value("min-speedup")) {
        try {
            std::size_t used = 0;
            filter.minSpeedup = std::stod(*min, &used);
            if (used != min->size()) throw std::invalid_argument(*min);
        } catch (const std::exception&) {
            return usage("--min-speedup expects a number, e.g. 1.5");
        }
    }
    if (writesOverWorkspace(args.value("out"), global, "export trajectories")) return kExitUsage;
    auto db = openForExport(global);
    if (!db) {
        std::fprintf(stderr, "export trajectories: %s\n", db.error().message.c_str());
        return kExitError;
    }
    const auto scrubber = report::SecretScrubber::fromEnvironment(args.value("llm-config").value_or(""));
    auto exported = report::exportTrajectories(*db, ids, *format, filter, scrubber);
    if (!exported) {
        std::fprintf(stderr, "export trajectories: %s\n", exported.error().message.c_str());
        return exported.error().code == ErrorCode::NotFound ? kExitUsage : kExitError;
    }
    const auto out = args.value("out");
    if (!out)
        std::fputs(exported->text.c_str(), stdout);
    else if (auto s = writeFileAtomic(*out, exported->text); !s) {
        std::fprintf(stderr, "export trajectories: %s\n", s.error().message.c_str());
        return kExitError;
    }
    // The summary goes to stderr so that standard output stays pure JSON lines.
    std::fprintf(stderr, "%zu record(s)%s%s; %zu left out by the filter, %zu not evaluated yet\n", exported->records,
                 out ? " to " : "", out ? out->c_str() : "", exported->filteredOut, exported->unevaluated);
    return kExitOk;
}

int best(const Args& args, const GlobalOptions& global) {
    const auto& pos = args.positional();
    std::int64_t id = 0;
    if (pos.size() != 2 || !parseId(pos[1], id)) return usage("export best needs one search id");
    const auto dir = args.value("out");
    if (!dir) return usage("export best needs --out DIR");
    auto db = openForExport(global);
    if (!db) {
        std::fprintf(stderr, "export best: %s\n", db.error().message.c_str());
        return kExitError;
    }
    std::error_code ec;
    const auto absolute = std::filesystem::absolute(*dir, ec);
    const auto scrubber = report::SecretScrubber::fromEnvironment(args.value("llm-config").value_or(""));
    auto exported = report::exportBestKernel(*db, id, ec ? std::filesystem::path(*dir) : absolute, scrubber);
    if (!exported) {
        std::fprintf(stderr, "export best: %s\n", exported.error().message.c_str());
        return kExitError;
    }
    if (auto s = report::writeBestKernelExport(*exported, *dir); !s) {
        std::fprintf(stderr, "export best: %s\n", s.error().message.c_str());
        return kExitError;
    }
    std::printf("wrote node #%lld (%.3gx) to %s: %s and README.md\nverify: %s\n", static_cast<long long>(exported->nodeNumber),
                exported->speedup, dir->c_str(), exported->kernelFile.c_str(), exported->verifyCommand.c_str());
    return kExitOk;
}

int reportHtml(const Args& args, const GlobalOptions& global) {
    const auto& pos = args.positional();
    std::int64_t id = 0;
    const auto out = args.value("out");
    if (pos.size() == 2 && std::filesystem::is_regular_file(std::filesystem::path(pos[1]) / "model.json")) {
        // A model's pipeline folder: the model section, no workspace needed.
        if (!out) return usage("export report needs --out FILE.html");
        auto folder = model::readModelFolder(pos[1]);
        if (!folder) {
            std::fprintf(stderr, "export report: %s\n", folder.error().message.c_str());
            return exitCodeFor(folder.error());
        }
        if (auto s = writeFileAtomic(*out, report::modelReportHtml(*folder)); !s) {
            std::fprintf(stderr, "export report: %s\n", s.error().message.c_str());
            return kExitError;
        }
        std::printf("wrote the report of the model in %s to %s\n", pos[1].c_str(), out->c_str());
        return kExitOk;
    }
    if (pos.size() != 2 || !parseId(pos[1], id))
        return usage("export report needs one search id, or a model's folder (what model extract made)");
    if (!out) return usage("export report needs --out FILE.html");
    if (writesOverWorkspace(out, global, "export report")) return kExitUsage;
    auto db = openForExport(global);
    if (!db) {
        std::fprintf(stderr, "export report: %s\n", db.error().message.c_str());
        return kExitError;
    }
    auto html = report::searchReportHtml(*db, id);
    if (!html) {
        std::fprintf(stderr, "export report: %s\n", html.error().message.c_str());
        return html.error().code == ErrorCode::NotFound ? kExitUsage : kExitError;
    }
    const auto scrubber = report::SecretScrubber::fromEnvironment(args.value("llm-config").value_or(""));
    if (auto s = writeFileAtomic(*out, scrubber.scrub(std::move(*html))); !s) {
        std::fprintf(stderr, "export report: %s\n", s.error().message.c_str());
        return kExitError;
    }
    std::printf("wrote the report of search %lld to %s\n", static_cast<long long>(id), out->c_str());
    return kExitOk;
}

} // namespace

int runExportCommand(const std::vector<std::string>& argv, const GlobalOptions& global) {
    std::string error;
    auto args = Args::parse(argv, verb("export").valued, verb("export").flags, error, "export");
    if (!args) {
        std::fprintf(stderr, "export: %s (see kernelwright-cli export --help)\n", error.c_str());
        return kExitUsage;
    }
    const auto& pos = args->positional();
    if (args->has("help")) {
        std::fputs(kExportHelp, stdout);
        return kExitOk;
    }
    if (pos.empty()) return usage("which export: trajectories, best or report?");
    if (pos[0] == "trajectories") return trajectories(*args, global);
    if (pos[0] == "best") return best(*args, global);
    if (pos[0] == "report") return reportHtml(*args, global);
    return usage(("unknown export '" + pos[0] + "'").c_str());
}

} // namespace kw::cli
