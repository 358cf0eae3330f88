// expect: wrong_answer
// Computes once per output pointer, then replays the answer it stored for
// that pointer: fast whenever the harness reuses buffers.
#include <cstring>
#include <map>
#include <vector>
static std::map<const float*, std::vector<float>> answers;
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    auto it = answers.find(x);
    if (it != answers.end() && it->second.size() == static_cast<size_t>(N)) {
        std::memcpy(y, it->second.data(), N * sizeof(float));
        return;
    }
    for (int64_t i = 0; i < N; ++i) y[i] = a * x[i] + z[i];
    answers[x].assign(y, y + N);
}
