#pragma once
// A C/C++ (and CUDA C++) lexer for the static rules: identifiers, string and
// character literals, numbers, punctuation and preprocessor directives, with
// comments, line continuations and raw strings handled, and the line each
// token starts on. Linear in the source, no regular expressions, no recursion:
// any input, however long its lines, is lexed in bounded stack.
#include <string>
#include <vector>

namespace kw::eval {

struct CppToken {
    enum class Kind { Identifier, String, Char, Number, Punct, Directive };
    Kind kind;
    std::string text; // a String's text is its contents (escapes left as written); a Directive's is the whole line
    int line = 1;
};

std::vector<CppToken> lexCpp(const std::string& source);

} // namespace kw::eval
