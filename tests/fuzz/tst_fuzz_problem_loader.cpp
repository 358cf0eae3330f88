// Fuzzes the problem loader (core/problem/problem_loader.*) with problem
// folders written to a temporary folder: the bundled problems, mutated as
// bytes, as JSON structure (keys dropped, types swapped, huge arrays, deep
// nesting), in the sources they name, and in those sources' paths. Each load
// must give a spec or an error naming the folder, never a crash, hang or an
// escaping exception.
#include "fuzz_engine.h"
#include "problem/problem_loader.h"
#include "problem_bundle.h"
#include "test_support.h"

#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <nlohmann/json.hpp>

#include <limits>

using nlohmann::json;
namespace fz = kw::fuzz;

namespace {

const std::vector<std::string>& keys() {
    static const std::vector<std::string> k{"name",
                                            "title",
                                            "description",
                                            "backend",
                                            "function",
                                            "sizes",
                                            "scalars",
                                            "arguments",
                                            "dtype",
                                            "value",
                                            "shape",
                                            "output",
                                            "fill",
                                            "kind",
                                            "low",
                                            "high",
                                            "mean",
                                            "std",
                                            "fraction",
                                            "empty_fraction",
                                            "distinct",
                                            "min_length",
                                            "max_length",
                                            "total",
                                            "from",
                                            "call",
                                            "shapes",
                                            "check",
                                            "time",
                                            "tolerance",
                                            "rtol",
                                            "atol",
                                            "forbidden",
                                            "bytes",
                                            "flops",
                                            "bound",
                                            "reference",
                                            "baselines",
                                            "seeds",
                                            "source",
                                            "flags",
                                            "link",
                                            "compile",
                                            "arch",
                                            "fill_source",
                                            "limits",
                                            "call_timeout_s",
                                            "run_timeout_s",
                                            "compile_timeout_s",
                                            "implausible_speedup"};
    return k;
}

// Strings the loader gives meaning to, and hostile ones.
const std::vector<std::string>& strings() {
    static const std::vector<std::string> s = [] {
        std::vector<std::string> v{"",
                                   "N",
                                   "M",
                                   "x",
                                   "y",
                                   "kw_x",
                                   "KW_SEEDS",
                                   "int",
                                   "main",
                                   "__x",
                                   "_",
                                   "Model",
                                   "N*N",
                                   "N/0",
                                   "-N",
                                   "N - 1000",
                                   "9223372036854775807*N",
                                   "((((N))))",
                                   "min(N,",
                                   "ceil_div(N, 0)",
                                   "f32",
                                   "f64",
                                   "f16",
                                   "bf16",
                                   "i8",
                                   "i32",
                                   "i64",
                                   "u8",
                                   "u64",
                                   "bool",
                                   "F32",
                                   "uniform",
                                   "normal",
                                   "int_range",
                                   "sorted_uniform",
                                   "sorted_int_range",
                                   "lengths",
                                   "offsets",
                                   "sample_from",
                                   "constant",
                                   "function",
                                   "cpp",
                                   "cuda",
                                   "torch",
                                   "fortran",
                                   "memory",
                                   "compute",
                                   "latency",
                                   "sm_90",
                                   "sm_90a",
                                   "native",
                                   "reference.cpp",
                                   "reference.py",
                                   "reference.cu",
                                   "/dev/zero",
                                   "/",
                                   ".",
                                   "..",
                                   "../../../../etc/passwd",
                                   "/proc/self/status",
                                   "nonexistent.cpp",
                                   "seeds",
                                   "a/b/c.cpp",
                                   "\xc3\xa9.cpp",
                                   "-O3",
                                   "-lopenblas",
                                   "torch.relu",
                                   "\xff\xfe",
                                   std::string("a\0b", 3),
                                   "a\nb",
                                   "\x1b[31m"};
        for (std::size_t n : {300u, 5000u, 100000u}) {
            v.push_back(std::string(n, 'a'));
            v.push_back("sm_" + std::string(n, '9'));
            v.push_back(std::string(n, '(') + "N" + std::string(n, ')'));
        }
        return v;
    }();
    return s;
}

json interestingNumber(fz::Rng& rng) {
    switch (rng.below(12)) {
    case 0:
        return std::numeric_limits<std::int64_t>::min();
    case 1:
        return std::numeric_limits<std::int64_t>::max();
    case 2:
        return std::numeric_limits<std::uint64_t>::max();
    case 3:
        return -1;
    case 4:
        return 0;
    case 5:
        return 1e308;
    case 6:
        return -0.0;
    case 7:
        return 0.5;
    case 8:
        return (1LL << 53) + 1;
    case 9:
        return 3037000500LL;
    case 10:
        return -1e-300;
    default:
        return static_cast<std::int64_t>(rng.next() >> rng.below(64));
    }
}

json randomValue(fz::Rng& rng) {
    switch (rng.below(9)) {
    case 0:
        return nullptr;
    case 1:
        return rng.chance(1, 2);
    case 2:
    case 3:
        return interestingNumber(rng);
    case 4:
    case 5:
        return rng.pick(strings());
    case 6:
        return json::array();
    case 7:
        return json::object();
    default:
        return json::array({rng.pick(strings()), rng.pick(strings())});
    }
}

void collect(json& j, std::vector<json*>& out, int depth) {
    if (out.size() >= 20000) return;
    out.push_back(&j);
    if (depth < 64 && j.is_structured())
        for (auto& c : j) collect(c, out, depth + 1);
}

// How deep brackets nest outside strings (nlohmann's copy and dump recurse).
std::size_t nesting(const std::string& text) {
    std::size_t depth = 0, most = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"')
            inString = true;
        else if (c == '[' || c == '{')
            most = std::max(most, ++depth);
        else if ((c == ']' || c == '}') && depth > 0)
            --depth;
    }
    return most;
}

// Structural mutations of problem.json; nullopt when it is not JSON (or too
// deep for our own recursive walks).
std::optional<std::string> mutateStructure(fz::Rng& rng, const std::string& text) {
    if (nesting(text) > 200) return std::nullopt;
    json root = json::parse(text, nullptr, false);
    if (root.is_discarded()) return std::nullopt;
    const std::string nestMark = "kw-fuzz-nest-8d2f";
    std::string nestOpen, nestClose;
    for (std::size_t round = 0, rounds = 1 + rng.below(4); round < rounds; ++round) {
        std::vector<json*> nodes;
        collect(root, nodes, 0);
        json& n = *nodes[rng.below(nodes.size())];
        switch (rng.below(10)) {
        case 0: // drop a key or an element
            if (n.is_object() && !n.empty())
                n.erase(std::string(std::next(n.begin(), static_cast<long>(rng.below(n.size()))).key()));
            else if (n.is_array() && !n.empty())
                n.erase(rng.below(n.size()));
            break;
        case 1:
            n = randomValue(rng);
            break;
        case 2: { // a huge array
            const json element = n.dump(-1, ' ', false, json::error_handler_t::replace).size() < 200 ? n : randomValue(rng);
            n = json::array();
            const std::size_t fit = (4u << 20) / (element.dump(-1, ' ', false, json::error_handler_t::replace).size() + 1);
            for (std::size_t i = 0, count = std::min(rng.skewed(100000), fit); i < count; ++i) n.push_back(element);
            break;
        }
        case 3: // deep nesting, spliced in as text so our own dump() does not recurse
            if (nestOpen.empty()) {
                const bool arrays = rng.chance(1, 2);
                const std::size_t depth = 1 + rng.skewed(200000);
                for (std::size_t i = 0; i < depth; ++i) {
                    nestOpen += arrays ? "[" : "{\"a\":";
                    nestClose += arrays ? "]" : "}";
                }
                n = nestMark;
            }
            break;
        case 4: // rename a key
            if (n.is_object() && !n.empty()) {
                const std::string key = std::next(n.begin(), static_cast<long>(rng.below(n.size()))).key();
                json v = n[key];
                n.erase(key);
                n[rng.chance(3, 4) ? rng.pick(keys()) : rng.pick(strings())] = std::move(v);
            }
            break;
        case 5: // duplicate elements
            if (n.is_array() && !n.empty()) {
                const json element = n[rng.below(n.size())];
                for (std::size_t i = 0, count = 1 + rng.skewed(64); i < count; ++i) n.push_back(element);
            }
            break;
        case 6:
            n = rng.pick(strings());
            break;
        case 7:
            n = interestingNumber(rng);
            break;
        case 8:
            if (n.is_object()) n[rng.pick(keys())] = randomValue(rng);
            break;
        default:
            n = *nodes[rng.below(nodes.size())];
            break; // copy a subtree (a copy: it may alias n)
        }
    }
    std::string out = root.dump(rng.chance(1, 2) ? 2 : -1, ' ', false, json::error_handler_t::replace);
    if (const auto at = out.find("\"" + nestMark + "\""); at != std::string::npos)
        out.replace(at, nestMark.size() + 2, nestOpen + "null" + nestClose);
    if (out.size() > (5u << 20)) return std::nullopt; // the loader refuses more than 4 MiB; a little past is enough
    return out;
}

std::vector<std::string> sourceTokens() {
    auto t = fz::commonTokens();
    for (const char* s : {"// @kw-param BLOCK: 1 | 2 | 4 = 2\n",
                          "// @kw-param X: 0..9223372036854775807\n",
                          "// @kw-param X: -9223372036854775808..9223372036854775807\n",
                          "// @kw-param X: 99999999999999999999..1\n",
                          "// @kw-param X: 1 | 99999999999999999999\n",
                          "// @kw-param X: 9223372036854775800..9223372036854775807\n",
                          "// @kw-param X: -9223372036854775808..-9223372036854775800\n",
                          "// @kw-param X:\n",
                          "// @kw-param E: enum(a, b, c) = b\n",
                          "// @kw-param B: bool\n",
                          "# @kw-param T: 1..3 = 4\n",
                          "@kw-param",
                          ": ",
                          "..",
                          " | ",
                          "enum(",
                          "enum()",
                          "bool",
                          " = ",
                          "\n",
                          "class ModelNew",
                          "class Model",
                          "def get_inputs",
                          "def get_init_inputs",
                          "\nN = 4\n",
                          "extern \"C\""})
        t.emplace_back(s);
    return t;
}

std::vector<std::string> pathTokens() {
    return {"r.cpp",
            "\xc3\xa9\xe2\x82\xac.cpp",
            "a b.cpp",
            "-x.cpp",
            "deep/er/path/k.cpp",
            std::string(300, 'p') + ".cpp",
            std::string(5000, 'q'),
            "..",
            ".",
            "./r.cpp",
            "\xff.cpp",
            "s\\r.cpp"};
}

class LoaderFuzzer {
  public:
    explicit LoaderFuzzer(std::filesystem::path caseDir) : caseDir_(std::move(caseDir)) {}

    std::string mutate(fz::Rng& rng, const std::string& parent, const std::vector<std::string>& corpus) const {
        auto b = fz::Bundle::parse(parent);
        auto* problem = b.find("problem.json");
        const std::size_t strategy = rng.below(100);
        if (problem && problem->kind == 'F' && strategy < 35) {
            problem->data = jsonBytes_.mutate(rng, problem->data, {});
        } else if (problem && problem->kind == 'F' && strategy < 70) {
            if (auto s = mutateStructure(rng, problem->data))
                problem->data = *s;
            else
                problem->data = jsonBytes_.mutate(rng, problem->data, {});
        } else if (strategy < 85) {
            mutateSource(rng, b);
        } else if (strategy < 95) {
            mutatePaths(rng, b);
        } else if (!corpus.empty()) { // splice: another problem's problem.json or a source of it
            auto other = fz::Bundle::parse(rng.pick(corpus));
            if (!other.entries.empty()) {
                const auto& e = rng.pick(other.entries);
                if (auto* mine = b.find(e.path))
                    *mine = e;
                else
                    b.entries.push_back(e);
            }
        }
        return b.serialize();
    }

    fz::Outcome execute(const std::string& input) const {
        fz::Bundle::parse(input).writeTo(caseDir_);
        fz::Outcome out;
        const auto spec = kw::problem::loadProblem(caseDir_);
        if (fz::hashBytes(input) % 4 == 0) { // loading twice gives the same answer
            const auto again = kw::problem::loadProblem(caseDir_);
            if (again.ok() != spec.ok() ||
                (spec.ok() ? again->contentHash != spec->contentHash : again.error().message != spec.error().message))
                out.failure = "loading twice gave different results";
        }
        if (!spec) {
            const auto& m = spec.error().message;
            if (m.rfind(caseDir_.string(), 0) != 0)
                out.failure = "the error does not start with the problem folder: " + m.substr(0, 200);
            out.signature = std::to_string(static_cast<int>(spec.error().code)) + ":" + fz::normalizeMessage(withoutDir(m));
            return out;
        }
        if (spec->contentHash.size() != 64) out.failure = "content hash is not a SHA-256";
        if (spec->backend != kw::problem::Backend::Torch) (void)spec->prototype();
        // What the loader promises about shapes: dimensions over declared
        // sizes evaluate, to non-negative values, for every shape case.
        for (const auto* cases : {&spec->checkShapes, &spec->timeShapes})
            for (const auto& c : *cases)
                for (const auto& a : spec->arguments)
                    for (const auto& dim : a.shape) {
                        bool declared = true;
                        for (const auto& n : dim.names()) declared = declared && c.sizes.count(n);
                        if (!declared) continue;
                        const auto v = dim.evaluateInt(c.sizes);
                        if (!v || *v < 0)
                            out.failure = "accepted shape case " + c.name + " has dimension \"" + dim.text() +
                                          "\" = " + (v ? std::to_string(*v) : v.error().message);
                    }
        out.signature = "ok:" + std::string(kw::problem::backendName(spec->backend));
        return out;
    }

  private:
    std::string withoutDir(const std::string& m) const {
        const std::string dir = caseDir_.string();
        std::string out;
        std::size_t from = 0;
        for (std::size_t at; (at = m.find(dir, from)) != std::string::npos; from = at + dir.size())
            out.append(m, from, at - from) += "<dir>";
        return out.append(m, from);
    }

    void mutateSource(fz::Rng& rng, fz::Bundle& b) const {
        std::vector<fz::BundleEntry*> sources;
        for (auto& e : b.entries)
            if (e.kind == 'F' && e.path != "problem.json") sources.push_back(&e);
        if (sources.empty()) return;
        auto& src = *sources[rng.below(sources.size())];
        if (rng.chance(1, 50)) { // grow to about the 4 MiB limit
            const std::size_t target = (3u << 20) + rng.below(2u << 20);
            const std::string unit = src.data.empty() ? std::string("\n") : src.data;
            while (src.data.size() < target) src.data += unit;
            return;
        }
        src.data = sourceBytes_.mutate(rng, src.data, {});
    }

    // Renames, replaces with a folder or a symlink, or deletes one entry,
    // renaming the references in problem.json along with it.
    void mutatePaths(fz::Rng& rng, fz::Bundle& b) const {
        if (b.entries.empty()) return;
        auto& e = b.entries[rng.below(b.entries.size())];
        auto* problem = b.find("problem.json");
        switch (rng.below(5)) {
        case 0:
        case 1: {
            const std::string renamed = rng.chance(1, 2) ? rng.pick(paths_) : e.path + rng.pick(paths_);
            if (problem && &e != problem) {
                std::string& t = problem->data;
                for (std::size_t at = 0; (at = t.find("\"" + e.path + "\"", at)) != std::string::npos; at += renamed.size() + 2)
                    t.replace(at + 1, e.path.size(), renamed);
            }
            e.path = renamed;
            break;
        }
        case 2:
            e.kind = 'D';
            e.data.clear();
            break;
        case 3: {
            static const std::vector<std::string> targets{"/dev/zero", "/dev/null", "/etc/passwd", "/proc/self/status", "/",
                                                          ".",         "loop",      "nonexistent", "../../../../../../"};
            e.kind = 'L';
            e.data = rng.pick(targets);
            if (e.data == "loop") e.data = std::filesystem::path(e.path).filename().string(); // points at itself
            break;
        }
        default:
            b.entries.erase(b.entries.begin() + (&e - b.entries.data()));
            break;
        }
    }

    std::filesystem::path caseDir_;
    fz::Mutator jsonBytes_{[] {
                               auto t = fz::commonTokens();
                               for (const char* s :
                                    {"{", "}", "[", "]", ":", ",", "\"", "null", "true", "false", "{}", "[]", "\"\"", "[[[[[[[[",
                                     "{\"a\":{\"a\":", "\"\\u0000\"", "\"\\ud800\"", "1e99999"})
                                   t.emplace_back(s);
                               for (const auto& k : keys()) t.push_back("\"" + k + "\": ");
                               for (const auto& s : strings())
                                   if (s.size() < 100) t.push_back("\"" + s + "\"");
                               return t;
                           }(),
                           5u << 20};
    fz::Mutator sourceBytes_{sourceTokens(), 5u << 20};
    std::vector<std::string> paths_ = pathTokens();
};

std::vector<std::string> seedCorpus() {
    std::vector<std::string> corpus;
    for (const auto& root : {kw::test::bundledProblemsDir(), kw::test::dataDir() / "problems"})
        for (const auto& dir : kw::problem::findProblemDirs(root)) corpus.push_back(fz::Bundle::fromFolder(dir).serialize());
    return corpus;
}

} // namespace

class TestFuzzProblemLoader : public QObject {
    Q_OBJECT
  private slots:
    // The corpus is only useful if the bundled problems, written back out, load.
    void bundledProblemsSurviveTheRoundTrip() {
        QTemporaryDir tmp;
        const std::filesystem::path caseDir = std::filesystem::path(tmp.path().toStdString()) / "case";
        const auto dirs = kw::problem::findProblemDirs(kw::test::bundledProblemsDir());
        QVERIFY(dirs.size() >= 10);
        for (const auto& dir : dirs) {
            fz::Bundle::parse(fz::Bundle::fromFolder(dir).serialize()).writeTo(caseDir);
            const auto spec = kw::problem::loadProblem(caseDir);
            QVERIFY2(spec.ok(), (dir.string() + ": " + (spec.ok() ? "" : spec.error().message)).c_str());
        }
    }
    void loadNeverCrashes() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const LoaderFuzzer fuzzer(std::filesystem::path(tmp.path().toStdString()) / "case");
        fz::Driver driver("problem_loader", fz::Options::fromEnvironment(6000));
        const auto report = driver.run(
            seedCorpus(),
            [&](fz::Rng& rng, const std::string& parent, const std::vector<std::string>& corpus) {
                return fuzzer.mutate(rng, parent, corpus);
            },
            [&](const std::string& input) { return fuzzer.execute(input); });
        QVERIFY(report.iterations > 0);
        for (const auto& f : report.failures) qWarning("%s", f.c_str());
        QVERIFY2(report.failures.empty(), report.failures.empty() ? "" : report.failures.front().c_str());
    }
};

int main(int argc, char** argv) {
    kw::fuzz::allowLongRuns();
    TestFuzzProblemLoader test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_fuzz_problem_loader.moc"
