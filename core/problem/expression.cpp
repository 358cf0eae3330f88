#include "problem/expression.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace kw::problem {

struct Expression::Node {
    enum class Kind { Number, Name, Binary, Call } kind;
    double number = 0;     // Number
    bool integral = true;  // Number written without '.', 'e'
    long long integer = 0; // Number, when integral: exact (a double holds only 53 bits)
    std::string name;      // Name, or function for Call
    char op = 0;           // Binary
    std::shared_ptr<const Node> lhs, rhs;
};

namespace {
using NodePtr = std::shared_ptr<const Expression::Node>;
using Node = Expression::Node;

// Recursive descent; throws std::runtime_error, caught in parse().
class Parser {
  public:
    Parser(const std::string& text, std::set<std::string>& names) : text_(text), names_(names) {}

    NodePtr parseAll() {
        auto node = parseSum();
        skipSpace();
        if (pos_ != text_.size()) fail("unexpected '" + std::string(1, text_[pos_]) + "'");
        return node;
    }

  private:
    [[noreturn]] void fail(const std::string& what) { failAt(pos_, what); }
    [[noreturn]] void failAt(std::size_t pos, const std::string& what) {
        throw std::runtime_error(what + " at column " + std::to_string(pos + 1));
    }
    void skipSpace() {
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    }
    bool accept(char c) {
        skipSpace();
        if (pos_ < text_.size() && text_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    NodePtr binary(char op, NodePtr lhs, NodePtr rhs) {
        auto n = std::make_shared<Node>();
        n->kind = Node::Kind::Binary;
        n->op = op;
        n->lhs = std::move(lhs);
        n->rhs = std::move(rhs);
        return n;
    }
    NodePtr parseSum() {
        auto lhs = parseProduct();
        for (;;) {
            if (accept('+'))
                lhs = binary('+', lhs, parseProduct());
            else if (accept('-'))
                lhs = binary('-', lhs, parseProduct());
            else
                return lhs;
        }
    }
    NodePtr parseProduct() {
        auto lhs = parseUnary();
        for (;;) {
            if (accept('*'))
                lhs = binary('*', lhs, parseUnary());
            else if (accept('/'))
                lhs = binary('/', lhs, parseUnary());
            else if (accept('%'))
                lhs = binary('%', lhs, parseUnary());
            else
                return lhs;
        }
    }
    // Nesting ( and unary minus ) is bounded: the parser and every walk of the
    // tree recurse, and a hostile file must not exhaust the stack.
    static constexpr int kMaxDepth = 100;
    struct Deeper {
        Parser& p;
        explicit Deeper(Parser& parser) : p(parser) {
            if (++p.depth_ > kMaxDepth) p.fail("nested more than " + std::to_string(kMaxDepth) + " levels deep");
        }
        ~Deeper() { --p.depth_; }
    };
    NodePtr parseUnary() {
        Deeper guard(*this);
        if (accept('-')) {
            auto zero = std::make_shared<Node>();
            zero->kind = Node::Kind::Number;
            return binary('-', zero, parseUnary());
        }
        return parsePrimary();
    }
    NodePtr parsePrimary() {
        skipSpace();
        if (pos_ >= text_.size()) fail("expression ends early");
        const char c = text_[pos_];
        if (accept('(')) {
            auto inner = parseSum();
            if (!accept(')')) fail("expected ')'");
            return inner;
        }
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
            const auto start = pos_;
            bool integral = true;
            while (pos_ < text_.size() &&
                   (std::isdigit(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.' || text_[pos_] == 'e' ||
                    text_[pos_] == 'E' ||
                    ((text_[pos_] == '-' || text_[pos_] == '+') && (text_[pos_ - 1] == 'e' || text_[pos_ - 1] == 'E')))) {
                if (!std::isdigit(static_cast<unsigned char>(text_[pos_]))) integral = false;
                ++pos_;
            }
            auto n = std::make_shared<Node>();
            n->kind = Node::Kind::Number;
            n->integral = integral;
            const std::string literal = text_.substr(start, pos_ - start);
            if (integral) {
                // Exactly: through a double, 9007199254740993 would read as ...992
                // and anything past 2^63 would wrap.
                const auto [end, ec] = std::from_chars(literal.data(), literal.data() + literal.size(), n->integer);
                if (ec != std::errc{} || end != literal.data() + literal.size())
                    failAt(start, "integer " + literal +
                                      " does not fit in 64 bits (at most 9223372036854775807; "
                                      "write a floating constant such as 1e19 for bytes or flops)");
                n->number = static_cast<double>(n->integer);
                return n;
            }
            std::size_t used = 0;
            try {
                n->number = std::stod(literal, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            // "1.2.3" or "1e5e5" would otherwise read as their first number.
            if (used != literal.size() || !std::isfinite(n->number)) failAt(start, "bad number '" + literal + "'");
            return n;
        }
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            const auto start = pos_;
            while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
            std::string word = text_.substr(start, pos_ - start);
            if (accept('(')) {
                if (word != "min" && word != "max" && word != "ceil_div")
                    fail("unknown function '" + word + "' (known: min, max, ceil_div)");
                auto n = std::make_shared<Node>();
                n->kind = Node::Kind::Call;
                n->name = word;
                n->lhs = parseSum();
                if (!accept(',')) fail("expected ',' in " + word + "(a, b)");
                n->rhs = parseSum();
                if (!accept(')')) fail("expected ')' closing " + word + "(");
                return n;
            }
            auto n = std::make_shared<Node>();
            n->kind = Node::Kind::Name;
            n->name = word;
            names_.insert(word);
            return n;
        }
        fail("unexpected '" + std::string(1, c) + "'");
    }

    const std::string& text_;
    std::set<std::string>& names_;
    std::size_t pos_ = 0;
    int depth_ = 0;
};

// 64-bit arithmetic that says when it overflows instead of wrapping or trapping.
long long checkedInt(char op, long long a, long long b) {
    long long r = 0;
    bool overflow = false;
    switch (op) {
    case '+':
        overflow = __builtin_add_overflow(a, b, &r);
        break;
    case '-':
        overflow = __builtin_sub_overflow(a, b, &r);
        break;
    case '*':
        overflow = __builtin_mul_overflow(a, b, &r);
        break;
    case '/':
    case '%':
        if (b == 0) throw std::runtime_error(op == '/' ? "division by zero" : "modulo by zero");
        if (a == std::numeric_limits<long long>::min() && b == -1)
            overflow = true;
        else
            r = op == '/' ? a / b : a % b;
        break;
    default:
        break;
    }
    if (overflow)
        throw std::runtime_error(std::to_string(a) + " " + op + " " + std::to_string(b) + " overflows a 64-bit integer");
    return r;
}

// A floating constant in an integer (shape) expression, truncated like C++
// does, but only where the result is defined.
long long toInteger(double v) {
    constexpr double kTwoTo63 = 9223372036854775808.0;
    if (!(v >= -kTwoTo63 && v < kTwoTo63)) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g", v);
        throw std::runtime_error(std::string("constant ") + buf + " does not fit in a 64-bit integer");
    }
    return static_cast<long long>(v);
}

template <typename T> T evalNode(const Node& n, const std::map<std::string, long long>& sizes) {
    switch (n.kind) {
    case Node::Kind::Number:
        if constexpr (std::is_integral_v<T>)
            return n.integral ? n.integer : toInteger(n.number);
        else
            return n.number;
    case Node::Kind::Name: {
        auto it = sizes.find(n.name);
        if (it == sizes.end()) throw std::runtime_error("unknown size '" + n.name + "'");
        return static_cast<T>(it->second);
    }
    case Node::Kind::Call: {
        const T a = evalNode<T>(*n.lhs, sizes), b = evalNode<T>(*n.rhs, sizes);
        if (n.name == "min") return a < b ? a : b;
        if (n.name == "max") return a > b ? a : b;
        if (b == 0) throw std::runtime_error("ceil_div by zero");
        if constexpr (std::is_integral_v<T>)
            return checkedInt('/', checkedInt('-', checkedInt('+', a, b), 1), b);
        else
            return std::ceil(a / b);
    }
    case Node::Kind::Binary: {
        const T a = evalNode<T>(*n.lhs, sizes), b = evalNode<T>(*n.rhs, sizes);
        if constexpr (std::is_integral_v<T>) return checkedInt(n.op, a, b);
        switch (n.op) {
        case '+':
            return a + b;
        case '-':
            return a - b;
        case '*':
            return a * b;
        case '/':
            if (b == 0) throw std::runtime_error("division by zero");
            return a / b;
        case '%':
            return std::fmod(a, b);
        }
    }
    }
    throw std::runtime_error("malformed expression");
}

std::string renderCpp(const Node& n, bool floating) {
    switch (n.kind) {
    case Node::Kind::Number: {
        if (n.integral && !floating) return std::to_string(n.integer) + "LL";
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g", n.number);
        std::string s = buf;
        if (s.find_first_of(".e") == std::string::npos) s += ".0";
        return floating ? s : "(long long)(" + s + ")";
    }
    case Node::Kind::Name:
        return floating ? "(double)" + n.name : n.name;
    case Node::Kind::Call: {
        const auto a = renderCpp(*n.lhs, floating), b = renderCpp(*n.rhs, floating);
        if (n.name == "ceil_div") return floating ? "std::ceil((" + a + ")/(" + b + "))" : "kw_ceil_div(" + a + ", " + b + ")";
        return "std::" + n.name + "<" + (floating ? "double" : "long long") + ">(" + a + ", " + b + ")";
    }
    case Node::Kind::Binary:
        if (n.op == '%' && floating) return "std::fmod(" + renderCpp(*n.lhs, true) + ", " + renderCpp(*n.rhs, true) + ")";
        return "(" + renderCpp(*n.lhs, floating) + " " + n.op + " " + renderCpp(*n.rhs, floating) + ")";
    }
    return "0";
}
} // namespace

Result<Expression> Expression::parse(const std::string& text) {
    Expression e;
    e.text_ = text;
    // Long chains (1+1+...+1) make deep trees too; no size expression needs more.
    constexpr std::size_t kMaxLength = 4096;
    if (text.size() > kMaxLength)
        return makeError(ErrorCode::ParseError, "bad expression \"" + text.substr(0, 60) + "...\": longer than " +
                                                    std::to_string(kMaxLength) + " characters");
    try {
        Parser parser(text, e.names_);
        e.root_ = parser.parseAll();
    } catch (const std::runtime_error& ex) {
        return makeError(ErrorCode::ParseError, "bad expression \"" + text + "\": " + ex.what());
    }
    return e;
}

Result<long long> Expression::evaluateInt(const std::map<std::string, long long>& sizes) const {
    try {
        return evalNode<long long>(*root_, sizes);
    } catch (const std::runtime_error& ex) {
        return makeError(ErrorCode::Validation, "\"" + text_ + "\": " + ex.what());
    }
}

Result<double> Expression::evaluate(const std::map<std::string, long long>& sizes) const {
    try {
        return evalNode<double>(*root_, sizes);
    } catch (const std::runtime_error& ex) {
        return makeError(ErrorCode::Validation, "\"" + text_ + "\": " + ex.what());
    }
}

std::string Expression::toCpp(bool floating) const {
    return renderCpp(*root_, floating);
}

} // namespace kw::problem
