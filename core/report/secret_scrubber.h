#pragma once
// Exports leave the workspace (training sets, shared kernels), so every text
// they carry passes through here first. The store never holds a key on
// purpose, but a reply can echo one (of another provider than the one
// redacted at call time), a hint can quote one, a prompt can contain a log
// with an Authorization header. Three nets: literal values of keys this
// process can see, header-like "name: value" pairs, and well-known key shapes.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace kw::report {

class SecretScrubber {
  public:
    // The literal secrets visible here: values of environment variables whose
    // names say they hold a key, token, secret or password, and the keys of
    // the LLM settings (llmConfigFile as for --llm-config; "" for the usual one).
    static SecretScrubber fromEnvironment(const std::string& llmConfigFile = "");

    // Values shorter than 8 characters are ignored: replacing them would
    // garble ordinary text and they are no real key.
    void addSecret(const std::string& value);

    std::string scrub(std::string text) const;
    // Every string inside the document, keys left as they are.
    void scrub(nlohmann::json& document) const;

    static constexpr const char* kRedacted = "[redacted]";

  private:
    std::vector<std::string> secrets_;
};

} // namespace kw::report
