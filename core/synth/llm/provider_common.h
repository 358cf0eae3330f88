#pragma once
// What both protocols share: turning HTTP outcomes into failures, and the
// JSON error message a service puts in its error body.
#include "synth/llm/http_client.h"
#include "synth/llm/llm_types.h"

#include <optional>
#include <string>

namespace ks::synth::llm {

// The failure of a finished HTTP exchange, or nullopt when it is a 2xx reply.
std::optional<Failure> classifyHttp(const HttpResponse& response, const std::string& endpoint, const std::string& keyHint);

// The text of an error body ({"error": {"message": ...}}), cut to a readable length.
std::string errorMessageOf(const std::string& body);

// "https://host/v1" + "/chat/completions", without doubled slashes.
std::string joinUrl(const std::string& base, const std::string& path);

} // namespace ks::synth::llm
