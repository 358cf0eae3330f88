#include "tree/tree_types.h"

#include <array>
#include <utility>

namespace kw::tree {
namespace {
template <typename E, std::size_t N> std::string nameOf(const std::array<std::pair<E, const char*>, N>& table, E value) {
    for (const auto& [e, n] : table)
        if (e == value) return n;
    return "?";
}
template <typename E, std::size_t N> std::vector<std::string> namesOf(const std::array<std::pair<E, const char*>, N>& table) {
    std::vector<std::string> names;
    for (const auto& [e, n] : table) names.emplace_back(n);
    return names;
}
template <typename E, std::size_t N>
std::optional<E> parseName(const std::array<std::pair<E, const char*>, N>& table, const std::string& name) {
    for (const auto& [e, n] : table)
        if (name == n) return e;
    return std::nullopt;
}
constexpr std::array<std::pair<Policy, const char*>, 6> kPolicies{{{Policy::Greedy, "greedy"},
                                                                   {Policy::Beam, "beam"},
                                                                   {Policy::Mcts, "mcts"},
                                                                   {Policy::Evolutionary, "evo"},
                                                                   {Policy::Random, "random"},
                                                                   {Policy::Exhaustive, "exhaustive"}}};
constexpr std::array<std::pair<MemoryMode, const char*>, 4> kModes{{{MemoryMode::None, "none"},
                                                                    {MemoryMode::Ancestors, "ancestors"},
                                                                    {MemoryMode::Siblings, "siblings"},
                                                                    {MemoryMode::Both, "both"}}};
constexpr std::array<std::pair<NodeOrigin, const char*>, 6> kOrigins{{{NodeOrigin::Seed, "seed"},
                                                                      {NodeOrigin::Mutation, "mutation"},
                                                                      {NodeOrigin::Crossover, "crossover"},
                                                                      {NodeOrigin::Restart, "restart"},
                                                                      {NodeOrigin::Manual, "manual"},
                                                                      {NodeOrigin::Llm, "llm"}}};
constexpr std::array<std::pair<SynthMode, const char*>, 3> kSynths{
    {{SynthMode::Tuner, "tuner"}, {SynthMode::Llm, "llm"}, {SynthMode::Hybrid, "hybrid"}}};
} // namespace

std::string synthModeName(SynthMode m) {
    return nameOf(kSynths, m);
}
std::optional<SynthMode> parseSynthMode(const std::string& name) {
    return parseName(kSynths, name);
}
std::string policyName(Policy p) {
    return nameOf(kPolicies, p);
}
std::optional<Policy> parsePolicy(const std::string& name) {
    return parseName(kPolicies, name);
}
std::vector<std::string> policyNames() {
    return namesOf(kPolicies);
}
std::vector<std::string> memoryModeNames() {
    return namesOf(kModes);
}
std::vector<std::string> synthModeNames() {
    return namesOf(kSynths);
}
std::string memoryModeName(MemoryMode m) {
    return nameOf(kModes, m);
}
std::optional<MemoryMode> parseMemoryMode(const std::string& name) {
    return parseName(kModes, name);
}
std::string originName(NodeOrigin o) {
    return nameOf(kOrigins, o);
}
std::optional<NodeOrigin> parseOrigin(const std::string& name) {
    return parseName(kOrigins, name);
}

} // namespace kw::tree
