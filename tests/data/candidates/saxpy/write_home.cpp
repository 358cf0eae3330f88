// Writes a file into $HOME.
#include <cstdio>
#include <cstdlib>
#include <string>
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    if (const char* home = std::getenv("HOME")) {
        if (FILE* f = std::fopen((std::string(home) + "/kernelwright-escape-probe").c_str(), "w")) {
            std::fputs("escaped\n", f);
            std::fclose(f);
        }
    }
    for (int64_t i = 0; i < N; ++i) y[i] = a * x[i] + z[i];
}
