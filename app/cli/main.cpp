// kernelwright-cli: the headless front end. Links kw_core only (no Qt).
#include "command_table.h"
#include "commands.h"
#include "exit_codes.h"

#include "util/log.h"
#include "util/paths.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

const char* kHelp = R"(usage: kernelwright-cli [--workspace PATH] [-v|-q] COMMAND ...

Kernelwright: agentic kernel search, headless.

commands:
  problem check DIR|NAME   validate a problem folder
  problem list             the bundled problems
  problem import FILE|DIR  a PyTorch module (KernelBench format) as a problem; a folder as a suite
  suite run|show SUITE     every problem of a suite, resumable, in KernelBench's metrics (suite --help)
  eval                     evaluate one candidate (eval --help)
  search                   run, follow, steer and export searches (search --help)
  bench                    a search per problem and the table of what it won (bench --help)
  llm models|test          the configured language models; one test request (llm --help)
  kb                       the knowledge base: import, search, validate, skills (kb --help)
  machine probe|show       this host's machine model: bandwidths, peaks (machine --help)
  profile ncu|show         parse ncu CSV; stored profiles of an evaluation (profile --help)
  export trajectories|best LLM trajectories for training; the best kernel as a folder (export --help)
  model profile            where a whole model's time goes, per region and op (model --help)
  model extract|search     its costliest regions as problems; a search per region
  model apply|ab           the winners swapped into the model, checked, timed A/B

eval, search and bench run candidates on this machine, or on GPU hosts over ssh:
  --ssh-host USER@HOST[:PORT] [--ssh-key FILE] [--ssh-gpus 0,1] (eval --help)

global options:
  --workspace PATH  the workspace database, as the workbench names it
                    (default: $XDG_DATA_HOME/kernelwright/workspace.db; --db is the same)
  -v, --verbose     log what happens (twice: debug)
  -q, --quiet       errors only
  --version         print the version
)";

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    kw::cli::GlobalOptions global;
    auto level = spdlog::level::warn;
    std::size_t i = 0;
    for (; i < args.size(); ++i) {
        const auto& a = args[i];
        // --workspace, as the workbench names it; --db is the same option.
        if ((a == "--workspace" || a == "--db") && i + 1 < args.size())
            global.database = args[++i];
        else if (a.rfind("--workspace=", 0) == 0)
            global.database = a.substr(12);
        else if (a.rfind("--db=", 0) == 0)
            global.database = a.substr(5);
        else if (a == "-v" || a == "--verbose")
            level = level == spdlog::level::warn ? spdlog::level::info : spdlog::level::debug;
        else if (a == "-vv")
            level = spdlog::level::debug;
        else if (a == "-q" || a == "--quiet")
            level = spdlog::level::err;
        else if (a == "--version") {
            std::printf("kernelwright-cli %s\n", KW_VERSION);
            return 0;
        } else if (a == "-h" || a == "--help" || a == "help") {
            std::fputs(kHelp, stdout);
            return 0;
        } else if (a == "--workspace" || a == "--db") {
            std::fprintf(stderr, "%s needs the path of a workspace database\n", a.c_str());
            return kw::cli::kExitUsage;
        } else
            break;
    }
    kw::log::setLevel(level);
    if (i >= args.size()) {
        std::fputs(kHelp, stderr);
        return kw::cli::kExitUsage;
    }
    const std::string command = args[i];
    const std::vector<std::string> rest(args.begin() + static_cast<long>(i) + 1, args.end());
    for (const auto& verb : kw::cli::verbTable())
        if (verb.name == command) return verb.run(rest, global);
    std::fprintf(stderr, "unknown command '%s'\n\n%s", command.c_str(), kHelp);
    return kw::cli::kExitUsage;
}
