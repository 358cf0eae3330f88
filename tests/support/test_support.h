#pragma once
// Shared helpers for the Qt Test suites.
#include <QtCore/QByteArray>
#include <QtCore/QString>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace kw::test {

inline std::filesystem::path dataDir() {
    const char* dir = std::getenv("KW_TEST_DATA_DIR");
    return dir ? std::filesystem::path(dir) : std::filesystem::path("tests/data");
}
inline std::filesystem::path problemDir(const std::string& name) {
    return dataDir() / "problems" / name;
}
inline std::filesystem::path candidateFile(const std::string& problem, const std::string& name) {
    return dataDir() / "candidates" / problem / (name + ".cpp");
}
inline std::filesystem::path bundledProblemsDir() {
    const char* dir = std::getenv("KW_RESOURCES_DIR");
    return std::filesystem::path(dir ? dir : "resources") / "problems";
}
inline QString cliPath() {
    const char* p = std::getenv("KW_CLI");
    return QString::fromUtf8(p ? p : "kernelwright-cli");
}

} // namespace kw::test
