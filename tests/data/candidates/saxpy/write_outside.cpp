// Writes a file next to its job dir, outside it.
#include <cstdio>
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    if (FILE* f = std::fopen("../kernelwright-escape-probe", "w")) {
        std::fputs("escaped\n", f);
        std::fclose(f);
    }
    for (int64_t i = 0; i < N; ++i) y[i] = a * x[i] + z[i];
}
