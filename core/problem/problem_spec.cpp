#include "problem/problem_spec.h"

namespace kw::problem {

const char* backendName(Backend backend) {
    switch (backend) {
    case Backend::Cpp:
        return "cpp";
    case Backend::Cuda:
        return "cuda";
    case Backend::Torch:
        return "torch";
    }
    return "cpp";
}

std::optional<Backend> parseBackend(const std::string& name) {
    for (Backend b : {Backend::Cpp, Backend::Cuda, Backend::Torch})
        if (name == backendName(b)) return b;
    return std::nullopt;
}

const char* codePolicyName(CodePolicy policy) {
    return policy == CodePolicy::OwnCode ? "own_code" : "library";
}

std::optional<CodePolicy> parseCodePolicy(const std::string& name) {
    for (CodePolicy p : {CodePolicy::Library, CodePolicy::OwnCode})
        if (name == codePolicyName(p)) return p;
    return std::nullopt;
}

const Argument* ProblemSpec::findArgument(const std::string& argName) const {
    for (const auto& a : arguments)
        if (a.name == argName) return &a;
    return nullptr;
}

const Scalar* ProblemSpec::findScalar(const std::string& scalarName) const {
    for (const auto& s : scalars)
        if (s.name == scalarName) return &s;
    return nullptr;
}

const SourceFile* ProblemSpec::findSeed(const std::string& seedName) const {
    for (const auto& s : seeds)
        if (s.name == seedName) return &s;
    return nullptr;
}

std::string ProblemSpec::prototype() const {
    std::string p = "void " + function + "(";
    for (std::size_t i = 0; i < call.size(); ++i) {
        if (i) p += ", ";
        const auto& param = call[i];
        if (const auto* a = findArgument(param))
            p += std::string(a->output ? "" : "const ") + std::string(dtypeCppType(a->dtype)) + "* " + param;
        else if (const auto* s = findScalar(param))
            p += std::string(dtypeCppType(s->dtype)) + " " + param;
        else
            p += "int64_t " + param;
    }
    return p + ")";
}

Tolerance defaultTolerance(DType dtype) {
    switch (dtype) {
    case DType::F32:
        return {1e-4, 1e-5};
    case DType::F64:
        return {1e-10, 1e-12};
    default:
        return {0, 0}; // integers compare exactly
    }
}

std::map<std::string, Tolerance> defaultTensorTolerances() {
    return {{"f32", {1e-4, 1e-4}}, {"f64", {1e-10, 1e-12}}, {"f16", {1e-2, 1e-2}}, {"bf16", {1e-2, 1e-2}}};
}

} // namespace kw::problem
