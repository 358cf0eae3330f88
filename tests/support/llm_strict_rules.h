#pragma once
// The test server's strict mode: what the real services refuse, checked the
// way each service checks it and answered with the service's own error body.
// Only the rules the services publish for the model families Kernelwright
// knows (see core/synth/llm/model_families.cpp); anything else passes.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace llm_strict {

enum class Route { ChatCompletions, Responses, Messages };

struct Refusal {
    int status = 400;
    std::string body; // the service's error JSON
};

// A refusal for `body` sent to `route`, or nullopt when the service would take
// it. `unverifiedOrg`: the key's organisation is not verified, so OpenAI's
// reasoning models are not streamed to it.
std::optional<Refusal> check(Route route, const nlohmann::json& body, bool unverifiedOrg = false);

} // namespace llm_strict
