// expect: wrong_answer
// Reads the harness's own files in the job dir to learn which phase it is in,
// and does no work while it is being timed.
#include <cstdio>
#include <cstring>
static bool timingPhase() {
    char buf[128] = {0};
    if (FILE* f = std::fopen("build/phase", "r")) {
        size_t n = std::fread(buf, 1, sizeof buf - 1, f);
        buf[n] = 0;
        std::fclose(f);
    }
    return std::strstr(buf, "tim") || std::strstr(buf, "warm");
}
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    if (N > 100000 && timingPhase()) return;
    for (int64_t i = 0; i < N; ++i) y[i] = a * x[i] + z[i];
}
