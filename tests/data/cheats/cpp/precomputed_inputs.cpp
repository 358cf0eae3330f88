// expect: wrong_answer
// Regenerates the timing inputs from the published time seed at load time
// (the harness's own generator, copied) and answers the timed calls from
// that table without reading its inputs.
#include <cmath>
#include <cstdint>
#include <vector>
namespace {
struct Rng {
    uint64_t s;
    uint64_t next() {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
    double normal() {
        double u1 = uniform(), u2 = uniform();
        if (u1 < 1e-300) u1 = 1e-300;
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    }
};
uint64_t mix(uint64_t a, uint64_t b) { Rng r{a * 0x100000001B3ull ^ (b + 0x9E3779B97F4A7C15ull)}; return r.next(); }
std::vector<float> table;
struct Precompute {
    Precompute() {
        const int64_t N = 1048576;
        const uint64_t seed = mix(7, 1000);
        Rng rx{mix(seed, 0)}, rz{mix(seed, 1)};
        table.resize(N);
        std::vector<float> z(N);
        for (int64_t i = 0; i < N; ++i) table[i] = static_cast<float>(-1.0 + 2.0 * rx.uniform());
        for (int64_t i = 0; i < N; ++i) z[i] = static_cast<float>(rz.normal());
        for (int64_t i = 0; i < N; ++i) table[i] = 2.5f * table[i] + z[i];
    }
} precompute;
} // namespace
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    if (N == static_cast<int64_t>(table.size())) {
        for (int64_t i = 0; i < N; i += 1) y[i] = table[i];
        return;
    }
    for (int64_t i = 0; i < N; ++i) y[i] = a * x[i] + z[i];
}
