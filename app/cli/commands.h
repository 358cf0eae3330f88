#pragma once
#include <string>
#include <vector>

namespace kw::cli {

struct GlobalOptions {
    std::string database; // --db; empty: the default workspace
};

int runProblemCommand(const std::vector<std::string>& args, const GlobalOptions& global);
int runEvalCommand(const std::vector<std::string>& args, const GlobalOptions& global);
int runSearchCommand(const std::vector<std::string>& args, const GlobalOptions& global);
int runBenchCommand(const std::vector<std::string>& args, const GlobalOptions& global);
int runSuiteCommand(const std::vector<std::string>& args, const GlobalOptions& global);
int runLlmCommand(const std::vector<std::string>& args, const GlobalOptions& global);
int runKbCommand(const std::vector<std::string>& args, const GlobalOptions& global);
int runMachineCommand(const std::vector<std::string>& args, const GlobalOptions& global);
int runProfileCommand(const std::vector<std::string>& args, const GlobalOptions& global);
int runExportCommand(const std::vector<std::string>& args, const GlobalOptions& global);
int runModelCommand(const std::vector<std::string>& args, const GlobalOptions& global);

// Resolves DIR, or a bundled problem's name ("mbdt", "cpu/mbdt").
std::string resolveProblemDir(const std::string& nameOrDir);

} // namespace kw::cli
