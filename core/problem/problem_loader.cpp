#include "problem/problem_loader.h"
#include "problem/reserved_names.h"

#include "util/isa_cap.h"

#include "util/files.h"
#include "util/hash.h"
#include "util/log.h"
#include "util/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>

namespace kw::problem {
namespace {
using nlohmann::json;

// Collects every validation finding instead of stopping at the first, so a
// user fixes a problem.json in one pass.
class Checker {
  public:
    explicit Checker(std::string file) : file_(std::move(file)) {}
    void fail(const std::string& path, const std::string& what) { issues_.push_back(file_ + ": " + path + ": " + what); }
    bool ok() const { return issues_.empty(); }
    std::string joined() const {
        std::string s;
        for (const auto& i : issues_) s += (s.empty() ? "" : "\n") + i;
        return s;
    }

    const json* field(const json& obj, const std::string& path, const char* key, json::value_t type, bool required) {
        auto it = obj.find(key);
        if (it == obj.end()) {
            if (required) fail(path, std::string("missing required field \"") + key + "\"");
            return nullptr;
        }
        const bool numberWanted = type == json::value_t::number_float;
        const bool typeOk = numberWanted
                                ? it->is_number()
                                : it->type() == type || (type == json::value_t::number_integer && it->is_number_integer());
        if (!typeOk) {
            fail(path + "/" + key, std::string("expected ") + typeName(type) + ", found " + it->type_name());
            return nullptr;
        }
        return &*it;
    }
    std::string str(const json& obj, const std::string& path, const char* key, bool required, std::string dflt = {}) {
        const json* v = field(obj, path, key, json::value_t::string, required);
        return v ? v->get<std::string>() : dflt;
    }
    double num(const json& obj, const std::string& path, const char* key, bool required, double dflt = 0) {
        const json* v = field(obj, path, key, json::value_t::number_float, required);
        return v ? v->get<double>() : dflt;
    }

  private:
    static const char* typeName(json::value_t t) {
        switch (t) {
        case json::value_t::string:
            return "a string";
        case json::value_t::array:
            return "an array";
        case json::value_t::object:
            return "an object";
        case json::value_t::boolean:
            return "true or false";
        case json::value_t::number_integer:
            return "an integer";
        default:
            return "a number";
        }
    }
    std::string file_;
    std::vector<std::string> issues_;
};

// A reference, baseline, seed or fill source, or problem.json itself.
constexpr std::uintmax_t kMaxSourceBytes = 4u << 20;
// The longest limit a problem may give (a day), and the sizes a case may carry
// (resources/harness/cpp/judge_protocol.h: kMaxSizes).
constexpr double kMaxLimitS = 86400;
constexpr std::size_t kMaxCaseSizes = 32;

// No std::regex on problem content: libstdc++'s matcher recurses once per
// character, so a long name or a long run of blank lines in a source
// overflowed the stack. These loops say the same.

// A problem name: [a-z0-9_][a-z0-9_.-]*
bool isProblemName(const std::string& s) {
    if (s.empty() || s[0] == '.' || s[0] == '-') return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-')) return false;
    return true;
}

// An nvcc -arch value: sm_[0-9]+[a-z]? or native
bool isCudaArch(const std::string& s) {
    if (s == "native") return true;
    if (s.rfind("sm_", 0) != 0) return false;
    std::size_t i = 3;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == 3) return false;
    if (i < s.size() && s[i] >= 'a' && s[i] <= 'z') ++i;
    return i == s.size();
}

template <typename LineTest> bool anyLine(const std::string& text, LineTest&& test) {
    for (std::size_t start = 0; start <= text.size();) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        if (test(std::string_view(text).substr(start, end - start))) return true;
        start = end + 1;
    }
    return false;
}

constexpr std::string_view kBlanks = " \t\r\f\v";

// A line reads "class WHAT" or "def WHAT", at any indentation.
bool definesPython(const std::string& text, const std::string& what) {
    return anyLine(text, [&](std::string_view line) {
        const auto first = line.find_first_not_of(kBlanks);
        if (first == std::string_view::npos) return false;
        line.remove_prefix(first);
        for (std::string_view keyword : {"class", "def"}) {
            if (line.substr(0, keyword.size()) != keyword) continue;
            std::string_view rest = line.substr(keyword.size());
            const auto name = rest.find_first_not_of(kBlanks);
            if (name == 0 || name == std::string_view::npos) continue;
            rest.remove_prefix(name);
            if (rest.substr(0, what.size()) == what && (rest.size() == what.size() || !isIdentChar(rest[what.size()])))
                return true;
        }
        return false;
    });
}

// A line, unindented, reads "NAME =".
// `name = ...` at the start of a line, also as a later target of a chained
// assignment (`K = N = 512`), with an annotation (`N: int = 512`) or among
// the names an assignment unpacks (`height, width = 224, 224`, `(h, w) = ...`).
bool assignsAtModuleLevel(const std::string& text, const std::string& name) {
    const auto isIdent = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    const auto skipBlanks = [](std::string_view line, std::size_t pos) {
        const auto next = line.find_first_not_of(kBlanks, pos);
        return next == std::string_view::npos ? line.size() : next;
    };
    // One statement: its targets, left to right, each a name or a list of names.
    const auto assigns = [&](std::string_view line) {
        if (line.empty() || std::isdigit(static_cast<unsigned char>(line[0]))) return false;
        std::size_t pos = 0;
        while (pos < line.size()) {
            const bool bracketed = line[pos] == '(' || line[pos] == '[';
            const char close = line[pos] == '(' ? ')' : ']';
            if (bracketed) pos = skipBlanks(line, pos + 1);
            bool names = false, single = true;
            for (;;) {
                std::size_t end = pos;
                while (end < line.size() && isIdent(line[end])) ++end;
                if (end == pos || std::isdigit(static_cast<unsigned char>(line[pos]))) return false;
                names = names || line.substr(pos, end - pos) == name;
                pos = skipBlanks(line, end);
                if (pos < line.size() && line[pos] == ',') {
                    single = false;
                    pos = skipBlanks(line, pos + 1);
                    // `a, b, = ...` and `(a, b,)`: a trailing comma.
                    if (pos < line.size() && (line[pos] == '=' || (bracketed && line[pos] == close))) break;
                    continue;
                }
                break;
            }
            if (bracketed) {
                if (pos >= line.size() || line[pos] != close) return false;
                pos = skipBlanks(line, pos + 1);
                single = false;
            }
            if (single && pos < line.size() && line[pos] == ':' && names) {
                const auto eq = line.find('=', pos);
                return eq != std::string_view::npos && (eq + 1 >= line.size() || line[eq + 1] != '=');
            }
            if (pos >= line.size() || line[pos] != '=' || (pos + 1 < line.size() && line[pos + 1] == '=')) return false;
            if (names) return true;
            pos = skipBlanks(line, pos + 1);
        }
        return false;
    };
    // A module-level line may hold several statements: `depth = 32; height = width = 128`.
    return anyLine(text, [&](std::string_view line) {
        if (line.empty() || !(isIdent(line[0]) || line[0] == '(' || line[0] == '[')) return false;
        for (std::size_t start = 0; start < line.size();) {
            const auto semi = line.find(';', start);
            auto statement = line.substr(start, semi == std::string_view::npos ? std::string_view::npos : semi - start);
            const auto first = statement.find_first_not_of(kBlanks);
            if (first != std::string_view::npos && assigns(statement.substr(first))) return true;
            if (semi == std::string_view::npos) break;
            start = semi + 1;
        }
        return false;
    });
}

// Why `name` cannot name a size, scalar, argument or the kernel: the
// generated harness declares it next to its own identifiers and the C++
// keywords; "" when it can.
std::string reservedNameReason(const std::string& name) {
    if (cppKeywords().count(name)) return "\"" + name + "\" is a C++ keyword";
    if (harnessNames().count(name)) return "\"" + name + "\" is a name the generated harness or the C library uses itself";
    const auto capital = [](char c) {
        return std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
    };
    if (std::all_of(name.begin(), name.end(), capital)) {
        const auto endsWith = [&](const char* tail) {
            return name.size() > std::strlen(tail) && name.compare(name.size() - std::strlen(tail), std::string::npos, tail) == 0;
        };
        // INT64_MAX, UINTPTR_MAX, INT_FAST8_MIN, UINT32_C, INTMAX_MAX, ...
        const bool intLimit =
            (name.rfind("INT", 0) == 0 || name.rfind("UINT", 0) == 0) && (endsWith("_MAX") || endsWith("_MIN") || endsWith("_C"));
        bool family = intLimit || signalsAndFlags().count(name) > 0;
        for (const auto& prefix : macroFamilies()) family = family || name.rfind(prefix, 0) == 0;
        if (family)
            return "\"" + name +
                   "\" looks like a macro of the C library or the system headers the harness includes; choose another name";
    }
    std::string lower = name.substr(0, 3);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "kw_") return "names beginning with kw_ or KW_ belong to the generated harness";
    if (name.size() > 1 && name[0] == '_' && (name[1] == '_' || std::isupper(static_cast<unsigned char>(name[1]))))
        return "\"" + name + "\" is reserved to the compiler (a leading underscore and a capital, or two underscores)";
    return {};
}

std::string lineColumn(const std::string& text, std::size_t byte) {
    std::size_t line = 1, col = 1;
    for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            col = 1;
        } else {
            ++col;
        }
    }
    return std::to_string(line) + ":" + std::to_string(col);
}

std::optional<FillSpec::Kind> parseFillKind(const std::string& k) {
    static const std::map<std::string, FillSpec::Kind> kinds{{"uniform", FillSpec::Kind::Uniform},
                                                             {"normal", FillSpec::Kind::Normal},
                                                             {"int_range", FillSpec::Kind::IntRange},
                                                             {"sorted_uniform", FillSpec::Kind::SortedUniform},
                                                             {"sorted_int_range", FillSpec::Kind::SortedIntRange},
                                                             {"lengths", FillSpec::Kind::Lengths},
                                                             {"offsets", FillSpec::Kind::Offsets},
                                                             {"sample_from", FillSpec::Kind::SampleFrom},
                                                             {"constant", FillSpec::Kind::Constant},
                                                             {"function", FillSpec::Kind::Function}};
    auto it = kinds.find(k);
    if (it == kinds.end()) return std::nullopt;
    return it->second;
}

class Loader {
  public:
    Loader(std::filesystem::path dir, std::string text)
        : dir_(std::move(dir)), text_(std::move(text)), check_((dir_ / "problem.json").string()) {}

    Result<ProblemSpec> run() {
        json root;
        try {
            root = json::parse(text_);
        } catch (const json::parse_error& e) {
            return makeError(ErrorCode::ParseError, (dir_ / "problem.json").string() + ":" +
                                                        lineColumn(text_, e.byte == 0 ? 0 : e.byte - 1) +
                                                        ": not valid JSON: " + cleanMessage(e.what()));
        } catch (const json::exception& e) {
            // A number too large for a double ("1e99999") is out_of_range, not a
            // parse_error, and carries no position: find the quoted token instead.
            const std::string what = cleanMessage(e.what());
            const auto q = what.find('\'');
            const auto token = q == std::string::npos ? std::string() : what.substr(q + 1, what.find('\'', q + 1) - q - 1);
            const auto at = token.empty() ? std::string::npos : text_.find(token);
            return makeError(ErrorCode::ParseError, (dir_ / "problem.json").string() +
                                                        (at == std::string::npos ? "" : ":" + lineColumn(text_, at)) +
                                                        ": not valid JSON: " + what);
        }
        if (!root.is_object())
            return makeError(ErrorCode::ParseError,
                             (dir_ / "problem.json").string() + ": expected a JSON object at the top level");

        spec_.dir = std::filesystem::absolute(dir_);
        readHeader(root);
        readSizes(root);
        if (spec_.backend == Backend::Torch) {
            // A PyTorch module is the interface: no C signature, arguments or fills.
            readShapes(root);
            readTensorTolerances(root);
            readFormulas(root);
            readSources(root);
            readForbidden(root);
            checkPythonSources();
        } else {
            readScalars(root);
            readArguments(root);
            checkSizeCount();
            readCall(root);
            readShapes(root);
            readTolerances(root);
            readFormulas(root);
            readSources(root);
            if (spec_.backend == Backend::Cuda) readForbidden(root);
        }
        readLimits(root);
        readPolicy(root);
        if (!check_.ok()) return makeError(ErrorCode::Validation, check_.joined());
        spec_.contentHash = hashContent();
        return spec_;
    }

  private:
    static std::string cleanMessage(const std::string& what) {
        // nlohmann prefixes "[json.exception.parse_error.101] parse error at line 3, column 5: "
        // or "[json.exception.out_of_range.406] ".
        const auto pos = what.rfind(": ");
        if (pos != std::string::npos) return what.substr(pos + 2);
        const auto tag = what.find("] ");
        return what.rfind("[json.exception.", 0) == 0 && tag != std::string::npos ? what.substr(tag + 2) : what;
    }

    void readHeader(const json& root) {
        spec_.name = check_.str(root, "", "name", true);
        if (!spec_.name.empty() && !isProblemName(spec_.name))
            check_.fail("/name", "use lower-case letters, digits, '_', '-' or '.' (found \"" + spec_.name + "\")");
        spec_.title = check_.str(root, "", "title", false, spec_.name);
        spec_.description = check_.str(root, "", "description", true);
        const std::string backend = check_.str(root, "", "backend", true);
        if (const auto parsed = parseBackend(backend))
            spec_.backend = *parsed;
        else if (!backend.empty())
            check_.fail("/backend", "expected \"cpp\", \"cuda\" or \"torch\", found \"" + backend + "\"");
        spec_.function = check_.str(root, "", "function", spec_.backend != Backend::Torch);
        if (!spec_.function.empty() && !isIdentifier(spec_.function))
            check_.fail("/function", "\"" + spec_.function + "\" is not a C identifier");
        else if (const auto why = reservedNameReason(spec_.function); !spec_.function.empty() && !why.empty())
            check_.fail("/function", why + "; rename the kernel");
    }

    void readSizes(const json& root) {
        if (const json* sizes = check_.field(root, "", "sizes", json::value_t::array, true)) {
            for (std::size_t i = 0; i < sizes->size(); ++i) {
                const auto& s = (*sizes)[i];
                if (!s.is_string() || !isIdentifier(s.get<std::string>())) {
                    check_.fail("/sizes/" + std::to_string(i), "expected a size name (a C identifier)");
                    continue;
                }
                declare(s.get<std::string>(), "/sizes/" + std::to_string(i));
                spec_.sizes.push_back(s.get<std::string>());
            }
        }
    }

    void readScalars(const json& root) {
        const json* scalars = check_.field(root, "", "scalars", json::value_t::array, false);
        if (!scalars) return;
        for (std::size_t i = 0; i < scalars->size(); ++i) {
            const std::string path = "/scalars/" + std::to_string(i);
            const auto& s = (*scalars)[i];
            if (!s.is_object()) {
                check_.fail(path, "expected an object {name, dtype, value}");
                continue;
            }
            Scalar sc;
            sc.name = check_.str(s, path, "name", true);
            sc.dtype = dtype(s, path, DType::F32);
            sc.value = check_.num(s, path, "value", true);
            if (!sc.name.empty()) declare(sc.name, path + "/name");
            spec_.scalars.push_back(sc);
        }
    }

    DType dtype(const json& obj, const std::string& path, DType dflt) {
        const std::string name = check_.str(obj, path, "dtype", true);
        if (name.empty()) return dflt;
        auto d = parseDType(name);
        if (!d) {
            check_.fail(path + "/dtype", "unknown dtype \"" + name + "\" (known: " + std::string(knownDTypes()) + ")");
            return dflt;
        }
        return *d;
    }

    std::optional<Expression> expression(const json& value, const std::string& path, const std::set<std::string>& known) {
        std::string text;
        if (value.is_number_integer())
            text = value.dump(); // as written: 18446744073709551615 must not become -1
        else if (value.is_string())
            text = value.get<std::string>();
        else {
            check_.fail(path, "expected an expression (a string like \"M*N\" or an integer)");
            return std::nullopt;
        }
        auto e = Expression::parse(text);
        if (!e) {
            check_.fail(path, e.error().message);
            return std::nullopt;
        }
        for (const auto& n : e->names())
            if (!known.count(n))
                check_.fail(path, "unknown size '" + n + "' in \"" + text + "\" (known here: " + listKnown(known) + ")");
        return *e;
    }

    static std::string listKnown(const std::set<std::string>& known) {
        std::string s;
        for (const auto& k : known) s += (s.empty() ? "" : ", ") + k;
        return s.empty() ? "none" : s;
    }

    void readArguments(const json& root) {
        const json* args = check_.field(root, "", "arguments", json::value_t::array, true);
        if (!args) return;
        if (args->empty()) check_.fail("/arguments", "a kernel needs at least one argument");
        std::set<std::string> known(spec_.sizes.begin(), spec_.sizes.end());
        bool anyOutput = false;
        for (std::size_t i = 0; i < args->size(); ++i) {
            const std::string path = "/arguments/" + std::to_string(i);
            const auto& a = (*args)[i];
            if (!a.is_object()) {
                check_.fail(path, "expected an object {name, dtype, shape, fill | output}");
                continue;
            }
            Argument arg;
            arg.name = check_.str(a, path, "name", true);
            if (!arg.name.empty()) {
                if (!isIdentifier(arg.name)) check_.fail(path + "/name", "\"" + arg.name + "\" is not a C identifier");
                declare(arg.name, path + "/name");
            }
            arg.dtype = dtype(a, path, DType::F32);
            if (const json* shape = check_.field(a, path, "shape", json::value_t::array, true)) {
                if (shape->empty()) check_.fail(path + "/shape", "expected at least one dimension (use [1] for a single value)");
                for (std::size_t d = 0; d < shape->size(); ++d)
                    if (auto e = expression((*shape)[d], path + "/shape/" + std::to_string(d), known)) arg.shape.push_back(*e);
            }
            if (const json* out = check_.field(a, path, "output", json::value_t::boolean, false)) arg.output = out->get<bool>();
            anyOutput = anyOutput || arg.output;
            if (arg.output) {
                if (a.contains("fill"))
                    check_.fail(path + "/fill", "an output has no fill; the harness poisons it before each call");
            } else if (const json* fill = check_.field(a, path, "fill", json::value_t::object, true)) {
                readFill(*fill, path + "/fill", arg, known);
            }
            spec_.arguments.push_back(std::move(arg));
        }
        if (!args->empty() && !anyOutput) check_.fail("/arguments", "no argument is marked \"output\": true");
    }

    void readFill(const json& f, const std::string& path, Argument& arg, std::set<std::string>& known) {
        FillSpec& fill = arg.fill;
        const std::string kindText = check_.str(f, path, "kind", true);
        auto kind = parseFillKind(kindText);
        if (!kind) {
            if (!kindText.empty())
                check_.fail(path + "/kind",
                            "unknown fill \"" + kindText +
                                "\" (known: uniform, normal, int_range, "
                                "sorted_uniform, sorted_int_range, lengths, offsets, sample_from, constant, function)");
            return;
        }
        fill.kind = *kind;
        fill.low = check_.num(f, path, "low", false, 0);
        fill.high = check_.num(f, path, "high", false, 1);
        fill.mean = check_.num(f, path, "mean", false, 0);
        fill.stddev = check_.num(f, path, "std", false, 1);
        fill.value = check_.num(f, path, "value", false, 0);
        fill.fraction = check_.num(f, path, "fraction", false, 0.5);
        fill.emptyFraction = check_.num(f, path, "empty_fraction", false, 0);
        if (const json* d = check_.field(f, path, "distinct", json::value_t::boolean, false)) fill.distinct = d->get<bool>();
        if (const json* d = check_.field(f, path, "domain", json::value_t::array, false)) {
            if (d->size() != 2 || !(*d)[0].is_number() || !(*d)[1].is_number() || (*d)[0].get<double>() > (*d)[1].get<double>())
                check_.fail(path + "/domain", "expected [low, high] with low <= high: the range the operator is defined on, "
                                              "which the check on wide inputs draws from");
            else
                fill.domain = std::make_pair((*d)[0].get<double>(), (*d)[1].get<double>());
        }
        const bool floating = isFloating(arg.dtype);
        using K = FillSpec::Kind;
        switch (fill.kind) {
        case K::Uniform:
        case K::Normal:
        case K::SortedUniform:
            if (!floating)
                check_.fail(path + "/kind", "\"" + kindText + "\" fills floats; use int_range or sorted_int_range for " +
                                                std::string(dtypeName(arg.dtype)));
            [[fallthrough]];
        case K::IntRange:
        case K::SortedIntRange:
            if (!f.contains("low") && fill.kind != K::Normal) check_.fail(path, "missing \"low\"");
            if (!f.contains("high") && fill.kind != K::Normal) check_.fail(path, "missing \"high\"");
            if (fill.low > fill.high) check_.fail(path, "\"low\" is greater than \"high\"");
            if ((fill.kind == K::IntRange || fill.kind == K::SortedIntRange) && floating)
                check_.fail(path + "/kind", "\"" + kindText + "\" fills integers; use uniform or sorted_uniform for floats");
            break;
        case K::Lengths:
        case K::Offsets: {
            if (arg.dtype != DType::I32 && arg.dtype != DType::I64)
                check_.fail(path, "\"" + kindText + "\" needs dtype i32 or i64");
            if (arg.shape.size() != 1) check_.fail(path, "\"" + kindText + "\" needs a one-dimensional shape");
            if (f.contains("min_length"))
                fill.minLength = expression(f["min_length"], path + "/min_length", known);
            else
                check_.fail(path, "missing \"min_length\"");
            if (f.contains("max_length"))
                fill.maxLength = expression(f["max_length"], path + "/max_length", known);
            else
                check_.fail(path, "missing \"max_length\"");
            fill.total = check_.str(f, path, "total", true);
            if (!fill.total.empty()) {
                if (!isIdentifier(fill.total)) check_.fail(path + "/total", "expected a size name");
                declare(fill.total, path + "/total");
                known.insert(fill.total);
                spec_.derivedSizes.push_back(fill.total);
            }
            if (fill.emptyFraction < 0 || fill.emptyFraction > 1)
                check_.fail(path + "/empty_fraction", "expected a value in [0, 1]");
            break;
        }
        case K::SampleFrom: {
            fill.from = check_.str(f, path, "from", true);
            const Argument* src = spec_.findArgument(fill.from);
            if (!fill.from.empty() && !src)
                check_.fail(path + "/from", "\"" + fill.from + "\" is not an argument declared before this one");
            else if (src && src->dtype != arg.dtype)
                check_.fail(path + "/from", "\"" + fill.from + "\" has dtype " + std::string(dtypeName(src->dtype)) +
                                                ", this argument " + std::string(dtypeName(arg.dtype)));
            else if (src && src->output)
                check_.fail(path + "/from", "\"" + fill.from + "\" is an output");
            if (fill.fraction < 0 || fill.fraction > 1) check_.fail(path + "/fraction", "expected a value in [0, 1]");
            break;
        }
        case K::Constant:
            if (!f.contains("value")) check_.fail(path, "missing \"value\"");
            break;
        case K::Function:
            fill.function = check_.str(f, path, "function", true);
            if (!fill.function.empty() && !isIdentifier(fill.function))
                check_.fail(path + "/function", "expected a C function name");
            needsFillSource_ = true;
            break;
        }
    }

    void readCall(const json& root) {
        const json* call = check_.field(root, "", "call", json::value_t::array, true);
        if (!call) return;
        std::set<std::string> seen;
        for (std::size_t i = 0; i < call->size(); ++i) {
            const std::string path = "/call/" + std::to_string(i);
            if (!(*call)[i].is_string()) {
                check_.fail(path, "expected a name");
                continue;
            }
            const auto name = (*call)[i].get<std::string>();
            if (!declared_.count(name) ||
                (!spec_.findArgument(name) && !spec_.findScalar(name) &&
                 std::find(spec_.sizes.begin(), spec_.sizes.end(), name) == spec_.sizes.end() &&
                 std::find(spec_.derivedSizes.begin(), spec_.derivedSizes.end(), name) == spec_.derivedSizes.end()))
                check_.fail(path, "\"" + name + "\" is not an argument, scalar or size of this problem");
            if (!seen.insert(name).second) check_.fail(path, "\"" + name + "\" appears twice");
            spec_.call.push_back(name);
        }
        for (const auto& a : spec_.arguments)
            if (!a.name.empty() && !seen.count(a.name))
                check_.fail("/call", "argument \"" + a.name + "\" is not passed to the kernel; add it to \"call\"");
    }

    void readShapeList(const json& shapes, const char* key, std::vector<ShapeCase>& out) {
        const std::string path = std::string("/shapes/") + key;
        const json* list = check_.field(shapes, "/shapes", key, json::value_t::array, true);
        if (!list) return;
        if (list->empty()) check_.fail(path, "expected at least one shape");
        for (std::size_t i = 0; i < list->size(); ++i) {
            const std::string p = path + "/" + std::to_string(i);
            const auto& s = (*list)[i];
            if (!s.is_object()) {
                check_.fail(p, "expected {\"name\": ..., \"sizes\": {...}}");
                continue;
            }
            ShapeCase c;
            c.name = check_.str(s, p, "name", false, std::string(key) + std::to_string(i));
            if (const json* sizes = check_.field(s, p, "sizes", json::value_t::object, true)) {
                for (auto it = sizes->begin(); it != sizes->end(); ++it) {
                    if (std::find(spec_.sizes.begin(), spec_.sizes.end(), it.key()) == spec_.sizes.end()) {
                        check_.fail(p + "/sizes/" + it.key(), "\"" + it.key() + "\" is not a declared size (declared: " +
                                                                  listKnown({spec_.sizes.begin(), spec_.sizes.end()}) + ")");
                        continue;
                    }
                    if (!it->is_number_integer() || it->get<long long>() < 0) {
                        check_.fail(p + "/sizes/" + it.key(), "expected a non-negative integer");
                        continue;
                    }
                    c.sizes[it.key()] = it->get<long long>();
                }
                for (const auto& name : spec_.sizes)
                    if (!sizes->contains(name)) check_.fail(p + "/sizes", "size \"" + name + "\" is not given");
            }
            validateDims(c, p);
            out.push_back(std::move(c));
        }
    }

    // Dimensions that depend only on declared sizes must evaluate to >= 0 for every case.
    // Their product, in bytes, must fit in 64 bits (an overflow would wrap to a
    // small or zero buffer that every kernel "fills").
    void validateDims(const ShapeCase& c, const std::string& path) {
        for (const auto& a : spec_.arguments) {
            long long bytes = static_cast<long long>(problem::dtypeSize(a.dtype));
            bool known = true;
            for (const auto& dim : a.shape) {
                bool derived = false;
                for (const auto& n : dim.names()) derived = derived || !c.sizes.count(n);
                if (derived) {
                    known = false;
                    continue;
                }
                auto v = dim.evaluateInt(c.sizes);
                if (!v) {
                    check_.fail(path, "argument " + a.name + ": " + v.error().message);
                    known = false;
                } else if (*v < 0) {
                    check_.fail(path, "argument " + a.name + ": dimension \"" + dim.text() + "\" is negative (" +
                                          std::to_string(*v) + ")");
                    known = false;
                } else if (known && __builtin_mul_overflow(bytes, *v, &bytes)) {
                    check_.fail(path, "argument " + a.name + ": its size in bytes overflows a 64-bit integer; use smaller sizes");
                    known = false;
                }
            }
        }
    }

    void readShapes(const json& root) {
        const json* shapes = check_.field(root, "", "shapes", json::value_t::object, true);
        if (!shapes) return;
        readShapeList(*shapes, "check", spec_.checkShapes);
        readShapeList(*shapes, "time", spec_.timeShapes);
    }

    void readTolerances(const json& root) {
        for (int d = 0; d <= static_cast<int>(DType::U64); ++d)
            spec_.tolerances[static_cast<DType>(d)] = defaultTolerance(static_cast<DType>(d));
        const json* tol = check_.field(root, "", "tolerance", json::value_t::object, false);
        if (!tol) return;
        for (auto it = tol->begin(); it != tol->end(); ++it) {
            const std::string p = "/tolerance/" + it.key();
            auto d = parseDType(it.key());
            if (!d) {
                check_.fail(p, "unknown dtype (known: " + std::string(knownDTypes()) + ")");
                continue;
            }
            if (!it->is_object()) {
                check_.fail(p, "expected {\"rtol\": x, \"atol\": y}");
                continue;
            }
            Tolerance t;
            t.rtol = check_.num(*it, p, "rtol", true);
            t.atol = check_.num(*it, p, "atol", true);
            if (t.rtol < 0 || t.atol < 0) check_.fail(p, "tolerances must be non-negative");
            if (!isFloating(*d) && (t.rtol != 0 || t.atol != 0))
                check_.fail(p, "integer outputs compare exactly; remove this entry");
            spec_.tolerances[*d] = t;
        }
    }

    void readTensorTolerances(const json& root) {
        spec_.tensorTolerances = defaultTensorTolerances();
        const json* tol = check_.field(root, "", "tolerance", json::value_t::object, false);
        if (!tol) return;
        for (auto it = tol->begin(); it != tol->end(); ++it) {
            const std::string p = "/tolerance/" + it.key();
            if (!spec_.tensorTolerances.count(it.key())) {
                check_.fail(p, "unknown dtype for a torch problem (known: f32, f64, f16, bf16; integer outputs compare exactly)");
                continue;
            }
            if (!it->is_object()) {
                check_.fail(p, "expected {\"rtol\": x, \"atol\": y}");
                continue;
            }
            Tolerance t;
            t.rtol = check_.num(*it, p, "rtol", true);
            t.atol = check_.num(*it, p, "atol", true);
            if (t.rtol < 0 || t.atol < 0) check_.fail(p, "tolerances must be non-negative");
            spec_.tensorTolerances[it.key()] = t;
        }
    }

    void readPolicy(const json& root) {
        const bool linksALibrary =
            std::any_of(spec_.baselines.begin(), spec_.baselines.end(), [](const SourceFile& b) { return !b.linkFlags.empty(); });
        spec_.policy = spec_.backend == Backend::Torch || linksALibrary ? CodePolicy::Library : CodePolicy::OwnCode;
        const std::string text = check_.str(root, "", "policy", false);
        if (text.empty()) return;
        if (const auto parsed = parseCodePolicy(text))
            spec_.policy = *parsed;
        else
            check_.fail("/policy", "expected \"library\" (a candidate may call libraries; time the ones it would call as "
                                   "baselines) or \"own_code\" (its own code only), found \"" +
                                       text + "\"");
    }

    void readForbidden(const json& root) {
        const json* list = check_.field(root, "", "forbidden", json::value_t::array, false);
        if (!list) return;
        for (std::size_t i = 0; i < list->size(); ++i) {
            const auto& v = (*list)[i];
            if (!v.is_string() || v.get<std::string>().empty()) {
                check_.fail("/forbidden/" + std::to_string(i), "expected a non-empty string (text a candidate must not contain)");
                continue;
            }
            spec_.forbidden.push_back(v.get<std::string>());
        }
        for (const auto& seed : spec_.seeds)
            for (const auto& f : spec_.forbidden)
                if (seed.text.find(f) != std::string::npos)
                    check_.fail("/seeds", "seed " + seed.name + " contains the forbidden \"" + f + "\"");
    }

    // The reference must be a KernelBench module; seeds must define ModelNew.
    void checkPythonSources() {
        if (!spec_.reference.text.empty()) {
            for (const char* what : {"Model", "get_inputs", "get_init_inputs"})
                if (!definesPython(spec_.reference.text, what))
                    check_.fail("/reference", spec_.reference.path.filename().string() + " defines no " + what +
                                                  " (a torch reference needs class Model, get_inputs() and get_init_inputs())");
            for (const auto& size : spec_.sizes)
                if (!assignsAtModuleLevel(spec_.reference.text, size))
                    check_.fail("/sizes", "size \"" + size + "\" is not a module-level variable of " +
                                              spec_.reference.path.filename().string() +
                                              " (the shape cases set it before get_inputs() runs)");
        }
        for (std::size_t i = 0; i < spec_.seeds.size(); ++i)
            if (!definesPython(spec_.seeds[i].text, "ModelNew"))
                check_.fail("/seeds/" + std::to_string(i), "seed " + spec_.seeds[i].name + " defines no class ModelNew");
        if (!spec_.baselines.empty())
            check_.fail(
                "/baselines",
                "a torch problem's baselines are eager PyTorch and torch.compile, measured in every job; remove this list");
    }

    void readFormulas(const json& root) {
        std::set<std::string> known(spec_.sizes.begin(), spec_.sizes.end());
        known.insert(spec_.derivedSizes.begin(), spec_.derivedSizes.end());
        if (root.contains("bytes"))
            spec_.bytes = expression(root["bytes"], "/bytes", known);
        else
            check_.fail("", "missing required field \"bytes\" (the bytes the operator must move, for the roofline)");
        if (root.contains("flops"))
            spec_.flops = expression(root["flops"], "/flops", known);
        else
            check_.fail("", "missing required field \"flops\" (use \"0\" for pure data movement)");
        if (root.contains("gathers")) spec_.gathers = expression(root["gathers"], "/gathers", known);
        spec_.bound = check_.str(root, "", "bound", false);
        if (!spec_.bound.empty() && spec_.bound != "memory" && spec_.bound != "compute" && spec_.bound != "latency")
            check_.fail("/bound",
                        "expected \"memory\", \"compute\" or \"latency\" (or leave it out to derive it from bytes and flops)");
    }

    std::optional<SourceFile> source(const json& entry, const std::string& path, const std::string& dfltName) {
        SourceFile s;
        std::string rel;
        if (entry.is_string()) {
            rel = entry.get<std::string>();
            s.name = dfltName;
        } else if (entry.is_object()) {
            rel = check_.str(entry, path, "source", true);
            s.name = check_.str(entry, path, "name", false, dfltName);
            for (const char* key : {"flags", "link"}) {
                if (const json* list = check_.field(entry, path, key, json::value_t::array, false))
                    for (const auto& v : *list) {
                        if (!v.is_string()) {
                            check_.fail(path + "/" + key, "expected strings");
                            continue;
                        }
                        (std::string(key) == "flags" ? s.extraFlags : s.linkFlags).push_back(v.get<std::string>());
                    }
            }
        } else {
            check_.fail(path, "expected a file name or {\"name\", \"source\"}");
            return std::nullopt;
        }
        if (rel.empty()) return std::nullopt;
        s.path = std::filesystem::absolute(dir_ / rel);
        auto text = readTextFile(s.path, kMaxSourceBytes);
        if (!text) {
            check_.fail(path, text.error().message);
            return std::nullopt;
        }
        s.text = *text;
        auto params = parseParamDeclarations(s.text, rel);
        if (!params) {
            check_.fail(path, params.error().message);
            return std::nullopt;
        }
        s.params = *params;
        return s;
    }

    void readSources(const json& root) {
        if (!root.contains("reference"))
            check_.fail("", "missing required field \"reference\" (the reference implementation's file)");
        else if (auto r = source(root["reference"], "/reference", "reference"))
            spec_.reference = *r;

        for (const char* key : {"baselines", "seeds"}) {
            const json* list = check_.field(root, "", key, json::value_t::array, false);
            if (!list) continue;
            std::set<std::string> names{"reference"};
            for (std::size_t i = 0; i < list->size(); ++i) {
                const std::string p = std::string("/") + key + "/" + std::to_string(i);
                auto s = source((*list)[i], p,
                                std::string(key) == "seeds" ? "seed" + std::to_string(i) : "baseline" + std::to_string(i));
                if (!s) continue;
                if (!isIdentifier(s->name)) check_.fail(p + "/name", "\"" + s->name + "\" is not an identifier");
                if (!names.insert(s->name).second) check_.fail(p + "/name", "name \"" + s->name + "\" is used twice");
                (std::string(key) == "seeds" ? spec_.seeds : spec_.baselines).push_back(std::move(*s));
            }
        }
        if (const json* compile = check_.field(root, "", "compile", json::value_t::object, false))
            if (const json* flags = check_.field(*compile, "/compile", "flags", json::value_t::array, false))
                for (const auto& f : *flags) {
                    if (f.is_string())
                        spec_.compileFlags.push_back(f.get<std::string>());
                    else
                        check_.fail("/compile/flags", "expected strings");
                }
        const bool cuda = spec_.backend == Backend::Cuda;
        if (spec_.compileFlags.empty())
            spec_.compileFlags =
                cuda ? std::vector<std::string>{"-O3"} : std::vector<std::string>{"-O3", "-march=native", "-fopenmp"};
        // An AVX2 target checked from an AVX-512 host (util/isa_cap.h); part
        // of the flags, so of every cache key too.
        if (spec_.backend == Backend::Cpp && capAtAvx2()) spec_.compileFlags.push_back("-mno-avx512f");
        if (cuda) {
            spec_.cudaArch = "sm_90";
            if (const json* compile = root.contains("compile") && root["compile"].is_object() ? &root["compile"] : nullptr)
                spec_.cudaArch = check_.str(*compile, "/compile", "arch", false, spec_.cudaArch);
            if (!isCudaArch(spec_.cudaArch))
                check_.fail("/compile/arch",
                            "expected a GPU architecture for nvcc -arch such as \"sm_90\" or \"sm_90a\", found \"" +
                                spec_.cudaArch + "\"");
        }

        const std::string fillSource = check_.str(root, "", "fill_source", false);
        if (!fillSource.empty()) {
            spec_.fillSource = std::filesystem::absolute(dir_ / fillSource);
            auto text = readTextFile(*spec_.fillSource, kMaxSourceBytes);
            if (!text)
                check_.fail("/fill_source", text.error().message);
            else
                spec_.fillSourceText = *text;
        } else if (needsFillSource_) {
            check_.fail("", "a \"function\" fill needs \"fill_source\": the C++ file that defines it");
        }
    }

    void readLimits(const json& root) {
        const json* limits = check_.field(root, "", "limits", json::value_t::object, false);
        if (!limits) return;
        auto& l = spec_.limits;
        l.callTimeoutS = check_.num(*limits, "/limits", "call_timeout_s", false, l.callTimeoutS);
        l.runTimeoutS = check_.num(*limits, "/limits", "run_timeout_s", false, l.runTimeoutS);
        l.compileTimeoutS = check_.num(*limits, "/limits", "compile_timeout_s", false, l.compileTimeoutS);
        l.implausibleSpeedup = check_.num(*limits, "/limits", "implausible_speedup", false, l.implausibleSpeedup);
        for (double v : {l.callTimeoutS, l.runTimeoutS, l.compileTimeoutS, l.implausibleSpeedup})
            if (!(v > 0)) check_.fail("/limits", "every limit must be positive");
        // Limits are written into the job's script and the judge's arithmetic:
        // a second count past a day (1e300) would overflow them, and the
        // candidate would be charged for the problem's mistake.
        const std::pair<const char*, double> bounded[] = {
            {"call_timeout_s", l.callTimeoutS}, {"run_timeout_s", l.runTimeoutS}, {"compile_timeout_s", l.compileTimeoutS}};
        for (const auto& [name, v] : bounded)
            if (v > kMaxLimitS)
                check_.fail(std::string("/limits/") + name,
                            "at most " + std::to_string(static_cast<int>(kMaxLimitS)) + " s (a day); give a shorter limit");
        if (l.implausibleSpeedup > 1e6) check_.fail("/limits/implausible_speedup", "at most 1e6");
    }

    // The judge's protocol carries at most 32 sizes a case (declared and
    // derived); more would be cut, and the candidate charged for what the
    // judge then got wrong.
    void checkSizeCount() {
        const std::size_t n = spec_.sizes.size() + spec_.derivedSizes.size();
        if (n > kMaxCaseSizes)
            check_.fail("/sizes", std::to_string(n) + " sizes (declared and defined by fills); at most " +
                                      std::to_string(kMaxCaseSizes) + ": merge some, or pass them as scalars");
    }

    void declare(const std::string& name, const std::string& path) {
        if (const auto why = reservedNameReason(name); !why.empty() && isIdentifier(name)) check_.fail(path, why + "; rename it");
        if (!declared_.insert(name).second)
            check_.fail(path, "the name \"" + name + "\" is already used by another size, scalar or argument");
    }

    std::string hashContent() const {
        Sha256 h;
        h.addField(text_);
        h.addField(spec_.reference.text);
        for (const auto& b : spec_.baselines) h.addField(b.name).addField(b.text);
        h.addField(spec_.fillSourceText);
        for (const auto& f : spec_.forbidden) h.addField(f);
        return h.hexDigest();
    }

    std::filesystem::path dir_;
    std::string text_;
    Checker check_;
    ProblemSpec spec_;
    std::set<std::string> declared_;
    bool needsFillSource_ = false;
};

} // namespace

Result<ProblemSpec> loadProblem(const std::filesystem::path& dir) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec))
        return makeError(ErrorCode::NotFound, dir.string() + ": not a directory (a problem is a folder holding problem.json)");
    auto text = readTextFile(dir / "problem.json", kMaxSourceBytes);
    if (!text)
        return makeError(ErrorCode::NotFound,
                         (dir / "problem.json").string() + ": missing (a problem folder needs a problem.json)");
    auto spec = Loader(dir, *text).run();
    if (!spec) log::problem()->info("problem {} rejected", dir.string());
    return spec;
}

std::vector<std::filesystem::path> findProblemDirs(const std::filesystem::path& root) {
    std::vector<std::filesystem::path> dirs;
    std::error_code ec;
    if (!std::filesystem::is_directory(root, ec)) return dirs;
    for (auto it = std::filesystem::recursive_directory_iterator(root, ec); it != std::filesystem::recursive_directory_iterator();
         it.increment(ec)) {
        if (ec) break;
        if (it->is_regular_file(ec) && it->path().filename() == "problem.json") dirs.push_back(it->path().parent_path());
    }
    std::sort(dirs.begin(), dirs.end());
    return dirs;
}

} // namespace kw::problem
