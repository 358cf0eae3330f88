// expect: wrong_answer
// Replays the previous call's answer whenever the size repeats: the harness
// that times one input over and over gets the cached copy.
#include <cstring>
#include <vector>
static std::vector<float> last;
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    if (last.size() == static_cast<size_t>(N) && N > 100000) {
        std::memcpy(y, last.data(), N * sizeof(float));
        return;
    }
    for (int64_t i = 0; i < N; ++i) y[i] = a * x[i] + z[i];
    last.assign(y, y + N);
}
