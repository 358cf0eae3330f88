#include "eval/embedded_templates.h"
#include "problem/problem_loader.h"
#include "test_support.h"
#include "util/isa_cap.h"

#include <QtCore/QTemporaryDir>

#include <QtTest/QtTest>
#include <nlohmann/json.hpp>

#include <fstream>
#include <regex>
#include <sstream>

using namespace kw::problem;

namespace {
bool contains(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}
} // namespace

class TestProblemLoader : public QObject {
    Q_OBJECT
  private slots:
    void loadsAValidProblem() {
        auto spec = loadProblem(kw::test::problemDir("saxpy"));
        QVERIFY2(spec.ok(), spec.ok() ? "" : spec.error().message.c_str());
        QCOMPARE(spec->name, std::string("saxpy"));
        QCOMPARE(spec->arguments.size(), std::size_t{3});
        QVERIFY(spec->arguments[2].output);
        QCOMPARE(spec->prototype(), std::string("void saxpy(const float* x, const float* z, float* y, int64_t N, float a)"));
        QCOMPARE(spec->checkShapes.size(), std::size_t{3});
        QCOMPARE(spec->checkShapes[1].sizes.at("N"), 37LL);
        QCOMPARE(spec->tolerances.at(DType::F32).rtol, 1e-6);
        QCOMPARE(spec->tolerances.at(DType::I64).rtol, 0.0);
        QCOMPARE(spec->seeds.size(), std::size_t{1});
        QCOMPARE(spec->seeds[0].params.size(), std::uint64_t{4});
        std::vector<std::string> flags{"-O3", "-march=native", "-fopenmp"};
        if (kw::capAtAvx2()) flags.push_back("-mno-avx512f"); // KW_MAX_ISA=avx2: an AVX2-only target
        QCOMPARE(spec->compileFlags, flags);
        QCOMPARE(spec->contentHash.size(), std::size_t{64});
        QCOMPARE(*spec->bytes->evaluate({{"N", 10}}), 120.0);
    }
    void malformedJsonGivesLineAndColumn() {
        auto spec = loadProblem(kw::test::problemDir("bad_json"));
        QVERIFY(!spec.ok());
        QCOMPARE(spec.error().code, kw::ErrorCode::ParseError);
        QVERIFY2(contains(spec.error().message, "problem.json:4:"), spec.error().message.c_str());
        QVERIFY(contains(spec.error().message, "not valid JSON"));
    }
    void schemaErrorsAreAllListedWithPaths() {
        auto spec = loadProblem(kw::test::problemDir("bad_schema"));
        QVERIFY(!spec.ok());
        const auto& m = spec.error().message;
        for (const char* expected : {"/name:", "/backend: expected \"cpp\", \"cuda\" or \"torch\", found \"fortran\"",
                                     "/arguments/0/dtype: unknown dtype \"f16\"", "/arguments/1/shape/0: unknown size 'K'",
                                     "/shapes/check/0/sizes/N: expected a non-negative integer",
                                     "/shapes/time: expected at least one shape", "/flops: bad expression \"N +\""})
            QVERIFY2(contains(m, expected), (std::string("missing: ") + expected + "\nin:\n" + m).c_str());
    }
    void missingFilesAreNamed() {
        auto spec = loadProblem(kw::test::problemDir("missing_reference"));
        QVERIFY(!spec.ok());
        QVERIFY(contains(spec.error().message, "/reference:"));
        QVERIFY(contains(spec.error().message, "does_not_exist.cpp: no such file"));
        auto none = loadProblem(kw::test::problemDir("no_such_problem"));
        QVERIFY(!none.ok());
        QCOMPARE(none.error().code, kw::ErrorCode::NotFound);
    }
    void rejectsInconsistentDeclarations() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString());
        std::ofstream(path / "reference.cpp") << "void f(const float* x, float* y, int64_t N) {}\n";
        std::ofstream(path / "problem.json") << R"({
          "name": "p", "description": "d", "backend": "cpp", "function": "f", "sizes": ["N", "N"],
          "arguments": [
            {"name": "x", "dtype": "i32", "shape": ["N"], "fill": {"kind": "uniform", "low": 0, "high": 1}},
            {"name": "o", "dtype": "f32", "shape": ["N"], "fill": {"kind": "sample_from", "from": "later"}},
            {"name": "y", "dtype": "f32", "shape": ["N"]}
          ],
          "call": ["x", "y", "N", "ghost"],
          "shapes": {"check": [{"sizes": {"N": 1, "M": 2}}], "time": [{"sizes": {}}]},
          "bytes": "N", "flops": "0", "bound": "bandwidth", "reference": "reference.cpp"})";
        auto spec = loadProblem(path);
        QVERIFY(!spec.ok());
        const auto& m = spec.error().message;
        for (const char* expected :
             {"/sizes/1: the name \"N\" is already used", "/arguments/0/fill/kind: \"uniform\" fills floats",
              "/arguments/1/fill/from: \"later\" is not an argument declared before this one",
              "/arguments: no argument is marked \"output\": true", "/call/3: \"ghost\" is not an argument",
              "argument \"o\" is not passed to the kernel", "/shapes/check/0/sizes/M: \"M\" is not a declared size",
              "/shapes/time/0/sizes: size \"N\" is not given", "/bound: expected \"memory\", \"compute\" or \"latency\""})
            QVERIFY2(contains(m, expected), (std::string("missing: ") + expected + "\nin:\n" + m).c_str());
    }
    // Limits the job's script and the judge's protocol cannot carry are the
    // problem's mistake, said at load, never a candidate's failure later.
    void limitsAndSizeCountsTheJudgeCannotCarry() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString());
        std::ofstream(path / "reference.cpp") << "void f(const float* x, float* y, int64_t N) {}\n";
        const auto write = [&](int sizes, const nlohmann::json& limits) {
            nlohmann::json names = nlohmann::json::array(), given = nlohmann::json::object();
            for (int i = 0; i < sizes; ++i) {
                names.push_back("S" + std::to_string(i));
                given["S" + std::to_string(i)] = 1;
            }
            nlohmann::json j{
                {"name", "p"},
                {"description", "d"},
                {"backend", "cpp"},
                {"function", "f"},
                {"sizes", names},
                {"arguments",
                 {{{"name", "x"}, {"dtype", "f32"}, {"shape", {"S0"}}, {"fill", {{"kind", "uniform"}, {"low", 0}, {"high", 1}}}},
                  {{"name", "y"}, {"dtype", "f32"}, {"shape", {"S0"}}, {"output", true}}}},
                {"call", {"x", "y", "S0"}},
                {"shapes", {{"check", {{{"sizes", given}}}}, {"time", {{{"sizes", given}}}}}},
                {"bytes", "4"},
                {"flops", "0"},
                {"reference", "reference.cpp"}};
            if (!limits.is_null()) j["limits"] = limits;
            std::ofstream(path / "problem.json") << j.dump(2);
            return loadProblem(path);
        };
        QVERIFY2(write(32, nullptr).ok(), "32 sizes fit the protocol");
        auto many = write(33, nullptr);
        QVERIFY(!many.ok());
        QVERIFY2(contains(many.error().message, "/sizes: 33 sizes"), many.error().message.c_str());
        auto huge = write(1, {{"run_timeout_s", 1e300}});
        QVERIFY(!huge.ok());
        QVERIFY2(contains(huge.error().message, "/limits/run_timeout_s: at most 86400 s"), huge.error().message.c_str());
        QVERIFY(write(1, {{"run_timeout_s", 600}, {"call_timeout_s", 30}}).ok());
    }
    // What a candidate may call: stated in problem.json, or inferred (a
    // library baseline makes it "library"); a fill's domain is a range.
    void codePolicyAndDomains() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString());
        std::ofstream(path / "reference.cpp") << "void f(const float* x, float* y, int64_t N) {}\n";
        const auto write = [&](const nlohmann::json& policy, const nlohmann::json& domain) {
            nlohmann::json fill{{"kind", "uniform"}, {"low", 0}, {"high", 1}};
            if (!domain.is_null()) fill["domain"] = domain;
            nlohmann::json j{{"name", "p"},
                             {"description", "d"},
                             {"backend", "cpp"},
                             {"function", "f"},
                             {"sizes", {"N"}},
                             {"arguments",
                              {{{"name", "x"}, {"dtype", "f32"}, {"shape", {"N"}}, {"fill", fill}},
                               {{"name", "y"}, {"dtype", "f32"}, {"shape", {"N"}}, {"output", true}}}},
                             {"call", {"x", "y", "N"}},
                             {"shapes", {{"check", {{{"sizes", {{"N", 1}}}}}}, {"time", {{{"sizes", {{"N", 1}}}}}}}},
                             {"bytes", "4"},
                             {"flops", "0"},
                             {"reference", "reference.cpp"}};
            if (!policy.is_null()) j["policy"] = policy;
            std::ofstream(path / "problem.json") << j.dump(2);
            return loadProblem(path);
        };
        auto plain = write(nullptr, nullptr);
        QVERIFY2(plain.ok(), plain.ok() ? "" : plain.error().message.c_str());
        QCOMPARE(plain->policy, CodePolicy::OwnCode); // no library baseline: nothing else is timed
        QVERIFY(!plain->arguments[0].fill.domain);
        auto library = write("library", nlohmann::json::array({-100, 100}));
        QVERIFY2(library.ok(), library.ok() ? "" : library.error().message.c_str());
        QCOMPARE(library->policy, CodePolicy::Library);
        QCOMPARE(library->arguments[0].fill.domain->second, 100.0);
        auto typo = write("own-code", nullptr);
        QVERIFY(!typo.ok());
        QVERIFY2(contains(typo.error().message, "/policy: expected \"library\""), typo.error().message.c_str());
        auto reversed = write(nullptr, nlohmann::json::array({5, -5}));
        QVERIFY(!reversed.ok());
        QVERIFY2(contains(reversed.error().message, "/domain: expected [low, high]"), reversed.error().message.c_str());
        auto sgemm = loadProblem(kw::test::bundledProblemsDir() / "cpu" / "sgemm");
        QVERIFY(sgemm.ok());
        QCOMPARE(sgemm->policy, CodePolicy::Library); // its OpenBLAS baseline times what a candidate would call
    }
    // Hostile problem folders get messages, never hangs or crashes.
    void hostileProblemsAreRefused() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString());
        std::ofstream(path / "reference.cpp") << "void f(const float* x, float* y, int64_t N) {}\n";
        const auto write = [&](const std::string& function, const std::string& size, const std::string& reference, long long n) {
            const nlohmann::json j{
                {"name", "p"},
                {"description", "d"},
                {"backend", "cpp"},
                {"function", function},
                {"sizes", {size}},
                {"arguments",
                 {{{"name", "x"}, {"dtype", "f32"}, {"shape", {size}}, {"fill", {{"kind", "uniform"}, {"low", 0}, {"high", 1}}}},
                  {{"name", "y"}, {"dtype", "f64"}, {"shape", {size, size}}, {"output", true}}}},
                {"call", {"x", "y", size}},
                {"shapes", {{"check", {{{"sizes", {{size, n}}}}}}, {"time", {{{"sizes", {{size, 4}}}}}}}},
                {"bytes", "4"},
                {"flops", "0"},
                {"reference", reference}};
            std::ofstream(path / "problem.json") << j.dump(2);
        };
        // A shape whose bytes wrap around 64 bits.
        write("f", "N", "reference.cpp", 3037000500ll);
        auto spec = loadProblem(path);
        QVERIFY(!spec.ok());
        QVERIFY2(contains(spec.error().message, "overflows a 64-bit integer"), spec.error().message.c_str());
        // Names the generated harness uses itself, and keywords.
        for (const char* name : {"kw_c", "KW_SEEDS", "Rng", "int", "__x"}) {
            write("f", name, "reference.cpp", 8);
            spec = loadProblem(path);
            QVERIFY2(!spec.ok() && contains(spec.error().message, "rename it"), name);
        }
        write("main", "N", "reference.cpp", 8);
        QVERIFY(!loadProblem(path).ok());
        // Every function and type the shipped harness_common.h defines at its
        // top level, and the system headers' macros, are refused as names: the
        // list in the loader cannot fall behind the header.
        std::vector<std::string> names{"INT64_MAX", "UINTPTR_MAX", "UINT32_C",   "O_RDONLY",     "SIGKILL", "SIG_DFL",
                                       "EOF",       "PROT_READ",   "MAP_FAILED", "CUDA_VERSION", "M_PI",    "errno",
                                       "stderr",    "major",       "SIZE_MAX",   "EINVAL"};
        const std::string& common = kw::eval::embeddedTemplates().at("harness_common.h");
        const std::regex defined(
            R"(^(?:inline |static |template <[^>]*> )*[A-Za-z_][\w:<>, *&]* [*&]?(\w+)\(|^(?:struct|enum class|enum) (\w+))");
        std::istringstream lines(common);
        for (std::string line; std::getline(lines, line);) {
            std::smatch m;
            if (line.size() < 400 && std::regex_search(line, m, defined)) names.push_back(m[1].matched ? m[1].str() : m[2].str());
        }
        QVERIFY2(names.size() > 30, "found too few of harness_common.h's definitions");
        for (const auto& name : names) {
            write("f", name, "reference.cpp", 8);
            spec = loadProblem(path);
            QVERIFY2(!spec.ok() && contains(spec.error().message, "rename it"), name.c_str());
        }
        // Ordinary names that only look alike stay allowed.
        for (const char* name : {"N", "EMB", "SIGMA", "INTERVALS", "N_ROWS", "BLOCK", "M_TILE", "Oh", "minor_dim"}) {
            write("f", name, "reference.cpp", 8);
            spec = loadProblem(path);
            QVERIFY2(spec.ok(), (std::string(name) + ": " + (spec.ok() ? "" : spec.error().message)).c_str());
        }
        // A reference that is a device never ends; one that is too large is refused.
        write("f", "N", "/dev/zero", 8);
        spec = loadProblem(path);
        QVERIFY(!spec.ok());
        QVERIFY2(contains(spec.error().message, "not a regular file"), spec.error().message.c_str());
        std::ofstream(path / "huge.cpp") << std::string(5u << 20, ' ');
        write("f", "N", "huge.cpp", 8);
        spec = loadProblem(path);
        QVERIFY(!spec.ok());
        QVERIFY2(contains(spec.error().message, "larger than 4 MiB"), spec.error().message.c_str());
    }
    // Found by tst_fuzz_problem_loader: each was a crash, a hang or an
    // exception escaping loadProblem; each is now an error naming the file.
    void fuzzFindingsAreErrors() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString());
        nlohmann::json j = nlohmann::json::parse(R"({
          "name": "p", "description": "d", "backend": "cpp", "function": "f", "sizes": ["N"],
          "arguments": [{"name": "x", "dtype": "f32", "shape": ["N"], "fill": {"kind": "normal"}},
                        {"name": "y", "dtype": "f32", "shape": ["N"], "output": true}],
          "call": ["x", "y", "N"], "shapes": {"check": [{"sizes": {"N": 3}}], "time": [{"sizes": {"N": 8}}]},
          "bytes": "8*N", "flops": "N", "reference": "reference.cpp", "seeds": [{"name": "s", "source": "seed.cpp"}]})");
        const auto load = [&](const std::string& problemJson, const std::string& seed) {
            std::ofstream(path / "problem.json") << problemJson;
            std::ofstream(path / "reference.cpp") << "void f(const float* x, float* y, int64_t N) {}\n";
            std::ofstream(path / "seed.cpp") << seed;
            return loadProblem(path);
        };
        QVERIFY(load(j.dump(), "// @kw-param B: 1 | 2\n").ok());
        // A number too large for a double: nlohmann throws out_of_range, not parse_error.
        auto spec = load(R"({"name": "p", "bytes": 1e99999})", "");
        QVERIFY(!spec.ok());
        QCOMPARE(spec.error().code, kw::ErrorCode::ParseError);
        QVERIFY2(contains(spec.error().message, "problem.json:1:24: not valid JSON: number overflow parsing '1e99999'"),
                 spec.error().message.c_str());
        // A range of 2^64 values was listed value by value (a hang), a bound past
        // 64 bits threw std::out_of_range, an empty domain read an empty vector.
        for (const auto& [decl, expected] : std::vector<std::pair<std::string, std::string>>{
                 {"X: -9223372036854775808..9223372036854775807", "has more than 65536 values"},
                 {"X: 0..99999999999999999999", "has a bound outside 64-bit integers"},
                 {"X:", "X has no domain"},
                 {"X: 1 | 2" + std::string(2000, ' '), "longer than 1000 characters"}}) {
            spec = load(j.dump(), "// @kw-param " + decl + "\n");
            QVERIFY2(!spec.ok() && contains(spec.error().message, "seed.cpp:1: ") && contains(spec.error().message, expected),
                     (decl.substr(0, 60) + " -> " + (spec.ok() ? "ok" : spec.error().message)).c_str());
        }
        QVERIFY(load(j.dump(), "// @kw-param X: 1..65536\n").ok());
        spec = load(j.dump(), "// @kw-param X: 9223372036854775805..9223372036854775807\n");
        QVERIFY(spec.ok()); // listing its values stops at INT64_MAX instead of wrapping
        QCOMPARE(spec->seeds[0].params.params[0].values().size(), std::size_t{3});
        QCOMPARE(spec->seeds[0].params.params[0].cardinality(), std::size_t{3});
        // std::regex recursed once per character and overflowed the stack on
        // long names and long runs of blank lines.
        auto longName = j;
        longName["sizes"] = {std::string(200000, 'N')};
        spec = load(longName.dump(), "");
        QVERIFY(!spec.ok());
        longName = j;
        longName["name"] = std::string(200000, 'p');
        QVERIFY(load(longName.dump(), "").ok());
        longName["backend"] = "cuda";
        longName["compile"] = {{"arch", "sm_" + std::string(200000, '9')}};
        QVERIFY(load(longName.dump(), "").ok());
        longName["compile"] = {{"arch", "sm_90ab"}};
        spec = load(longName.dump(), "");
        QVERIFY(!spec.ok() && contains(spec.error().message, "/compile/arch: expected a GPU architecture"));
        QVERIFY(load(j.dump(), std::string(300000, ' ') + "\n// @kw-param B: 1 | 2\n").ok());
        // The same for a torch problem's Python sources.
        nlohmann::json t{{"name", "t"},
                         {"description", "d"},
                         {"backend", "torch"},
                         {"reference", "reference.py"},
                         {"sizes", {"n"}},
                         {"shapes", {{"check", {{{"sizes", {{"n", 3}}}}}}, {"time", {{{"sizes", {{"n", 8}}}}}}}},
                         {"bytes", "8*n"},
                         {"flops", "n"},
                         {"seeds", {{{"name", "s"}, {"source", "seed.py"}}}}};
        std::ofstream(path / "problem.json") << t.dump();
        std::ofstream(path / "reference.py") << std::string(300000, '\n') << "n = 8\nclass Model:\n  pass\n"
                                             << "def get_inputs():\n  return []\ndef  get_init_inputs ():\n  return []\n";
        std::ofstream(path / "seed.py") << std::string(300000, ' ') << "\n\tclass ModelNew(Model):\n  pass\n";
        spec = loadProblem(path);
        QVERIFY2(spec.ok(), spec.ok() ? "" : spec.error().message.c_str());
        std::ofstream(path / "seed.py") << "class ModelNewer:\n  pass\nclassModelNew = 1\n";
        std::ofstream(path / "reference.py")
            << "class Model: pass\ndef get_inputs(): pass\ndef get_init_inputs(): pass\n  n = 8\nnn = 8\n";
        spec = loadProblem(path);
        QVERIFY(!spec.ok());
        QVERIFY2(contains(spec.error().message, "defines no class ModelNew"), spec.error().message.c_str());
        QVERIFY2(contains(spec.error().message, "size \"n\" is not a module-level variable"), spec.error().message.c_str());
        // A shape integer past 2^63, as JSON, is not read as -1.
        auto unsignedShape = j;
        unsignedShape["arguments"][0]["shape"] = {18446744073709551615ull};
        spec = load(unsignedShape.dump(), "");
        QVERIFY(!spec.ok());
        QVERIFY2(contains(spec.error().message, "integer 18446744073709551615 does not fit in 64 bits"),
                 spec.error().message.c_str());
    }
    void jaggedSizesFlowIntoLaterShapes() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString());
        std::ofstream(path / "reference.cpp") << "\n";
        std::ofstream(path / "problem.json") << R"({
          "name": "jag", "description": "d", "backend": "cpp", "function": "f", "sizes": ["U"],
          "arguments": [
            {"name": "offsets", "dtype": "i64", "shape": ["U + 1"],
             "fill": {"kind": "offsets", "min_length": 0, "max_length": 5, "total": "NV", "empty_fraction": 0.2}},
            {"name": "values", "dtype": "f32", "shape": ["NV"], "fill": {"kind": "normal"}},
            {"name": "out", "dtype": "f32", "shape": ["U"], "output": true}
          ],
          "call": ["offsets", "values", "out", "U", "NV"],
          "shapes": {"check": [{"sizes": {"U": 3}}], "time": [{"sizes": {"U": 100}}]},
          "bytes": "8*(U+1) + 4*NV + 4*U", "flops": "NV", "reference": "reference.cpp"})";
        auto spec = loadProblem(path);
        QVERIFY2(spec.ok(), spec.ok() ? "" : spec.error().message.c_str());
        QCOMPARE(spec->derivedSizes, std::vector<std::string>{"NV"});
        QCOMPARE(spec->prototype(),
                 std::string("void f(const int64_t* offsets, const float* values, float* out, int64_t U, int64_t NV)"));
    }
    void torchProblemsAreCheckedToo() {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        auto write = [&](const std::string& rel, const std::string& text) {
            std::filesystem::create_directories((root / rel).parent_path());
            std::ofstream(root / rel) << text;
        };
        write("problem.json", R"({"name": "t", "description": "d", "backend": "torch", "reference": "reference.py",
            "sizes": ["n"], "shapes": {"check": [{"sizes": {"n": 3}}], "time": [{"sizes": {"n": 1024}}]},
            "tolerance": {"bf16": {"rtol": 0.02, "atol": 0.02}}, "bytes": "8*n", "flops": "n",
            "seeds": [{"name": "triton", "source": "seeds/triton.py"}], "forbidden": ["torch.relu"]})");
        write("reference.py",
              "import torch\nn = 1024\nclass Model(torch.nn.Module):\n    def forward(self, x):\n        return torch.relu(x)\n"
              "def get_inputs():\n    return [torch.randn(n)]\ndef get_init_inputs():\n    return []\n");
        write("seeds/triton.py", "# @kw-param BLOCK: 128 | 256 = 256\nfrom kw_params import BLOCK\nclass ModelNew:\n    pass\n");
        auto ok = loadProblem(root);
        QVERIFY2(ok.ok(), ok.ok() ? "" : ok.error().message.c_str());
        QCOMPARE(ok->tensorTolerances.at("bf16").rtol, 0.02);
        QCOMPARE(ok->tensorTolerances.at("f32").rtol, 1e-4);
        QCOMPARE(ok->seeds.front().params.size(), std::uint64_t(2));
        QVERIFY(!ok->gathers); // optional: no lookups declared
        // Lookups: an expression over the sizes, or an error naming the field.
        write("problem.json", R"({"name": "t", "description": "d", "backend": "torch", "reference": "reference.py",
            "sizes": ["n"], "shapes": {"check": [{"sizes": {"n": 3}}], "time": [{"sizes": {"n": 1024}}]},
            "bytes": "8*n", "flops": "n", "gathers": "2*n", "seeds": [{"name": "triton", "source": "seeds/triton.py"}]})");
        auto lookups = loadProblem(root);
        QVERIFY2(lookups.ok(), lookups.ok() ? "" : lookups.error().message.c_str());
        QVERIFY(lookups->gathers);
        QCOMPARE(*lookups->gathers->evaluate({{"n", 1024}}), 2048.0);
        write("problem.json", R"({"name": "t", "description": "d", "backend": "torch", "reference": "reference.py",
            "sizes": ["n"], "shapes": {"check": [{"sizes": {"n": 3}}], "time": [{"sizes": {"n": 1024}}]},
            "bytes": "8*n", "flops": "n", "gathers": "2*q", "seeds": [{"name": "triton", "source": "seeds/triton.py"}]})");
        auto unknown = loadProblem(root);
        QVERIFY(!unknown.ok());
        QVERIFY2(contains(unknown.error().message, "/gathers"), unknown.error().message.c_str());
        write("problem.json", R"({"name": "t", "description": "d", "backend": "torch", "reference": "reference.py",
            "sizes": ["n"], "shapes": {"check": [{"sizes": {"n": 3}}], "time": [{"sizes": {"n": 1024}}]},
            "tolerance": {"bf16": {"rtol": 0.02, "atol": 0.02}}, "bytes": "8*n", "flops": "n",
            "seeds": [{"name": "triton", "source": "seeds/triton.py"}], "forbidden": ["torch.relu"]})");
        // A reference without get_inputs, a size it does not define, a seed
        // without ModelNew that uses the forbidden op: each named.
        write("reference.py", "import torch\nclass Model(torch.nn.Module):\n    pass\ndef get_init_inputs():\n    return []\n");
        write("seeds/triton.py", "import torch\ndef forward(x):\n    return torch.relu(x)\n");
        auto bad = loadProblem(root);
        QVERIFY(!bad.ok());
        const auto& m = bad.error().message;
        QVERIFY2(contains(m, "defines no get_inputs"), m.c_str());
        QVERIFY2(contains(m, "size \"n\" is not a module-level variable"), m.c_str());
        QVERIFY2(contains(m, "defines no class ModelNew"), m.c_str());
        QVERIFY2(contains(m, "contains the forbidden \"torch.relu\""), m.c_str());
    }

    // KernelBench's files set sizes every way Python allows at the top level
    // (level 3's DenseNets: `height, width = 224, 224`); each way names a size.
    void torchSizesAreFoundInEveryAssignmentForm() {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        std::filesystem::create_directories(root / "seeds");
        std::ofstream(root / "seeds/s.py") << "class ModelNew:\n    pass\n";
        const auto loadsWith = [&](const std::string& assignment) {
            std::ofstream(root / "problem.json") << R"({"name": "t", "description": "d", "backend": "torch",
                "reference": "reference.py", "sizes": ["h"], "shapes": {"check": [{"sizes": {"h": 3}}],
                "time": [{"sizes": {"h": 64}}]}, "bytes": "8*h", "flops": "h", "seeds": [{"name": "s", "source": "seeds/s.py"}]})";
            std::ofstream(root / "reference.py") << "import torch\n"
                                                 << assignment << "\nclass Model(torch.nn.Module):\n    pass\n"
                                                 << "def get_inputs():\n    return []\ndef get_init_inputs():\n    return []\n";
            const auto spec = loadProblem(root);
            return spec.ok() || !contains(spec.error().message, "size \"h\" is not a module-level variable");
        };
        for (const char* yes :
             {"h = 64", "w = h = 64", "h: int = 64", "h, w = 64, 32", "w, h = 32, 64", "w,h=32,64", "(w, h) = 32, 64",
              "[h, w] = [64, 32]", "w, h, = 32, 64", "b = 2; w, h = 32, 64", "b = w, h = 1, 2"})
            QVERIFY2(loadsWith(yes), yes);
        for (const char* no : {"hh, w = 64, 32", "x = (h, w)", "h == 64", "  h, w = 64, 32", "w, h.x = 1, 2", "(w, h = 1, 2",
                               "h2 = 64", "x = h", "f(h, w)"})
            QVERIFY2(!loadsWith(no), no);
    }

    void findsProblemFolders() {
        const auto dirs = findProblemDirs(kw::test::dataDir() / "problems");
        QVERIFY(dirs.size() >= 5);
        QVERIFY(std::is_sorted(dirs.begin(), dirs.end()));
    }
};

QTEST_APPLESS_MAIN(TestProblemLoader)
#include "tst_problem_loader.moc"
