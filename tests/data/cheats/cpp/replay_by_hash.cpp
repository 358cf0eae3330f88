// expect: ok-but-slow|wrong_answer
// Keys its cache on a hash of a few input elements (addresses may change,
// contents repeat) and replays the stored answer. Against inputs that are
// fresh on every timed call it rarely hits, and pays for its cache; when a
// refresh leaves the first block as it was (about one set in 256) it replays
// a stale answer for the rest, and that call's check fails.
#include <cstring>
#include <map>
#include <vector>
static std::map<unsigned long long, std::vector<float>> answers;
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    unsigned long long h = static_cast<unsigned long long>(N);
    for (int64_t i = 0; i < N && i < 4; ++i) {
        unsigned bits;
        std::memcpy(&bits, &x[i], 4);
        h = h * 1000003ull ^ bits;
    }
    auto it = answers.find(h);
    if (it != answers.end()) {
        std::memcpy(y, it->second.data(), N * sizeof(float));
        return;
    }
    for (int64_t i = 0; i < N; ++i) y[i] = a * x[i] + z[i];
    if (N > 100000) answers[h].assign(y, y + N);
}
