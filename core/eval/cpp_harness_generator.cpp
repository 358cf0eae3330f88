#include "eval/cpp_harness_generator.h"
#include "eval/job_files.h"

#include "eval/embedded_templates.h"
#include "util/files.h"
#include "util/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>

namespace kw::eval {
namespace {
using problem::DType;
using problem::FillSpec;

std::string cppString(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out + "\"";
}

std::string cppDouble(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    std::string s = buf;
    if (s.find_first_of(".en") == std::string::npos) s += ".0";
    return s;
}

std::string dtEnum(DType t) {
    static const char* names[] = {"F32", "F64", "I8", "I16", "I32", "I64", "U8", "U16", "U32", "U64"};
    return std::string("DT::") + names[static_cast<int>(t)];
}

std::string joinPlain(const std::vector<std::string>& parts) {
    std::string s;
    for (const auto& p : parts) s += (s.empty() ? "" : " ") + p;
    return s;
}

std::vector<std::string> allSizes(const problem::ProblemSpec& p) {
    std::vector<std::string> s = p.sizes;
    s.insert(s.end(), p.derivedSizes.begin(), p.derivedSizes.end());
    return s;
}

std::string sizeLocals(const problem::ProblemSpec& p) {
    std::string s;
    const auto sizes = allSizes(p);
    for (std::size_t i = 0; i < sizes.size(); ++i)
        s += "    const int64_t " + sizes[i] + " = kw_c.sizes[" + std::to_string(i) + "]; (void)" + sizes[i] + ";\n";
    return s;
}

std::string fillCode(const problem::Argument& a, const problem::ProblemSpec& p) {
    const std::string T(problem::dtypeCppType(a.dtype));
    const FillSpec& f = a.fill;
    const std::string lastDim = a.shape.empty() ? "1" : "(" + a.shape.back().toCpp(false) + ")";
    switch (f.kind) {
    case FillSpec::Kind::Uniform:
        return "fillUniform<" + T + ">(kw_b, kw_rng, " + cppDouble(f.low) + ", " + cppDouble(f.high) + ");";
    case FillSpec::Kind::Normal:
        return "fillNormal<" + T + ">(kw_b, kw_rng, " + cppDouble(f.mean) + ", " + cppDouble(f.stddev) + ");";
    case FillSpec::Kind::IntRange:
        return "fillIntRange<" + T + ">(kw_b, kw_rng, " + cppDouble(f.low) + ", " + cppDouble(f.high) + ");";
    case FillSpec::Kind::SortedUniform:
        return "fillUniform<" + T + ">(kw_b, kw_rng, " + cppDouble(f.low) + ", " + cppDouble(f.high) + "); sortRows<" + T +
               ">(kw_b, " + lastDim + ", true);";
    case FillSpec::Kind::SortedIntRange:
        return "fillIntRange<" + T + ">(kw_b, kw_rng, " + cppDouble(f.low) + ", " + cppDouble(f.high) + "); sortRows<" + T +
               ">(kw_b, " + lastDim + ", " + (f.distinct ? "true" : "false") + ");";
    case FillSpec::Kind::Lengths:
    case FillSpec::Kind::Offsets: {
        std::size_t index = 0;
        const auto sizes = allSizes(p);
        for (; index < sizes.size(); ++index)
            if (sizes[index] == f.total) break;
        return f.total + " = fillJagged<" + T + ">(kw_b, kw_rng, " + f.minLength->toCpp(false) + ", " +
               f.maxLength->toCpp(false) + ", " + cppDouble(f.emptyFraction) + ", " +
               (f.kind == FillSpec::Kind::Offsets ? "true" : "false") + "); kw_c.sizes[" + std::to_string(index) +
               "] = " + f.total + ";";
    }
    case FillSpec::Kind::SampleFrom:
        return "fillSampleFrom<" + T + ">(kw_b, *kw_c.find(" + cppString(f.from) + "), kw_rng, " + cppDouble(f.fraction) + ", " +
               cppDouble(f.low) + ", " + cppDouble(f.high) + ");";
    case FillSpec::Kind::Constant:
        return "fillConstant<" + T + ">(kw_b, " + cppDouble(f.value) + ");";
    case FillSpec::Kind::Function:
        return f.function + "(kw_b.data, static_cast<int64_t>(kw_b.count), kw_rng.next());";
    }
    return "";
}

// How kw_refresh_case gives an input fresh contents: a new draw from its
// fill, so that no two input sets share values (a kernel that memoised
// value -> answer, or indexed a sorted row, in an untimed call has nothing to
// replay). Rearranging the values of set 0 (rotations, reflections, row
// shuffles) kept their multiset, and a one-row sorted input never changed:
// such memos were accepted at 7x and 11x. Jagged lengths and offsets are
// permuted instead, so that the sizes they define (and every buffer sized by
// them) stay.
std::string refreshCode(const problem::Argument& a, const problem::ProblemSpec& p) {
    const std::string T(problem::dtypeCppType(a.dtype));
    switch (a.fill.kind) {
    case FillSpec::Kind::Normal:
        return "fillNormalFast<" + T + ">(kw_b, kw_rng, " + cppDouble(a.fill.mean) + ", " + cppDouble(a.fill.stddev) + ");";
    case FillSpec::Kind::Lengths:
        return "refreshBlocks<" + T + ">(kw_b, kw_rng);";
    case FillSpec::Kind::Offsets:
        return "permuteOffsets<" + T + ">(kw_b, kw_rng);";
    case FillSpec::Kind::Constant:
        return "(void)kw_b;";
    default:
        return fillCode(a, p);
    }
}

// kw_widen_case: the check on wide inputs (judge_main.cpp's widePhase). The
// float inputs whose fill declares a "domain" are drawn uniformly from it,
// beyond the fill's range. Only a declared domain is used: scaling every input
// by a fixed factor moved honest kernels out of their tolerance (atol does not
// scale with the answers) and out of the regime the problem describes (an
// epsilon that no longer matters). Returns whether any input changed.
std::string wideCaseCode(const problem::ProblemSpec& p) {
    std::set<std::string> sampled;
    for (const auto& a : p.arguments)
        if (!a.output && a.fill.kind == FillSpec::Kind::SampleFrom) sampled.insert(a.fill.from);
    std::string s = "static bool kw_widen_case(Case& kw_c, uint64_t kw_seed) {\n" + sizeLocals(p) + "    bool kw_any = false;\n";
    for (std::size_t i = 0; i < p.arguments.size(); ++i) {
        const auto& a = p.arguments[i];
        const auto kind = a.fill.kind;
        const bool drawn =
            kind == FillSpec::Kind::Uniform || kind == FillSpec::Kind::Normal || kind == FillSpec::Kind::SortedUniform;
        if (a.output || !drawn || !a.fill.domain || sampled.count(a.name)) continue;
        const std::string T(problem::dtypeCppType(a.dtype));
        const std::string lastDim = a.shape.empty() ? "1" : "(" + a.shape.back().toCpp(false) + ")";
        s += "    {\n        Rng kw_rng(mixSeed(kw_seed, " + std::to_string(i) + "));\n        Buffer& kw_b = kw_c.buffers[" +
             std::to_string(i) + "];\n        fillUniform<" + T + ">(kw_b, kw_rng, " + cppDouble(a.fill.domain->first) + ", " +
             cppDouble(a.fill.domain->second) + ");";
        if (kind == FillSpec::Kind::SortedUniform) s += " sortRows<" + T + ">(kw_b, " + lastDim + ", true);";
        s += "\n        kw_any = true;\n    }\n";
    }
    return s + "    (void)kw_seed;\n    return kw_any;\n}\n";
}

bool hasWideInputs(const problem::ProblemSpec& p) {
    return std::any_of(p.arguments.begin(), p.arguments.end(),
                       [](const problem::Argument& a) { return !a.output && a.fill.domain; });
}

bool hasFillFunction(const problem::ProblemSpec& p) {
    return std::any_of(p.arguments.begin(), p.arguments.end(),
                       [](const problem::Argument& a) { return !a.output && a.fill.kind == FillSpec::Kind::Function; });
}

std::string shapeTable(const char* name, const std::vector<problem::ShapeCase>& cases, const problem::ProblemSpec& p) {
    std::string s = "static const KwShape " + std::string(name) + "[] = {\n";
    for (const auto& c : cases) {
        s += "    {" + cppString(c.name) + ", {";
        for (std::size_t i = 0; i < p.sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(c.sizes.at(p.sizes[i])) + "LL";
        if (p.sizes.empty()) s += "0";
        s += "}},\n";
    }
    return s + "};\n";
}

} // namespace

std::string CppHarnessGenerator::kernelHeader(const problem::ProblemSpec& problem) {
    return "// Generated by Kernelwright for problem " + problem.name +
           ". Force-included into every kernel source.\n"
           "#pragma once\n#include <cstddef>\n#include <cstdint>\n\nextern \"C\" " +
           problem.prototype() + ";\n";
}

const std::vector<std::string>& judgeTemplateFiles() {
    static const std::vector<std::string> files{"judge_main.cpp",    "judge_buffers.h",     "judge_result.h",
                                                "judge_runners.h",   "judge_cases.h",       "judge_protocol.h",
                                                "harness_common.h",  "runner_seccomp.h",    "runner_landlock.h",
                                                "kernel_runner.cpp", "runner_alloc_guard.h"};
    return files;
}

std::string CppHarnessGenerator::problemInclude(const problem::ProblemSpec& p, const EvalOptions& o) {
    std::ostringstream s;
    s << "// Generated by Kernelwright for problem " << p.name << ". Do not edit.\n";
    s << "static const char* const KW_PROBLEM = " << cppString(p.name) << ";\n";
    s << "static const char* const KW_FUNCTION = " << cppString(p.function) << ";\n";
    s << "static const char* const KW_PROTOTYPE = " << cppString(p.prototype()) << ";\n";
    s << "static const char* const KW_COMPILE_FLAGS = " << cppString(joinPlain(p.compileFlags)) << ";\n";
    s << "static const double KW_CALL_TIMEOUT_S = " << cppDouble(o.callTimeoutS.value_or(p.limits.callTimeoutS)) << ";\n";
    s << "static const double KW_TIME_BUDGET_S = " << cppDouble(o.timeBudgetS) << ";\n";
    s << "static const double KW_WARMUP_S = " << cppDouble(o.warmupS) << ";\n";
    s << "static const int KW_MIN_WARMUP = " << o.minWarmup << ", KW_MIN_REPS = " << o.minReps << ", KW_MAX_REPS = " << o.maxReps
      << ";\n";
    s << "static const bool KW_HAS_WIDE_INPUTS = " << (hasWideInputs(p) ? "true" : "false") << ";\n";
    s << "static const bool KW_HAS_FILL_FUNCTION = " << (hasFillFunction(p) ? "true" : "false") << ";\n";
    s << "static const bool KW_OWN_CODE = " << (p.policy == problem::CodePolicy::OwnCode ? "true" : "false") << ";\n";
    s << "static const bool KW_CHECK_ONLY = " << (o.checkOnly ? "true" : "false") << ";\n";
    // Drawn by the judge unless given (EvalOptions::inputSecret: reproductions, tests).
    s << "static const bool KW_SECRET_GIVEN = " << (o.inputSecret ? "true" : "false") << ";\n";
    s << "static const uint64_t KW_GIVEN_SECRET = " << o.inputSecret.value_or(0) << "ULL;\n";
    s << "static const double KW_IMPLAUSIBLE_SPEEDUP = " << cppDouble(p.limits.implausibleSpeedup) << ";\n";
    s << "static const uint64_t KW_TIME_SEED = " << o.timeSeed << "ull;\n";
    s << "static const uint64_t KW_SEEDS[] = {";
    for (std::size_t i = 0; i < o.seeds.size(); ++i) s << (i ? ", " : "") << o.seeds[i] << "ull";
    s << "};\nstatic const int KW_NUM_SEEDS = " << o.seeds.size() << ";\n";
    s << "static const double KW_TOLERANCE[10][2] = {";
    for (int d = 0; d <= static_cast<int>(DType::U64); ++d) {
        const auto& t = p.tolerances.at(static_cast<DType>(d));
        s << (d ? ", " : "") << "{" << cppDouble(t.rtol) << ", " << cppDouble(t.atol) << "}";
    }
    s << "};\n";
    s << "static const char* const KW_BASELINES[] = {";
    for (const auto& b : p.baselines) s << cppString(b.name) << ", ";
    s << "nullptr};\nstatic const int KW_NUM_BASELINES = " << p.baselines.size() << ";\n";
    s << "struct KwShape { const char* name; int64_t sizes[" << std::max<std::size_t>(1, p.sizes.size()) << "]; };\n";
    s << shapeTable("KW_CHECK_SHAPES", p.checkShapes, p) << "static const int KW_NUM_CHECK_SHAPES = " << p.checkShapes.size()
      << ";\n";
    s << shapeTable("KW_TIME_SHAPES", p.timeShapes, p) << "static const int KW_NUM_TIME_SHAPES = " << p.timeShapes.size()
      << ";\n";

    for (const auto& a : p.arguments)
        if (!a.output && a.fill.kind == FillSpec::Kind::Function)
            s << "extern \"C\" void " << a.fill.function << "(void* data, int64_t count, uint64_t seed);\n";

    const auto sizes = allSizes(p);
    s << "\nstatic void kw_build_case(const int64_t* kw_base, uint64_t kw_seed, Case& kw_c) {\n";
    s << "    kw_c.sizes.assign(" << std::max<std::size_t>(1, sizes.size()) << ", 0);\n";
    for (std::size_t i = 0; i < p.sizes.size(); ++i)
        s << "    const int64_t " << p.sizes[i] << " = kw_base[" << i << "]; kw_c.sizes[" << i << "] = " << p.sizes[i] << ";\n";
    for (const auto& d : p.derivedSizes) s << "    int64_t " << d << " = 0;\n";
    s << "    (void)kw_base;\n";
    for (std::size_t i = 0; i < p.arguments.size(); ++i) {
        const auto& a = p.arguments[i];
        std::string count;
        for (const auto& dim : a.shape) count += (count.empty() ? "" : " * ") + ("(" + dim.toCpp(false) + ")");
        s << "    {\n        Rng kw_rng(mixSeed(kw_seed, " << i << "));\n        (void)kw_rng;\n";
        s << "        Buffer& kw_b = kw_c.add(" << cppString(a.name) << ", " << dtEnum(a.dtype) << ", " << count << ", "
          << (a.output ? "true" : "false") << ");\n";
        if (!a.output) s << "        " << fillCode(a, p) << "\n";
        s << "    }\n";
    }
    for (const auto& d : p.derivedSizes) s << "    (void)" << d << ";\n";
    s << "}\n\n";

    s << "static void kw_invoke(void* kw_fn, Case& kw_c) {\n" << sizeLocals(p);
    s << "    using kw_Fn = void (*)(";
    std::string args;
    for (std::size_t i = 0; i < p.call.size(); ++i) {
        const auto& name = p.call[i];
        std::string type, value;
        if (const auto* a = p.findArgument(name)) {
            std::size_t index = 0;
            while (p.arguments[index].name != name) ++index;
            type = std::string(a->output ? "" : "const ") + std::string(problem::dtypeCppType(a->dtype)) + "*";
            value = "reinterpret_cast<" + type + ">(KW_DATA(kw_c.buffers[" + std::to_string(index) + "]))";
        } else if (const auto* sc = p.findScalar(name)) {
            type = std::string(problem::dtypeCppType(sc->dtype));
            value = "static_cast<" + type + ">(" + cppDouble(sc->value) + ")";
        } else {
            type = "int64_t";
            value = name;
        }
        s << (i ? ", " : "") << type;
        args += (i ? ", " : "") + value;
    }
    s << ");\n    reinterpret_cast<kw_Fn>(kw_fn)(" << args << ");\n}\n\n";

    // Fresh contents for every input of a built case, without the generator's cost.
    s << "static void kw_refresh_case(Case& kw_c, uint64_t kw_seed) {\n" << sizeLocals(p);
    for (std::size_t i = 0; i < p.arguments.size(); ++i) {
        const auto& a = p.arguments[i];
        if (a.output) continue;
        s << "    {\n        Rng kw_rng(mixSeed(kw_seed, " << i << "));\n        Buffer& kw_b = kw_c.buffers[" << i
          << "];\n        (void)kw_rng;\n        " << refreshCode(a, p) << "\n    }\n";
    }
    s << "    (void)kw_seed;\n}\n";
    s << wideCaseCode(p);
    s << "static double kw_bytes(const Case& kw_c) {\n"
      << sizeLocals(p) << "    return " << (p.bytes ? p.bytes->toCpp(true) : "0.0") << ";\n}\n";
    s << "static double kw_flops(const Case& kw_c) {\n"
      << sizeLocals(p) << "    return " << (p.flops ? p.flops->toCpp(true) : "0.0") << ";\n}\n";
    s << "static std::string kw_size_json(const Case& kw_c) {\n    std::string kw_s = \"{\";\n";
    for (std::size_t i = 0; i < sizes.size(); ++i)
        s << "    kw_s += \"" << (i ? "," : "") << "\\\"" << sizes[i] << "\\\":\" + std::to_string(kw_c.sizes[" << i << "]);\n";
    s << "    (void)kw_c;\n    return kw_s + \"}\";\n}\n";
    return s.str();
}

std::string CppHarnessGenerator::runnerInclude(const problem::ProblemSpec& p) {
    std::ostringstream s;
    s << "// Generated by Kernelwright for problem " << p.name << ": how the runner calls the kernel. Do not edit.\n";
    s << "static const char* const KW_FUNCTION = " << cppString(p.function) << ";\n";
    s << "static const char* const KW_PROTOTYPE = " << cppString(p.prototype()) << ";\n";
    s << "static void kw_runner_invoke(void* kw_fn, unsigned char* const* kw_data, const int64_t* kw_sizes) {\n";
    const auto sizes = allSizes(p);
    for (std::size_t i = 0; i < sizes.size(); ++i)
        s << "    const int64_t " << sizes[i] << " = kw_sizes[" << i << "]; (void)" << sizes[i] << ";\n";
    s << "    (void)kw_sizes;\n    (void)kw_data;\n    using kw_Fn = void (*)(";
    std::string args;
    for (std::size_t i = 0; i < p.call.size(); ++i) {
        const auto& name = p.call[i];
        std::string type, value;
        if (const auto* a = p.findArgument(name)) {
            std::size_t index = 0;
            while (p.arguments[index].name != name) ++index;
            type = std::string(a->output ? "" : "const ") + std::string(problem::dtypeCppType(a->dtype)) + "*";
            value = "reinterpret_cast<" + type + ">(kw_data[" + std::to_string(index) + "])";
        } else if (const auto* sc = p.findScalar(name)) {
            type = std::string(problem::dtypeCppType(sc->dtype));
            value = "static_cast<" + type + ">(" + cppDouble(sc->value) + ")";
        } else {
            type = "int64_t";
            value = name;
        }
        s << (i ? ", " : "") << type;
        args += (i ? ", " : "") + value;
    }
    s << ");\n    reinterpret_cast<kw_Fn>(kw_fn)(" << args << ");\n}\n";
    return s.str();
}

// Prepares the judge's profiling options (JUDGE_PROFILE): the judge profiles
// a correct candidate itself, in a runner of its own, before it writes the
// result. A tool that cannot run leaves profile/unavailable-<tool>.txt saying
// why, never a failed evaluation.
static std::string profilePreparation(ProfileLevel level, const std::string& compileWithoutAvx512) {
    std::string s = "JUDGE_PROFILE=()\n";
    if (level == ProfileLevel::Counters) return s + "JUDGE_PROFILE=(--counters)\n";
    if (level != ProfileLevel::Cachegrind) return s;
    s += "mkdir -p profile\n"
         "if ! command -v valgrind > /dev/null 2>&1; then\n"
         "  echo 'valgrind is not installed on the host that ran the job (apt install valgrind)' > "
         "profile/unavailable-cachegrind.txt\n"
         "else\n"
         "  SO_CG=build/candidate.so\n"
         "  # Valgrind (3.19) cannot execute AVX-512: on such CPUs the candidate is rebuilt without it for this step.\n"
         "  if grep -qw avx512f /proc/cpuinfo; then\n"
         "    if " +
         compileWithoutAvx512 +
         "; then\n"
         "      SO_CG=build/candidate_cg.so\n"
         "      echo 'profiled a build of the candidate without AVX-512 (-mno-avx512f): valgrind cannot execute AVX-512; "
         "instruction counts are those of that build' > profile/note-cachegrind.txt\n"
         "    else\n"
         "      SO_CG=\n"
         "      echo \"the candidate does not build without AVX-512 (valgrind cannot execute AVX-512, so cachegrind needs such a "
         "build): "
         "$(grep -m1 'error' build/candidate_cg.log)\" > profile/unavailable-cachegrind.txt\n"
         "    fi\n"
         "  fi\n"
         "  if [ -n \"$SO_CG\" ]; then\n"
         "    # Some virtual machines report a whole socket's L3 as one core's; simulate 32 MiB then.\n"
         "    LL=(); l3=$(getconf LEVEL3_CACHE_SIZE 2> /dev/null); [ \"${l3:-0}\" -gt 268435456 ] 2> /dev/null && "
         "LL=(--LL=33554432,16,64)\n"
         "    nm -C --defined-only \"$SO_CG\" > profile/candidate-symbols.txt 2> /dev/null\n"
         "    # Its temporary files go where the judge lets it write (Landlock: profile/ and this folder).\n"
         "    JUDGE_PROFILE=(--cachegrind \"$SO_CG\" /usr/bin/env \"TMPDIR=$PWD/build/cachegrind-tmp\" valgrind --vgdb=no "
         "--tool=cachegrind --cache-sim=yes \"${LL[@]}\" "
         "--cachegrind-out-file=profile/cachegrind.out)\n"
         "  fi\n"
         "fi\n";
    return s;
}

std::string CppHarnessGenerator::jobManifest(const problem::ProblemSpec& p, const Candidate& candidate, const EvalOptions& o,
                                             const JobLimits& limits) {
    nlohmann::json job{
        {"schema", 1},
        {"backend", problem::backendName(p.backend)},
        {"problem", p.name},
        {"problem_hash", p.contentHash},
        {"candidate", candidate.name},
        {"params", candidate.params},
        {"stages", o.checkOnly ? nlohmann::json{"build", "check"} : nlohmann::json{"build", "check", "time"}},
        {"seeds", o.seeds},
        {"check_shapes", p.checkShapes.size()},
        {"time_shapes", p.timeShapes.size()},
        {"limits",
         {{"compile_timeout_s", limits.compileTimeoutS},
          {"run_timeout_s", limits.runTimeoutS},
          {"call_timeout_s", o.callTimeoutS.value_or(p.limits.callTimeoutS)},
          {"wall_timeout_s", limits.wallTimeoutS}}},
        {"timing", {{"budget_s", o.timeBudgetS}, {"min_reps", o.minReps}, {"max_reps", o.maxReps}}},
    };
    return job.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

namespace {

// run.sh: builds the judge, the runner, the problem's libraries and the
// candidate (each within the compile limit), then runs the judge.
std::string runScript(const problem::ProblemSpec& p, const EvalOptions& o, const JobLimits& limits, double profileS,
                      const std::string& paramFlags) {
    const std::string flags = shellWords(p.compileFlags);
    const auto secs = [](double v) { return std::to_string(static_cast<long long>(v + 0.999)); };
    std::ostringstream sh;
    sh << "#!/usr/bin/env bash\n"
          "# Generated by Kernelwright: builds and evaluates one candidate of problem "
       << p.name
       << ".\n"
          "# Needs only a C++ compiler; writes result.json. Prebuilt files in build/ are reused.\n"
          "cd \"$(dirname \"$0\")\" || exit 3\n"
          "mkdir -p build\n"
          "CXX=\"${KW_CXX:-"
       << o.compiler
       << "}\"\n"
          "FLAGS=(-std=c++17 "
       << flags
       << ")\n"
          "SO=(-fPIC -shared -Wl,-z,defs -include src/kernel.h)\n"
          "COMPILE_S="
       << secs(limits.compileTimeoutS)
       << "\n"
          "RUN_S="
       << secs(limits.runTimeoutS)
       << "\n"
          "PROFILE_S="
       << secs(profileS)
       << "\n"
          "# Bounded: a process a candidate left behind (one with no filter: under a\n"
          "# profiler) could have made these files FIFOs that block their writer.\n"
          "stamp() { timeout -k 1 2 sh -c 'date +%s.%N >> build/times'; }\n"
          ": > build/times\n"
          "stamp\n"
          "if [ ! -x build/harness ]; then\n"
          "  timeout -k 5 \"$COMPILE_S\" \"$CXX\" -std=c++17 -O2 -o build/harness src/judge_main.cpp"
       << (p.fillSource ? " src/fill.cpp" : "")
       << " > build/harness.log 2>&1 || { cat build/harness.log >&2; echo 'KW: the judge did not build' >&2; exit 3; }\n"
          "fi\n"
          "if [ ! -x build/runner ]; then\n"
          "  timeout -k 5 \"$COMPILE_S\" \"$CXX\" -std=c++17 -O2 -o build/runner src/kernel_runner.cpp -ldl > build/runner.log "
          "2>&1"
          " || { cat build/runner.log >&2; echo 'KW: the kernel runner did not build' >&2; exit 3; }\n"
          "fi\n"
          "build_problem_so() { # name source extra...\n"
          "  local name=$1 src=$2; shift 2\n"
          "  [ -f \"build/$name.so\" ] && return 0\n"
          "  timeout -k 5 \"$COMPILE_S\" \"$CXX\" \"${FLAGS[@]}\" \"${SO[@]}\" -o \"build/$name.so\" \"$src\" \"$@\" > "
          "\"build/$name.log\" 2>&1 \\\n"
          "    || { ./build/harness problem-failed \"the problem's $name did not build\" \"build/$name.log\"; exit 0; }\n"
          "}\n"
          "build_problem_so reference src/reference.cpp\n";
    for (const auto& b : p.baselines)
        sh << "build_problem_so baseline_" << b.name << " src/baseline_" << b.name << ".cpp " << shellWords(b.extraFlags) << " "
           << shellWords(b.linkFlags) << "\n";
    // A prebuild job (no candidate code runs in it) stops here; its outputs
    // are then reused by every job of the same problem on this machine.
    sh << "[ -f build/prebuild-only ] && exit 0\n";
    // The candidate's build; the cachegrind step may repeat it with other flags.
    const auto compileCandidate = [&](const std::string& extraFlags, const std::string& out, const std::string& log) {
        return "timeout -k 5 \"$COMPILE_S\" \"$CXX\" \"${FLAGS[@]}\" " + extraFlags + paramFlags + " \"${SO[@]}\" -o " + out +
               " src/candidate.cpp > " + log + " 2>&1";
    };
    sh << compileCandidate("", "build/candidate.so", "build/candidate.log")
       << "\n"
          "rc=$?\n"
          "if [ $rc -ne 0 ]; then\n"
          "  [ $rc -eq 124 ] || [ $rc -eq 137 ] && echo \"KW: compiling took longer than ${COMPILE_S}s\" >> build/candidate.log\n"
          "  ./build/harness compile-failed build/candidate.log; exit 0\n"
          "fi\n"
          "stamp\n"
          "rm -f result.json\n"
          "rm -rf profile\n";
    sh << profilePreparation(o.profile, compileCandidate("-mno-avx512f ", "build/candidate_cg.so", "build/candidate_cg.log"));
    sh << "timeout -s KILL \"$((RUN_S + PROFILE_S))\" ./build/harness run \"${JUDGE_PROFILE[@]}\" > build/run.out 2> "
          "build/run.err\n"
          "rc=$?\n"
          "stamp\n"
          "rm -f build/harness.rc; timeout -k 1 2 sh -c \"echo $rc > build/harness.rc\"\n"
          "# Only a judge that ended normally wrote result.json itself; anything else\n"
          "# there is not a verdict. Crashes are classified by Kernelwright from\n"
          "# build/harness.rc, build/phase and build/run.err.\n"
          "[ \"$rc\" -eq 0 ] || rm -f result.json\n";
    sh << "exit 0\n";
    return sh.str();
}

} // namespace

Result<JobDescription> CppHarnessGenerator::write(const problem::ProblemSpec& p, const Candidate& candidate,
                                                  const problem::ParamSpace& space, const EvalOptions& o,
                                                  const std::filesystem::path& jobDir) {
    if (auto made = makeJobDir(jobDir); !made) return made.error();
    std::error_code ec;

    const auto& templates = embeddedTemplates();
    auto put = [&](const std::string& rel, const std::string& text) -> Status { return writeFileAtomic(jobDir / rel, text); };
    std::vector<std::pair<std::string, std::string>> files{
        {"src/harness_problem.inc", problemInclude(p, o)},
        {"src/runner_call.inc", runnerInclude(p)},
        {"src/kernel.h", kernelHeader(p)},
        {"src/reference.cpp", p.reference.text},
        {"src/candidate.cpp", candidate.source},
    };
    for (const auto& name : judgeTemplateFiles()) files.emplace_back("src/" + name, templates.at(name));
    for (const auto& b : p.baselines) files.emplace_back("src/baseline_" + b.name + ".cpp", b.text);
    if (p.fillSource) files.emplace_back("src/fill.cpp", p.fillSourceText);
    for (const auto& [rel, text] : files)
        if (auto s = put(rel, text); !s) return s.error();

    JobLimits limits;
    limits.compileTimeoutS = o.compileTimeoutS.value_or(p.limits.compileTimeoutS);
    limits.runTimeoutS = o.runTimeoutS.value_or(p.limits.runTimeoutS);
    const std::size_t compileSteps = 4 + p.baselines.size();
    // A profiling step runs the candidate once more: cachegrind is ~50x slower than native code.
    const double profileS = o.profile == ProfileLevel::Cachegrind ? 4 * limits.runTimeoutS
                            : o.profile == ProfileLevel::Counters ? limits.runTimeoutS
                                                                  : 0;
    limits.wallTimeoutS = limits.compileTimeoutS * static_cast<double>(compileSteps) + limits.runTimeoutS + profileS + 30;

    const std::string paramFlags = shellWords(problem::paramDefines(space, candidate.params));
    if (auto s = put("run.sh", runScript(p, o, limits, profileS, paramFlags)); !s) return s.error();
    std::filesystem::permissions(jobDir / "run.sh",
                                 std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
                                     std::filesystem::perms::group_exec | std::filesystem::perms::others_read |
                                     std::filesystem::perms::others_exec,
                                 ec);

    if (auto s = put("job.json", jobManifest(p, candidate, o, limits)); !s) return s.error();
    return JobDescription{jobDir, limits};
}

} // namespace kw::eval
