#pragma once
// What a good model might send for the saxpy test problem: a short
// explanation and one fenced, correct kernel, its unroll fixed or tunable.
#include <string>

namespace kw::test {

inline std::string saxpyKernelReply(int variant, bool withParam) {
    std::string code = "#include <cstdint>\n";
    if (withParam)
        code += "// @kw-param UNROLL: 1 | 2 | 4 = 2\n#ifndef UNROLL\n#define UNROLL 2\n#endif\n";
    else
        code += "#define UNROLL " + std::to_string(variant) + "\n";
    code += "// variant " + std::to_string(variant) +
            "\n"
            "void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {\n"
            "    int64_t i = 0;\n"
            "    for (; i + UNROLL <= N; i += UNROLL)\n"
            "        for (int u = 0; u < UNROLL; ++u) y[i + u] = a * x[i + u] + z[i + u];\n"
            "    for (; i < N; ++i) y[i] = a * x[i] + z[i];\n"
            "}\n";
    return "I unrolled the loop by UNROLL so the compiler can keep several FMAs in flight.\n\n```cpp\n" + code + "```\n";
}

} // namespace kw::test
