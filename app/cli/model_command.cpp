// `model profile MODEL.py`: where a whole model's time goes, per operator
// and per region (leaf module), with each region's floor at this host's
// bandwidth where the host was probed (`machine probe`).
#include "args.h"
#include "command_table.h"
#include "commands.h"
#include "exit_codes.h"

#include "machine/machine_cache.h"
#include "model/model_profile.h"
#include "util/format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <unistd.h>

namespace kw::cli {
namespace {

const char* kModelHelp = R"(usage: kernelwright-cli model profile MODEL.py [--steps N] [--top N] [--json]

A model in KernelBench's format (class Model, get_inputs, get_init_inputs)
runs in a Python of its own (KW_PYTHON or python3 with PyTorch), on the GPU
when one is visible, else on the CPU, and is profiled over N forward passes
(default 10) after three warm ones. Two tables, per step, costliest first:

  regions  each leaf module (what a kernel can replace without editing the
           file): its time with everything it ran, share of the step, calls,
           bytes read and written, and its floor at this host's bandwidth
           (DRAM on a CPU, the copy bandwidth on a GPU; after `machine probe`)
  ops      each ATen op's own time on the device that does the work, share,
           calls, and its inputs' shapes where it cost most

  --top N  rows of each table (default 15)
  --json   the whole profile as JSON
)";

// Seconds per byte at this host's bandwidth, 0 when it was never probed.
double secondsPerByte(const std::string& device) {
    char host[256] = {0};
    gethostname(host, sizeof host - 1);
    auto machine = machine::loadMachine(host);
    if (!machine) return 0;
    if (device == "cuda") return machine->gpus.empty() || machine->gpus[0].copyGBs <= 0 ? 0 : 1e-9 / machine->gpus[0].copyGBs;
    const double gbs = machine->dramGBs(machine->cores);
    return gbs > 0 ? 1e-9 / gbs : 0;
}

int modelProfile(const Args& args) {
    if (args.positional().size() != 2) {
        std::fputs("model profile: which model? kernelwright-cli model profile MODEL.py\n", stderr);
        return kExitUsage;
    }
    model::ProfileOptions options;
    if (auto v = args.value("steps")) options.steps = std::max(1, std::stoi(*v));
    const int top = args.value("top") ? std::max(1, std::stoi(*args.value("top"))) : 15;
    auto p = model::profileModel(args.positional()[1], options);
    if (!p) {
        std::fprintf(stderr, "model profile: %s\n", p.error().message.c_str());
        return exitCodeFor(p.error());
    }
    const double perByte = secondsPerByte(p->device);
    if (args.has("json")) {
        nlohmann::json j{{"device", p->device}, {"steps", p->steps}, {"step_s", p->stepSeconds}};
        j["regions"] = nlohmann::json::array();
        for (const auto& r : p->regions)
            j["regions"].push_back({{"name", r.name},
                                    {"kind", r.kind},
                                    {"calls", r.calls},
                                    {"time_s", r.seconds},
                                    {"share", r.share},
                                    {"bytes", r.bytes},
                                    {"floor_s", perByte > 0 ? nlohmann::json(perByte * static_cast<double>(r.bytes)) : nullptr}});
        j["ops"] = nlohmann::json::array();
        for (const auto& o : p->ops)
            j["ops"].push_back(
                {{"name", o.name}, {"calls", o.calls}, {"time_s", o.seconds}, {"share", o.share}, {"shapes", o.shapes}});
        std::printf("%s\n", j.dump(2).c_str());
        return kExitOk;
    }
    std::printf("%s: a step takes %s on the %s (median of %d)\n\n", args.positional()[1].c_str(),
                formatSeconds(p->stepSeconds).c_str(), p->device == "cuda" ? "GPU" : "CPU", p->steps);
    std::printf("%-28s %-18s %10s %6s %5s %10s %10s %8s\n", "region", "kind", "time", "share", "calls", "bytes", "floor",
                "x floor");
    for (std::size_t i = 0; i < p->regions.size() && static_cast<int>(i) < top; ++i) {
        const auto& r = p->regions[i];
        const double floor = perByte * static_cast<double>(r.bytes);
        std::printf("%-28s %-18s %10s %5.1f%% %5d %10lld %10s %8s\n", r.name.substr(0, 28).c_str(), r.kind.substr(0, 18).c_str(),
                    formatSeconds(r.seconds).c_str(), 100 * r.share, r.calls, static_cast<long long>(r.bytes),
                    floor > 0 ? formatSeconds(floor).c_str() : "-",
                    floor > 0 ? (std::to_string(static_cast<int>(r.seconds / floor + 0.5)) + "x").c_str() : "-");
    }
    std::printf("\n%-28s %10s %6s %5s  %s\n", "op (own time)", "time", "share", "calls", "input shapes");
    for (std::size_t i = 0; i < p->ops.size() && static_cast<int>(i) < top; ++i) {
        const auto& o = p->ops[i];
        std::string shapes;
        for (const auto& s : o.shapes) shapes += (shapes.empty() ? "" : " ") + s;
        std::printf("%-28s %10s %5.1f%% %5d  %s\n", o.name.substr(0, 28).c_str(), formatSeconds(o.seconds).c_str(), 100 * o.share,
                    o.calls, shapes.c_str());
    }
    if (perByte <= 0) std::printf("\nno floor: this host was never probed (kernelwright-cli machine probe)\n");
    return kExitOk;
}

} // namespace

int runModelCommand(const std::vector<std::string>& argv, const GlobalOptions&) {
    std::string error;
    auto args = Args::parse(argv, verb("model").valued, verb("model").flags, error, "model");
    if (!args) {
        std::fprintf(stderr, "model: %s\n", error.c_str());
        return kExitUsage;
    }
    const std::string sub = args->positional().empty() ? "" : args->positional()[0];
    if (args->has("help") || sub.empty()) {
        std::fputs(kModelHelp, sub.empty() && !args->has("help") ? stderr : stdout);
        return args->has("help") ? kExitOk : kExitUsage;
    }
    if (sub == "profile") return modelProfile(*args);
    std::fprintf(stderr, "model: unknown subcommand '%s' (profile)\n", sub.c_str());
    return kExitUsage;
}

} // namespace kw::cli
