// Fuzzes the shape/cost expression parser and evaluator (core/problem/expression.*):
// every input must give a value or an error with a message, never a crash,
// hang or escaping exception, and a few invariants must hold (see check()).
#include "fuzz_engine.h"
#include "problem/expression.h"
#include "problem/problem_loader.h"
#include "test_support.h"

#include <QtTest/QtTest>
#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

using kw::problem::Expression;
namespace fz = kw::fuzz;

namespace {

std::vector<std::string> expressionTokens() {
    auto t = fz::commonTokens();
    for (const char* s : {"(",
                          ")",
                          "((((",
                          "))))",
                          ",",
                          "+",
                          "-",
                          "*",
                          "/",
                          "%",
                          "--",
                          "- -",
                          "min(",
                          "max(",
                          "ceil_div(",
                          "pow(",
                          "min(1,",
                          "max(N, M)",
                          "ceil_div(N, 0)",
                          "N",
                          "M",
                          "K",
                          "NV",
                          "_",
                          "a1",
                          "kw_x",
                          "e",
                          "E",
                          "1/0",
                          "N%0",
                          "1e5e5",
                          "0.",
                          ".5",
                          "..",
                          "1..2",
                          "N*N*N*N*N*N*N*N",
                          "-9223372036854775807-1"})
        t.emplace_back(s);
    return t;
}

// Every expression the bundled problems use: shapes, bytes, flops, jagged lengths.
std::vector<std::string> seedCorpus() {
    std::vector<std::string> corpus{"4*M*N + 2*(N - 1) / 2",
                                    "max(M, 7) + min(-2, N) + ceil_div(N, 4) + N % 3",
                                    "N / 4 * 1.5e0",
                                    "A / B",
                                    "A % B",
                                    "-(-(N))",
                                    "1e3",
                                    "0",
                                    "  N  "};
    for (const auto& root : {kw::test::bundledProblemsDir(), kw::test::dataDir() / "problems"})
        for (const auto& dir : kw::problem::findProblemDirs(root)) {
            const auto j = nlohmann::json::parse(fz::readWhole(dir / "problem.json"), nullptr, false);
            if (j.is_discarded()) continue;
            auto add = [&](const nlohmann::json& v) {
                if (v.is_string())
                    corpus.push_back(v.get<std::string>());
                else if (v.is_number_integer())
                    corpus.push_back(v.dump());
            };
            for (const char* key : {"bytes", "flops"})
                if (j.is_object() && j.contains(key)) add(j[key]);
            if (j.is_object() && j.contains("arguments") && j["arguments"].is_array())
                for (const auto& a : j["arguments"]) {
                    if (!a.is_object()) continue;
                    if (a.contains("shape") && a["shape"].is_array())
                        for (const auto& d : a["shape"]) add(d);
                    if (a.contains("fill") && a["fill"].is_object())
                        for (const char* key : {"min_length", "max_length"})
                            if (a["fill"].contains(key)) add(a["fill"][key]);
                }
        }
    std::sort(corpus.begin(), corpus.end());
    corpus.erase(std::unique(corpus.begin(), corpus.end()), corpus.end());
    return corpus;
}

// Sizes for the names an expression uses, derived from the input alone so a
// replayed input sees the same ones; sometimes one is left out.
std::map<std::string, long long> sizesFor(const std::string& input, const std::set<std::string>& names) {
    static const std::vector<long long> edges{0,
                                              1,
                                              2,
                                              3,
                                              7,
                                              -1,
                                              -2,
                                              1024,
                                              4096,
                                              1LL << 31,
                                              1LL << 32,
                                              1LL << 62,
                                              std::numeric_limits<long long>::max(),
                                              std::numeric_limits<long long>::min()};
    fz::Rng rng(fz::hashBytes(input));
    std::map<std::string, long long> sizes;
    for (const auto& n : names) sizes[n] = rng.chance(3, 4) ? rng.pick(edges) : static_cast<long long>(rng.next());
    if (!sizes.empty() && rng.chance(1, 8)) sizes.erase(std::next(sizes.begin(), static_cast<long>(rng.below(sizes.size()))));
    return sizes;
}

template <typename T> std::string describe(const kw::Result<T>& r) {
    if (!r) return "error: " + r.error().message;
    if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(*r)) return "nan";
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g", *r);
        return buf;
    } else {
        return std::to_string(*r);
    }
}

bool isIdentifier(const std::string& s) {
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    return true;
}

std::string trimmed(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\n\r\f\v");
    return b == std::string::npos ? "" : s.substr(b, s.find_last_not_of(" \t\n\r\f\v") - b + 1);
}

// The text is one number token as the parser scans it (digits, '.', e, a sign after e).
bool isSingleNumber(const std::string& t) {
    if (t.empty() || !(std::isdigit(static_cast<unsigned char>(t[0])) || t[0] == '.')) return false;
    for (std::size_t i = 0; i < t.size(); ++i) {
        const char c = t[i];
        const bool sign = (c == '+' || c == '-') && i > 0 && (t[i - 1] == 'e' || t[i - 1] == 'E');
        if (!std::isdigit(static_cast<unsigned char>(c)) && c != '.' && c != 'e' && c != 'E' && !sign) return false;
    }
    return true;
}

// Messages echo the input; the signature keeps only what the parser said.
std::string signatureOf(std::string message, const std::string& input) {
    if (!input.empty())
        for (std::size_t at = 0; (at = message.find(input, at)) != std::string::npos; at += 3)
            message.replace(at, input.size(), "<e>");
    return fz::normalizeMessage(message);
}

fz::Outcome check(const std::string& input) {
    fz::Outcome out;
    auto fail = [&](const std::string& why) {
        if (out.failure.empty()) out.failure = why;
    };

    const auto e = Expression::parse(input);
    const auto again = Expression::parse(input);
    if (e.ok() != again.ok() || (!e && e.error().message != again.error().message)) fail("parsing twice gave different results");
    if (!e) {
        if (e.error().message.empty()) fail("parse error without a message");
        if (e.error().code != kw::ErrorCode::ParseError) fail("parse error with a code other than ParseError");
        out.signature = "P:" + signatureOf(e.error().message, input);
        return out;
    }
    if (e->text() != input) fail("text() differs from the input");
    for (const auto& n : e->names())
        if (!isIdentifier(n) || input.find(n) == std::string::npos)
            fail("names() holds \"" + n + "\", not an identifier of the input");
    if (e->toCpp(false).empty() || e->toCpp(true).empty()) fail("toCpp() is empty");
    if (e->toCpp(false) != again->toCpp(false)) fail("toCpp() differs between two parses");

    const auto sizes = sizesFor(input, e->names());
    const auto i1 = e->evaluateInt(sizes), i2 = e->evaluateInt(sizes);
    const auto d1 = e->evaluate(sizes), d2 = e->evaluate(sizes);
    if (describe(i1) != describe(i2)) fail("evaluateInt twice: " + describe(i1) + " vs " + describe(i2));
    if (describe(d1) != describe(d2)) fail("evaluate twice: " + describe(d1) + " vs " + describe(d2));
    if (describe(again->evaluateInt(sizes)) != describe(i1)) fail("evaluateInt differs between two parses");
    for (const auto* err : {i1.ok() ? nullptr : &i1.error(), d1.ok() ? nullptr : &d1.error()})
        if (err && (err->message.empty() || err->code != kw::ErrorCode::Validation))
            fail("evaluation error without a message or with a code other than Validation");

    // Outer whitespace changes nothing.
    if (input.size() + 2 <= 4096) {
        const auto padded = Expression::parse(" " + input + "\t");
        if (!padded)
            fail("padding with whitespace made it unparsable: " + padded.error().message);
        else if (const auto p = padded->evaluateInt(sizes); p.ok() != i1.ok() || (p.ok() && *p != *i1))
            fail("padding with whitespace changed the value: " + describe(p) + " vs " + describe(i1));
    }
    // A lone number literal is read whole, and evaluateInt gives its exact
    // (truncated) value or an error, never a wrapped or rounded one.
    if (const std::string t = trimmed(input); isSingleNumber(t)) {
        char* end = nullptr;
        const double v = std::strtod(t.c_str(), &end);
        if (end != t.c_str() + t.size())
            fail("\"" + t + "\" is not one number, yet it parsed");
        else if (d1.ok() && *d1 != v)
            fail("evaluate(\"" + t + "\") = " + describe(d1));
        const bool integral = t.find_first_of(".eE") == std::string::npos;
        long long exact = 0;
        const bool fits = integral ? std::from_chars(t.data(), t.data() + t.size(), exact).ec == std::errc{}
                                   : std::isfinite(v) && std::fabs(v) < 9.2e18 && ((exact = static_cast<long long>(v)), true);
        if (i1.ok() && (!fits || *i1 != exact))
            fail("evaluateInt(\"" + t + "\") = " + describe(i1) +
                 (fits ? ", expected " + std::to_string(exact) : ", expected an error"));
    }
    out.signature = "I:" + (i1 ? std::string("ok") : signatureOf(i1.error().message, input)) +
                    "|D:" + (d1 ? std::string("ok") : signatureOf(d1.error().message, input));
    return out;
}

} // namespace

class TestFuzzExpression : public QObject {
    Q_OBJECT
  private slots:
    void parseAndEvaluateNeverCrash() {
        const auto options = fz::Options::fromEnvironment(300000);
        const fz::Mutator mutator(expressionTokens(), 8192);
        fz::Driver driver("expression", options);
        const auto report = driver.run(
            seedCorpus(),
            [&](fz::Rng& rng, const std::string& parent, const std::vector<std::string>& corpus) {
                return mutator.mutate(rng, parent, corpus);
            },
            check);
        QVERIFY(report.iterations > 0);
        for (const auto& f : report.failures) qWarning("%s", f.c_str());
        QVERIFY2(report.failures.empty(), report.failures.empty() ? "" : report.failures.front().c_str());
    }
};

int main(int argc, char** argv) {
    kw::fuzz::allowLongRuns();
    TestFuzzExpression test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_fuzz_expression.moc"
