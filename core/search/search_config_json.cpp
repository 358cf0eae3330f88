#include "search/search_config_json.h"

#include <set>

namespace kw::search {

nlohmann::json toJson(const SearchConfig& c) {
    return {{"policy", policyName(c.policy)},
            {"memory", memoryModeName(c.memory)},
            {"max_evaluations", c.maxEvaluations},
            {"max_wall_seconds", c.maxWallSeconds},
            {"target_speedup", c.targetSpeedup},
            {"stall_evaluations", c.stallEvaluations},
            {"max_tokens", c.maxTokens},
            {"max_cost_usd", c.maxCostUsd},
            {"stop_near_roofline", c.stopNearRoofline},
            {"ncu_every", c.ncuEvery},
            {"workers", c.workers},
            {"seed", c.seed},
            {"mcts_exploration", c.mctsExploration},
            {"mcts_widening", c.mctsWidening},
            {"beam_width", c.beamWidth},
            {"population", c.population},
            {"islands", c.islands},
            {"tournament", c.tournament},
            {"crossover_rate", c.crossoverRate},
            {"restart_rate", c.restartRate},
            {"synth", synthModeName(c.synth)},
            {"models",
             [&] {
                 auto a = nlohmann::json::array();
                 for (const auto& m : c.models) a.push_back({{"name", m.name}, {"weight", m.weight}});
                 return a;
             }()},
            {"llm_concurrency", c.llmConcurrency},
            {"polish_steps", c.polishSteps},
            {"prompt_tokens", c.promptTokens},
            {"seed_from_history", c.seedFromHistory},
            {"distill_skill", c.distillSkill}};
}

Result<SearchConfig> configFromJson(const nlohmann::json& j) {
    if (!j.is_object()) return makeError(ErrorCode::ParseError, "search config: expected a JSON object");
    static const std::set<std::string> known{"policy",
                                             "memory",
                                             "max_evaluations",
                                             "max_wall_seconds",
                                             "target_speedup",
                                             "stall_evaluations",
                                             "max_tokens",
                                             "max_cost_usd",
                                             "stop_near_roofline",
                                             "workers",
                                             "seed",
                                             "mcts_exploration",
                                             "mcts_widening",
                                             "beam_width",
                                             "population",
                                             "islands",
                                             "tournament",
                                             "crossover_rate",
                                             "restart_rate",
                                             "synth",
                                             "models",
                                             "llm_concurrency",
                                             "polish_steps",
                                             "prompt_tokens",
                                             "seed_from_history",
                                             "distill_skill",
                                             "ncu_every"};
    for (auto it = j.begin(); it != j.end(); ++it)
        if (!known.count(it.key())) return makeError(ErrorCode::Validation, "search config: unknown key \"" + it.key() + "\"");
    SearchConfig c;
    try {
        if (j.contains("policy")) {
            auto p = parsePolicy(j["policy"].get<std::string>());
            if (!p) {
                std::string names;
                for (const auto& name : policyNames()) names += (names.empty() ? "" : ", ") + name;
                return makeError(ErrorCode::Validation, "search config: unknown policy \"" + j["policy"].get<std::string>() +
                                                            "\" (expected " + names + ")");
            }
            c.policy = *p;
        }
        if (j.contains("memory")) {
            auto m = parseMemoryMode(j["memory"].get<std::string>());
            if (!m)
                return makeError(ErrorCode::Validation, "search config: unknown memory mode \"" + j["memory"].get<std::string>() +
                                                            "\" (expected none, ancestors, siblings or both)");
            c.memory = *m;
        }
        c.maxEvaluations = j.value("max_evaluations", c.maxEvaluations);
        c.maxWallSeconds = j.value("max_wall_seconds", c.maxWallSeconds);
        c.targetSpeedup = j.value("target_speedup", c.targetSpeedup);
        c.stallEvaluations = j.value("stall_evaluations", c.stallEvaluations);
        c.maxTokens = j.value("max_tokens", c.maxTokens);
        c.maxCostUsd = j.value("max_cost_usd", c.maxCostUsd);
        c.stopNearRoofline = j.value("stop_near_roofline", c.stopNearRoofline);
        c.ncuEvery = j.value("ncu_every", c.ncuEvery);
        c.workers = j.value("workers", c.workers);
        c.seed = j.value("seed", c.seed);
        c.mctsExploration = j.value("mcts_exploration", c.mctsExploration);
        c.mctsWidening = j.value("mcts_widening", c.mctsWidening);
        c.beamWidth = j.value("beam_width", c.beamWidth);
        c.population = j.value("population", c.population);
        c.islands = j.value("islands", c.islands);
        c.tournament = j.value("tournament", c.tournament);
        c.crossoverRate = j.value("crossover_rate", c.crossoverRate);
        c.restartRate = j.value("restart_rate", c.restartRate);
        if (j.contains("synth")) {
            auto m = parseSynthMode(j["synth"].get<std::string>());
            if (!m)
                return makeError(ErrorCode::Validation, "search config: unknown synth \"" + j["synth"].get<std::string>() +
                                                            "\" (expected tuner, llm or hybrid)");
            c.synth = *m;
        }
        if (j.contains("models"))
            for (const auto& m : j["models"]) c.models.push_back({m.at("name").get<std::string>(), m.value("weight", 1.0)});
        c.llmConcurrency = j.value("llm_concurrency", c.llmConcurrency);
        c.polishSteps = j.value("polish_steps", c.polishSteps);
        c.promptTokens = j.value("prompt_tokens", c.promptTokens);
        c.seedFromHistory = j.value("seed_from_history", c.seedFromHistory);
        c.distillSkill = j.value("distill_skill", c.distillSkill);
    } catch (const nlohmann::json::exception& e) {
        return makeError(ErrorCode::Validation, std::string("search config: wrong type: ") + e.what());
    }
    if (auto s = validate(c); !s) return s.error();
    return c;
}

Status validate(const SearchConfig& c) {
    auto bad = [](const std::string& what) { return Status(makeError(ErrorCode::Validation, "search config: " + what)); };
    if (c.maxEvaluations < 1) return bad("the budget (max evaluations) must be at least 1");
    if (c.maxWallSeconds < 0 || c.targetSpeedup < 0 || c.maxTokens < 0 || c.maxCostUsd < 0)
        return bad("limits must not be negative");
    if (c.stopNearRoofline < 0 || c.stopNearRoofline > 1)
        return bad("stop_near_roofline is a fraction of the roofline bound between 0 (never stop) and 1");
    if (c.stallEvaluations < 0) return bad("stall must not be negative");
    if (c.ncuEvery < 0) return bad("ncu_every must not be negative (0: never profile with ncu)");
    if (c.synth != SynthMode::Tuner && c.models.empty())
        return bad("the llm and hybrid synthesizers need at least one model (--model NAME)");
    for (const auto& m : c.models)
        if (m.weight < 0) return bad("model weights must not be negative (" + m.name + ")");
    if (c.llmConcurrency < 1 || c.llmConcurrency > 64) return bad("llm_concurrency must be between 1 and 64");
    if (c.polishSteps < 0) return bad("polish_steps must not be negative");
    if (c.promptTokens < 1000) return bad("prompt_tokens must be at least 1000");
    if (c.workers < 0 || c.workers > 1024) return bad("workers must be between 0 (all slots) and 1024");
    if (c.mctsExploration < 0) return bad("the MCTS exploration constant must not be negative");
    if (c.mctsWidening <= 0) return bad("the MCTS widening factor must be positive");
    if (c.beamWidth < 1 || c.population < 2 || c.islands < 1 || c.tournament < 1)
        return bad("beam width, population, islands and tournament must be positive (population >= 2)");
    if (c.crossoverRate < 0 || c.crossoverRate > 1 || c.restartRate < 0 || c.restartRate > 1)
        return bad("rates must lie in [0, 1]");
    return {};
}

} // namespace kw::search
