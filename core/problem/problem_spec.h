#pragma once
// The in-memory form of a problem folder (problem.json + sources). See
// docs/problem-format.md for the file format this is read from.
#include "problem/dtype.h"
#include "problem/expression.h"
#include "problem/tunable_params.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kw::problem {

// Where a problem's kernels run and what they are written in.
enum class Backend {
    Cpp,   // C++ functions on the CPU
    Cuda,  // CUDA C++ launchers on an NVIDIA GPU
    Torch, // PyTorch modules (Triton, inline CUDA) on a GPU
};
const char* backendName(Backend backend); // "cpp", "cuda", "torch": as problem.json writes it
std::optional<Backend> parseBackend(const std::string& name);

// What a candidate may run besides its own code (problem.json's "policy").
enum class CodePolicy {
    Library, // any library call; the libraries it would call are timed as baselines, so calling one earns about 1x
    OwnCode, // its own code only: on the CPU its process maps no executable code but its build and the C/C++ runtime
};
const char* codePolicyName(CodePolicy policy); // "library", "own_code"
std::optional<CodePolicy> parseCodePolicy(const std::string& name);
inline bool runsOnGpu(Backend backend) {
    return backend != Backend::Cpp;
}

struct FillSpec {
    enum class Kind {
        Uniform,        // floats in [low, high)
        Normal,         // floats, mean/std
        IntRange,       // integers in [low, high]
        SortedUniform,  // floats in [low, high), each row (last dimension) sorted ascending
        SortedIntRange, // integers in [low, high], each row sorted; `distinct` for strictly increasing
        Lengths,        // jagged lengths in [min_len, max_len]; their sum defines size `total`
        Offsets,        // n+1 offsets (starting at 0) of lengths in [min_len, max_len]; last = `total`
        SampleFrom,     // values copied from earlier argument `from` with probability `fraction`,
                        // otherwise uniform in [low, high] (hits, misses, exact border values)
        Constant,       // every element = value
        Function,       // extern "C" void NAME(void* data, int64_t count, uint64_t seed) in fill_source
    } kind = Kind::Uniform;
    double low = 0, high = 1, mean = 0, stddev = 1, value = 0, fraction = 0.5;
    double emptyFraction = 0; // Lengths/Offsets: share of rows forced empty
    bool distinct = false;
    std::optional<Expression> minLength, maxLength;
    std::string total;    // derived size defined by Lengths/Offsets
    std::string from;     // SampleFrom source argument
    std::string function; // Function
    // Where the operator is defined, wider than the fill's typical values
    // (Uniform, Normal, SortedUniform fills): the check on wide inputs draws
    // uniformly from it, so a kernel fitted to the fill's range fails.
    std::optional<std::pair<double, double>> domain;
};

struct Argument {
    std::string name;
    DType dtype = DType::F32;
    std::vector<Expression> shape; // row-major; the element count is the product
    bool output = false;
    FillSpec fill; // inputs only
};

struct Scalar {
    std::string name;
    DType dtype = DType::F32;
    double value = 0;
};

struct ShapeCase {
    std::string name;
    std::map<std::string, long long> sizes;
};

struct Tolerance {
    double rtol = 0;
    double atol = 0;
};

// A C++ source belonging to the problem: the reference, a baseline or a seed.
struct SourceFile {
    std::string name;
    std::filesystem::path path; // absolute
    std::string text;
    ParamSpace params;                   // declared @kw-param lines
    std::vector<std::string> extraFlags; // compile flags for this source only
    std::vector<std::string> linkFlags;  // e.g. -lopenblas for a library baseline
};

struct Limits {
    double callTimeoutS = 10;        // one kernel call
    double runTimeoutS = 300;        // the whole check + time run
    double compileTimeoutS = 120;    // one compiler invocation
    double implausibleSpeedup = 100; // flagged for human review above this
};

struct ProblemSpec {
    std::filesystem::path dir;
    std::string name, title, description, function;
    Backend backend = Backend::Cpp;
    std::vector<std::string> sizes;        // declared, given by every shape case
    std::vector<std::string> derivedSizes; // defined by Lengths/Offsets fills
    std::vector<Scalar> scalars;
    std::vector<Argument> arguments;
    std::vector<std::string> call; // the kernel's parameters, in order
    std::vector<ShapeCase> checkShapes, timeShapes;
    std::map<DType, Tolerance> tolerances; // every dtype has an entry (defaults filled in)
    std::optional<Expression> bytes, flops;
    // Dependent random reads into a cache-resident table the operator needs
    // at least (one per lookup: an id map, a hash probe): the GPU floor counts
    // them at the GPU's L2 gather rate. Optional.
    std::optional<Expression> gathers;
    // What limits a good kernel: "" derives it from bytes and flops against the
    // machine; "latency" declares dependent random accesses (lookups, pointer
    // chasing) that no bandwidth roofline describes.
    std::string bound;
    SourceFile reference;
    std::vector<SourceFile> baselines; // extra baselines; the reference is always the first
    std::vector<SourceFile> seeds;
    std::vector<std::string> compileFlags;
    std::string cudaArch; // the cuda backend: nvcc -arch of the target GPU (default sm_90)
    std::optional<std::filesystem::path> fillSource;
    std::string fillSourceText;
    Limits limits;
    // The torch backend: strings a candidate must not contain (the reference's
    // own op, so that it cannot fall back to it), and tolerances by output
    // dtype name (f32, f64, f16, bf16; integer outputs compare exactly).
    std::vector<std::string> forbidden;
    std::map<std::string, Tolerance> tensorTolerances;
    // Unset in problem.json: Library where a baseline links a library (its
    // calls are timed) or on the torch backend (KernelBench's rules: graded
    // against eager and torch.compile), OwnCode otherwise.
    CodePolicy policy = CodePolicy::Library;
    std::string contentHash; // over problem.json and every source it names

    const Argument* findArgument(const std::string& argName) const;
    const Scalar* findScalar(const std::string& scalarName) const;
    const SourceFile* findSeed(const std::string& seedName) const;
    // extern "C" prototype of the kernel, e.g. "void rmsnorm(const float* x, ..., int64_t N, float eps)".
    std::string prototype() const;
};

Tolerance defaultTolerance(DType dtype);
// Defaults of the torch backend: f32 1e-4, f16 and bf16 1e-2, f64 1e-10.
std::map<std::string, Tolerance> defaultTensorTolerances();

} // namespace kw::problem
