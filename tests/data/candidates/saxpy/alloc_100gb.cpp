// Asks for 100 GB on every call.
#include <vector>
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    std::vector<char> huge(100ull << 30);
    huge[12345] = 1;
    for (int64_t i = 0; i < N; ++i) y[i] = a * x[i] + z[i] + static_cast<float>(huge[0]);
}
