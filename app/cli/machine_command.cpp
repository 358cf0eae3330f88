// kernelwright-cli machine probe|show|import-gpu: the per-host machine model.
// kernelwright-cli profile ncu FILE.csv | profile show --evaluation ID
#include "args.h"
#include "command_table.h"
#include "commands.h"
#include "exit_codes.h"
#include "profile_printer.h"
#include "util/json_text.h"

#include "machine/machine_cache.h"
#include "store/database.h"
#include "store/profile_store.h"
#include "util/files.h"
#include "util/paths.h"

#include <cstdio>

namespace kw::cli {
namespace {

const char* kMachineHelp = R"(usage: kernelwright-cli machine probe [--dram-probes N] [--json]
       kernelwright-cli machine show [--host NAME] [--json]
       kernelwright-cli machine import-gpu FILE --host NAME

The machine model behind every roofline percentage: read bandwidth from L1,
L2, L3 and DRAM (DRAM measured like the harness times kernels: from buffers
flushed out of every cache), and peak FP32 rates, scalar and vector, one core
and all cores. It is probed once per host and cached in
$XDG_CACHE_HOME/kernelwright/machines/HOST.json; `probe` measures again.

  probe            measure this host now and cache the result (takes ~10 s;
                   run it on a quiet machine)
  --dram-probes N  independent one-core DRAM probes; their median is kept and
                   their spread (CV) printed (default 3)
  show             the cached model of this host, or of --host NAME
  import-gpu FILE  store the output of resources/probe/gpu_probe.cu, run on a
                   GPU host (nvcc -O2 -o gpu_probe gpu_probe.cu -lcublas), as
                   that host's GPUs
  --json           print the model as JSON
)";

const char* kProfileHelp = R"(usage: kernelwright-cli profile ncu FILE.csv [--json]
       kernelwright-cli profile show --evaluation ID [--json]

  ncu FILE.csv     parse Nsight Compute CSV output (ncu --csv, the details
                   page or --page raw) and diagnose each kernel launch
  show             the stored profiles of an evaluation (eval --profile
                   stores one; `eval --json` prints the evaluation's id)
)";

int machineProbe(const Args& args) {
    machine::ProbeOptions options;
    if (auto n = args.value("dram-probes")) {
        try {
            options.dramProbes = std::stoi(*n);
        } catch (const std::exception&) {
            options.dramProbes = 0;
        }
        if (options.dramProbes < 1 || options.dramProbes > 20) {
            std::fprintf(stderr, "machine probe: --dram-probes takes a number from 1 to 20, got '%s'\n", n->c_str());
            return kExitUsage;
        }
    }
    options.progress = [](const std::string& s) { std::fprintf(stderr, "probing %s...\n", s.c_str()); };
    auto model = machine::localMachine(true, options);
    if (!model) {
        std::fprintf(stderr, "machine probe: %s\n", model.error().message.c_str());
        return kExitError;
    }
    if (args.has("json"))
        std::printf("%s\n", jsonText(machine::toJson(*model), 2).c_str());
    else {
        printMachine(stdout, *model);
        std::printf("\ncached in %s\n", machine::machineCachePath(model->host).c_str());
    }
    return kExitOk;
}

int machineShow(const Args& args) {
    std::string host = args.value("host").value_or("");
    // This host's model is probed when missing or when it holds GPUs only: say so, it takes a while.
    const machine::ProbeOptions probe{3, [](const std::string& s) { std::fprintf(stderr, "probing %s...\n", s.c_str()); }};
    Result<machine::MachineModel> model = host.empty() ? machine::localMachine(false, probe) : machine::loadMachine(host);
    if (!model) {
        std::fprintf(stderr, "machine show: %s\n", model.error().message.c_str());
        return model.error().code == ErrorCode::NotFound ? kExitUsage : kExitError;
    }
    if (args.has("json"))
        std::printf("%s\n", jsonText(machine::toJson(*model), 2).c_str());
    else
        printMachine(stdout, *model);
    return kExitOk;
}

int machineImportGpu(const Args& args) {
    if (args.positional().size() != 2 || !args.has("host")) {
        std::fprintf(stderr, "machine import-gpu: give the probe's output FILE and --host NAME\n\n%s", kMachineHelp);
        return kExitUsage;
    }
    auto text = readTextFile(args.positional()[1]);
    if (!text) {
        std::fprintf(stderr, "machine import-gpu: %s\n", text.error().message.c_str());
        return kExitUsage;
    }
    auto gpus = machine::parseGpuProbe(*text);
    if (!gpus) {
        std::fprintf(stderr, "machine import-gpu: %s: %s\n", args.positional()[1].c_str(), gpus.error().message.c_str());
        return kExitUsage;
    }
    const std::string host = *args.value("host");
    auto model = machine::loadMachine(host);
    machine::MachineModel m;
    if (model)
        m = *model;
    else
        m.host = host;
    m.gpus = *gpus;
    if (auto saved = machine::saveMachine(m); !saved) {
        std::fprintf(stderr, "machine import-gpu: %s\n", saved.error().message.c_str());
        return kExitError;
    }
    printMachine(stdout, m);
    return kExitOk;
}

int profileNcu(const Args& args) {
    if (args.positional().size() != 2) {
        std::fprintf(stderr, "profile ncu: give one CSV file\n\n%s", kProfileHelp);
        return kExitUsage;
    }
    auto text = readTextFile(args.positional()[1]);
    if (!text) {
        std::fprintf(stderr, "profile ncu: %s\n", text.error().message.c_str());
        return kExitUsage;
    }
    auto kernels = profile::parseNcuCsv(*text);
    if (!kernels) {
        std::fprintf(stderr, "profile ncu: %s: %s\n", args.positional()[1].c_str(), kernels.error().message.c_str());
        return kExitUsage;
    }
    nlohmann::json all = nlohmann::json::array();
    for (const auto& k : *kernels) {
        profile::ProfileReport p;
        p.level = eval::ProfileLevel::Ncu;
        p.ncu = {k};
        profile::DiagnosisInput in;
        in.ncu = &p.ncu;
        p.diagnosis = profile::diagnose(in);
        if (args.has("json"))
            all.push_back(profile::toJson(p));
        else
            printProfile(stdout, p);
    }
    if (args.has("json")) std::printf("%s\n", jsonText(all, 2).c_str());
    return kExitOk;
}

int profileShow(const Args& args, const GlobalOptions& global) {
    std::int64_t id = 0;
    try {
        id = std::stoll(args.value("evaluation").value_or("0"));
    } catch (const std::exception&) {
    }
    if (id <= 0) {
        std::fprintf(stderr, "profile show: --evaluation takes an evaluation id (eval --json prints it)\n");
        return kExitUsage;
    }
    auto db = store::Database::open(global.database.empty() ? paths::defaultDatabase() : std::filesystem::path(global.database),
                                    store::Database::Mode::ReadOnly);
    if (!db) {
        std::fprintf(stderr, "profile show: %s\n", db.error().message.c_str());
        return kExitError;
    }
    auto rows = store::ProfileStore(*db).all(id);
    if (!rows) {
        std::fprintf(stderr, "profile show: %s\n", rows.error().message.c_str());
        return kExitError;
    }
    if (rows->empty()) {
        std::fprintf(stderr, "profile show: evaluation %lld has no profile (evaluate with --profile roofline or deeper)\n",
                     static_cast<long long>(id));
        return kExitUsage;
    }
    nlohmann::json all = nlohmann::json::array();
    for (const auto& r : *rows) {
        auto j = nlohmann::json::parse(r.reportJson, nullptr, false);
        all.push_back({{"level", r.level}, {"machine", r.machine}, {"created_at", r.createdAt}, {"report", j}});
    }
    std::printf("%s\n", jsonText(all, 2).c_str());
    return kExitOk;
}

} // namespace

int runMachineCommand(const std::vector<std::string>& argv, const GlobalOptions&) {
    std::string error;
    auto args = Args::parse(argv, verb("machine").valued, verb("machine").flags, error, "machine");
    if (!args) {
        std::fprintf(stderr, "machine: %s\n", error.c_str());
        return kExitUsage;
    }
    const std::string sub = args->positional().empty() ? "" : args->positional()[0];
    if (args->has("help") || sub.empty()) {
        std::fputs(kMachineHelp, sub.empty() && !args->has("help") ? stderr : stdout);
        return args->has("help") ? kExitOk : kExitUsage;
    }
    if (sub == "probe") return machineProbe(*args);
    if (sub == "show") return machineShow(*args);
    if (sub == "import-gpu") return machineImportGpu(*args);
    std::fprintf(stderr, "machine: unknown subcommand '%s' (probe, show, import-gpu)\n", sub.c_str());
    return kExitUsage;
}

int runProfileCommand(const std::vector<std::string>& argv, const GlobalOptions& global) {
    std::string error;
    auto args = Args::parse(argv, verb("profile").valued, verb("profile").flags, error, "profile");
    if (!args) {
        std::fprintf(stderr, "profile: %s\n", error.c_str());
        return kExitUsage;
    }
    const std::string sub = args->positional().empty() ? "" : args->positional()[0];
    if (args->has("help") || sub.empty()) {
        std::fputs(kProfileHelp, sub.empty() && !args->has("help") ? stderr : stdout);
        return args->has("help") ? kExitOk : kExitUsage;
    }
    if (sub == "ncu") return profileNcu(*args);
    if (sub == "show") return profileShow(*args, global);
    std::fprintf(stderr, "profile: unknown subcommand '%s' (ncu, show)\n", sub.c_str());
    return kExitUsage;
}

} // namespace kw::cli
