#include "report/secret_scrubber.h"

#include "synth/llm_setup.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <string_view>

extern char** environ;

namespace kw::report {
namespace {

constexpr std::size_t kMinSecret = 8;

bool tokenChar(char c) {
    const auto u = static_cast<unsigned char>(c);
    return std::isalnum(u) || c == '-' || c == '_' || c == '.' || c == '~' || c == '+' || c == '/' || c == '=';
}

bool lowerEquals(std::string_view text, std::size_t at, std::string_view lowerWord) {
    if (at + lowerWord.size() > text.size()) return false;
    for (std::size_t i = 0; i < lowerWord.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(text[at + i])) != lowerWord[i]) return false;
    return true;
}

bool wordBoundaryBefore(const std::string& text, std::size_t at) {
    return at == 0 || !std::isalnum(static_cast<unsigned char>(text[at - 1]));
}

// "Authorization: Bearer X", "x-api-key: X", "\"api_key\": \"X\"", "api-key=X": the
// value goes, the name stays so a reader still sees what was there.
void scrubHeaderValues(std::string& text) {
    static constexpr std::array<std::string_view, 7> names{
        "proxy-authorization", "authorization", "x-goog-api-key", "x-api-key", "api-key", "api_key", "apikey"};
    for (std::size_t at = 0; at < text.size(); ++at) {
        std::string_view name;
        for (auto n : names)
            if (lowerEquals(text, at, n) && wordBoundaryBefore(text, at)) {
                name = n;
                break;
            }
        if (name.empty()) continue;
        std::size_t p = at + name.size();
        while (p < text.size() && (text[p] == '"' || text[p] == '\'' || text[p] == ' ' || text[p] == '\t')) ++p;
        if (p >= text.size() || (text[p] != ':' && text[p] != '=')) continue;
        ++p;
        while (p < text.size() && (text[p] == '"' || text[p] == '\'' || text[p] == ' ' || text[p] == '\t')) ++p;
        if (name.find("authorization") != std::string_view::npos)
            for (std::string_view scheme : {"bearer ", "basic ", "token "})
                if (lowerEquals(text, p, scheme)) {
                    p += scheme.size();
                    while (p < text.size() && text[p] == ' ') ++p;
                    break;
                }
        std::size_t end = p;
        while (end < text.size() && tokenChar(text[end])) ++end;
        if (end - p < kMinSecret) continue;
        text.replace(p, end - p, SecretScrubber::kRedacted);
        at = p;
    }
}

// Keys with a recognizable shape, wherever they stand.
void scrubKeyShapes(std::string& text) {
    struct Shape {
        std::string_view prefix;
        std::size_t minBody;
    };
    static constexpr std::array<Shape, 7> shapes{
        {{"sk-", 16}, {"sk_live_", 16}, {"ghp_", 30}, {"github_pat_", 30}, {"hf_", 30}, {"xoxb-", 16}, {"AKIA", 16}}};
    for (const auto& shape : shapes) {
        for (auto at = text.find(shape.prefix); at != std::string::npos; at = text.find(shape.prefix, at + 1)) {
            if (!wordBoundaryBefore(text, at)) continue;
            std::size_t end = at + shape.prefix.size();
            while (end < text.size() &&
                   (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '-' || text[end] == '_'))
                ++end;
            if (end - at - shape.prefix.size() < shape.minBody) continue;
            text.replace(at, end - at, SecretScrubber::kRedacted);
        }
    }
}

bool nameHoldsSecret(std::string name) {
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    for (const char* word : {"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL"})
        if (name.find(word) != std::string::npos) return true;
    return false;
}

} // namespace

SecretScrubber SecretScrubber::fromEnvironment(const std::string& llmConfigFile) {
    SecretScrubber s;
    for (char** e = environ; e && *e; ++e) {
        const std::string_view entry(*e);
        const auto eq = entry.find('=');
        if (eq == std::string_view::npos) continue;
        if (nameHoldsSecret(std::string(entry.substr(0, eq)))) s.addSecret(std::string(entry.substr(eq + 1)));
    }
    // A settings file that cannot be read holds no key we could learn from it;
    // the header and shape nets still apply.
    if (auto settings = synth::loadLlmSettings(llmConfigFile))
        for (const auto& m : settings->models) {
            s.addSecret(m.apiKey.reveal());
            if (const char* v = m.apiKeyEnv.empty() ? nullptr : std::getenv(m.apiKeyEnv.c_str())) s.addSecret(v);
        }
    return s;
}

void SecretScrubber::addSecret(const std::string& value) {
    if (value.size() < kMinSecret) return;
    if (std::find(secrets_.begin(), secrets_.end(), value) == secrets_.end()) secrets_.push_back(value);
    // Longest first, so a key that contains another is replaced whole.
    std::sort(secrets_.begin(), secrets_.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
}

std::string SecretScrubber::scrub(std::string text) const {
    for (const auto& secret : secrets_)
        for (auto pos = text.find(secret); pos != std::string::npos; pos = text.find(secret, pos))
            text.replace(pos, secret.size(), kRedacted);
    scrubHeaderValues(text);
    scrubKeyShapes(text);
    return text;
}

void SecretScrubber::scrub(nlohmann::json& document) const {
    if (document.is_string())
        document = scrub(document.get<std::string>());
    else if (document.is_structured())
        for (auto& child : document) scrub(child);
}

} // namespace kw::report
