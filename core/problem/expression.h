#pragma once
// Shape and cost formulas of a problem: integer/float literals, named sizes,
// + - * / %, parentheses, min(a,b), max(a,b), ceil_div(a,b). Parsed once in core
// (to validate and evaluate), and rendered as C++ for the generated harness so
// that sizes derived at fill time (jagged totals) can be used there too.
#include "util/result.h"

#include <map>
#include <memory>
#include <set>
#include <string>

namespace kw::problem {

class Expression {
  public:
    static Result<Expression> parse(const std::string& text);

    // Integer evaluation (shapes). Fails on unknown names, division by zero.
    Result<long long> evaluateInt(const std::map<std::string, long long>& sizes) const;
    // Floating evaluation (bytes, flops).
    Result<double> evaluate(const std::map<std::string, long long>& sizes) const;
    // A C++ expression over int64_t variables named like the sizes.
    std::string toCpp(bool floating) const;
    const std::set<std::string>& names() const { return names_; }
    const std::string& text() const { return text_; }

    struct Node;

  private:
    std::shared_ptr<const Node> root_;
    std::set<std::string> names_;
    std::string text_;
};

} // namespace kw::problem
