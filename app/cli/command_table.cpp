#include "command_table.h"

#include "executor_options.h"

#include <stdexcept>

namespace kw::cli {

const std::vector<Verb>& verbTable() {
    static const std::vector<Verb> table{
        {"problem", runProblemCommand, {"out", "name", "jobs", "gpus"}, {"help", "forbid-reference-ops", "allow-random"}},
        {"eval",
         runEvalCommand,
         withExecutorOptions({"problem", "candidate", "seed", "param", "seeds", "input-secret", "time-budget", "reps",
                              "call-timeout", "run-timeout", "compile-timeout", "sandbox", "jobs-dir", "profile"}),
         {"json", "check-only", "no-cache", "no-static-rules", "no-compile-baseline", "keep-job", "reference", "help"}},
        {"search",
         runSearchCommand,
         withExecutorOptions({"problem",
                              "policy",
                              "budget",
                              "workers",
                              "seed",
                              "memory",
                              "target",
                              "stall",
                              "time",
                              "time-budget",
                              "exploration",
                              "sandbox",
                              "best",
                              "param",
                              "synth",
                              "model",
                              "max-tokens",
                              "max-cost",
                              "llm-concurrency",
                              "stop-near-roofline",
                              "llm-config",
                              "polish",
                              "node"}),
         {"help", "check-only", "all", "full", "seed-from-history", "distill", "sticky", "yes"}},
        {"bench",
         runBenchCommand,
         withExecutorOptions({"problems", "budget", "policy", "workers", "seed", "time-budget", "finalists", "json", "sandbox"}),
         {"help", "reprobe", "resume"}},
        {"suite",
         runSuiteCommand,
         withExecutorOptions({"mode", "budget", "time-budget", "json", "sandbox", "max-problems"}),
         {"help", "no-compile-baseline"}},
        {"llm", runLlmCommand, {"model", "llm-config"}, {"help"}},
        {"kb", runKbCommand, {"category", "signal", "platform", "limit", "model", "llm-config"}, {"help", "force", "pending"}},
        {"machine", runMachineCommand, {"dram-probes", "host"}, {"json", "help"}},
        {"profile", runProfileCommand, {"evaluation"}, {"json", "help"}},
        {"export", runExportCommand, {"format", "min-speedup", "out", "llm-config"}, {"help", "correct-only"}},
        {"model",
         runModelCommand,
         withExecutorOptions({"steps", "top", "out", "min-share", "budget", "time-budget", "rounds", "problems"}),
         {"json", "help"}},
    };
    return table;
}

const Verb& verb(const std::string& name) {
    for (const auto& v : verbTable())
        if (v.name == name) return v;
    throw std::logic_error("no verb " + name + " in the command table");
}

} // namespace kw::cli
