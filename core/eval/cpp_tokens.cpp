#include "eval/cpp_tokens.h"

#include <cctype>

namespace kw::eval {
namespace {

bool identStart(unsigned char c) {
    return std::isalpha(c) || c == '_' || c == '$' || c >= 0x80;
}
bool identChar(unsigned char c) {
    return std::isalnum(c) || c == '_' || c == '$' || c >= 0x80;
}

// Removes backslash-newline pairs (the preprocessor's first step), keeping a
// map from the joined text back to source lines.
std::string joinContinuations(const std::string& src, std::vector<int>& lineOf) {
    std::string out;
    out.reserve(src.size());
    lineOf.clear();
    lineOf.reserve(src.size() + 1);
    int line = 1;
    for (std::size_t i = 0; i < src.size(); ++i) {
        if (src[i] == '\\') {
            std::size_t j = i + 1;
            if (j < src.size() && src[j] == '\r') ++j;
            if (j < src.size() && src[j] == '\n') {
                i = j;
                ++line;
                continue;
            }
        }
        out += src[i];
        lineOf.push_back(line);
        if (src[i] == '\n') ++line;
    }
    lineOf.push_back(line);
    return out;
}

} // namespace

namespace {
std::vector<CppToken> lex(const std::string& source, bool nested) {
    std::vector<int> lineOf;
    const std::string s = joinContinuations(source, lineOf);
    std::vector<CppToken> tokens;
    const std::size_t n = s.size();
    bool lineStart = true; // only whitespace since the last newline
    std::size_t i = 0;
    const auto push = [&](CppToken::Kind kind, std::string text, std::size_t at) {
        tokens.push_back({kind, std::move(text), lineOf[at]});
    };
    while (i < n) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c == '\n') {
            lineStart = true;
            ++i;
            continue;
        }
        if (std::isspace(c)) {
            ++i;
            continue;
        }
        if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            while (i < n && s[i] != '\n') ++i;
            continue;
        }
        if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            const auto end = s.find("*/", i + 2);
            i = end == std::string::npos ? n : end + 2;
            continue;
        }
        if (c == '#' && lineStart && !nested) {
            // A directive: the whole logical line, comments blanked.
            const std::size_t at = i;
            std::string text;
            while (i < n && s[i] != '\n') {
                if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
                    while (i < n && s[i] != '\n') ++i;
                    break;
                }
                if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
                    const auto end = s.find("*/", i + 2);
                    i = end == std::string::npos ? n : end + 2;
                    text += ' ';
                    continue;
                }
                text += s[i++];
            }
            push(CppToken::Kind::Directive, text, at);
            // The directive's own words are tokens too (a #define's body, an #if's names).
            for (auto& t : lex(text.substr(1), true)) {
                t.line = lineOf[at];
                tokens.push_back(std::move(t));
            }
            continue;
        }
        lineStart = false;
        // Raw strings: R"delim( ... )delim", with any encoding prefix.
        if (identStart(c)) {
            std::size_t j = i;
            while (j < n && identChar(static_cast<unsigned char>(s[j]))) ++j;
            const std::string word = s.substr(i, j - i);
            const bool raw = !word.empty() && word.back() == 'R' &&
                             (word == "R" || word == "LR" || word == "uR" || word == "UR" || word == "u8R");
            if (raw && j < n && s[j] == '"') {
                const auto open = s.find('(', j + 1);
                if (open != std::string::npos && open - j - 1 <= 16) {
                    const std::string close = ")" + s.substr(j + 1, open - j - 1) + "\"";
                    const auto end = s.find(close, open + 1);
                    const std::size_t stop = end == std::string::npos ? n : end;
                    push(CppToken::Kind::String, s.substr(open + 1, stop - open - 1), i);
                    i = end == std::string::npos ? n : end + close.size();
                    continue;
                }
            }
            const bool prefix =
                (word == "L" || word == "u" || word == "U" || word == "u8") && j < n && (s[j] == '"' || s[j] == '\'');
            if (!prefix) {
                push(CppToken::Kind::Identifier, word, i);
                i = j;
                continue;
            }
            i = j; // the literal follows
        }
        if (s[i] == '"' || s[i] == '\'') {
            const char quote = s[i];
            const std::size_t at = i;
            std::string text;
            ++i;
            while (i < n && s[i] != quote && s[i] != '\n') {
                if (s[i] == '\\' && i + 1 < n) text += s[i++];
                text += s[i++];
            }
            if (i < n && s[i] == quote) ++i;
            push(quote == '"' ? CppToken::Kind::String : CppToken::Kind::Char, text, at);
            continue;
        }
        if (std::isdigit(static_cast<unsigned char>(s[i])) ||
            (s[i] == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
            const std::size_t at = i;
            while (i < n &&
                   (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '.' || s[i] == '\'' ||
                    ((s[i] == '+' || s[i] == '-') && (s[i - 1] == 'e' || s[i - 1] == 'E' || s[i - 1] == 'p' || s[i - 1] == 'P'))))
                ++i;
            push(CppToken::Kind::Number, s.substr(at, i - at), at);
            continue;
        }
        // Punctuation: the two-character forms the rules look at, else one character.
        static const char* const pairs[] = {"::", "->", "##", "&&", "||", "<<", ">>", "==", "!=", "<=", ">=", "++", "--"};
        std::string p(1, s[i]);
        for (const char* two : pairs)
            if (i + 1 < n && s[i] == two[0] && s[i + 1] == two[1]) {
                p = two;
                break;
            }
        push(CppToken::Kind::Punct, p, i);
        i += p.size();
    }
    return tokens;
}
} // namespace

std::vector<CppToken> lexCpp(const std::string& source) {
    return lex(source, false);
}

} // namespace kw::eval
