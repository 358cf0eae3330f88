#include "profile/roofline_probe.h"

#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

namespace ks::profile {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Sums 8-byte words with four independent accumulators: a pure read stream.
std::uint64_t readStream(const std::vector<std::uint64_t>& v) {
    std::uint64_t a = 0, b = 0, c = 0, d = 0;
    for (std::size_t i = 0; i + 4 <= v.size(); i += 4) {
        a += v[i];
        b += v[i + 1];
        c += v[i + 2];
        d += v[i + 3];
    }
    return a + b + c + d;
}

// A read stream with the widest vectors the CPU has (scalar loads can leave
// one core short of its memory bandwidth).
__attribute__((target("avx512f"))) std::uint64_t readStreamAvx512(const std::vector<std::uint64_t>& v) {
    __m512i a = _mm512_setzero_si512(), b = a, c = a, d = a;
    const auto* p = reinterpret_cast<const __m512i*>(v.data());
    const std::size_t n = v.size() / 8;
    for (std::size_t i = 0; i + 4 <= n; i += 4) {
        a = _mm512_add_epi64(a, _mm512_loadu_si512(p + i));
        b = _mm512_add_epi64(b, _mm512_loadu_si512(p + i + 1));
        c = _mm512_add_epi64(c, _mm512_loadu_si512(p + i + 2));
        d = _mm512_add_epi64(d, _mm512_loadu_si512(p + i + 3));
    }
    alignas(64) std::uint64_t out[8];
    _mm512_store_si512(reinterpret_cast<__m512i*>(out), _mm512_add_epi64(_mm512_add_epi64(a, b), _mm512_add_epi64(c, d)));
    return out[0] + out[7];
}

// A copy with non-temporal stores: no read-for-ownership of the destination.
__attribute__((target("avx2"))) void copyStreamingAvx2(char* dst, const char* src, std::size_t bytes) {
    std::size_t i = 0;
    for (; i < bytes && reinterpret_cast<std::uintptr_t>(dst + i) % 32 != 0; ++i) dst[i] = src[i];
    for (; i + 32 <= bytes; i += 32)
        _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i), _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i)));
    _mm_sfence();
    for (; i < bytes; ++i) dst[i] = src[i];
}

// The best streaming rate `threads` threads reach over 2 x 128 MiB (far beyond
// any cache): the largest of a copy (memcpy reads and writes every byte), a
// copy with non-temporal stores, and a pure read with the widest vectors. A roofline is the
// best the machine can do, so the faster pattern sets it. Best of 6 passes
// each, so that a passing disturbance lowers a pass, not the result.
double streamBandwidth(int threads) {
    const std::size_t bytes = 128u << 20;
    const std::size_t per = bytes / static_cast<std::size_t>(threads);
    std::vector<std::vector<char>> src(static_cast<std::size_t>(threads)), dst(static_cast<std::size_t>(threads));
    std::vector<std::vector<std::uint64_t>> words(static_cast<std::size_t>(threads));
    for (std::size_t t = 0; t < static_cast<std::size_t>(threads); ++t) {
        src[t].assign(per, 1);
        dst[t].assign(per, 0);
        words[t].assign(per / 8, 1);
    }
    std::vector<std::uint64_t> sink(static_cast<std::size_t>(threads));
    const bool avx512 = __builtin_cpu_supports("avx512f"), avx2 = __builtin_cpu_supports("avx2");
    auto timed = [&](auto body) {
        const auto t0 = Clock::now();
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; ++t) pool.emplace_back([&, t] { body(static_cast<std::size_t>(t)); });
        for (auto& th : pool) th.join();
        return secondsSince(t0);
    };
    double best = 0;
    for (int rep = 0; rep < 6; ++rep) {
        const double copy = timed([&](std::size_t t) { std::memcpy(dst[t].data(), src[t].data(), per); });
        best = std::max(best, 2.0 * static_cast<double>(bytes) / copy / 1e9);
        const double read = timed([&](std::size_t t) { sink[t] += avx512 ? readStreamAvx512(words[t]) : readStream(words[t]); });
        best = std::max(best, static_cast<double>(bytes) / read / 1e9);
        if (avx2) {
            const double nt = timed([&](std::size_t t) { copyStreamingAvx2(dst[t].data(), src[t].data(), per); });
            best = std::max(best, 2.0 * static_cast<double>(bytes) / nt / 1e9);
        }
    }
    return best + (sink[0] == 42 ? 1e-9 : 0); // the sums must look used
}

constexpr long kIterations = 20'000'000;

// Twelve independent accumulators in named registers (an array of vectors may
// be kept in memory, which would measure load/store latency, not the FMA units).
#define KS_FMA12(FMA, A, M, C)                                                                                  \
    A##0 = FMA(A##0, M, C); A##1 = FMA(A##1, M, C); A##2 = FMA(A##2, M, C); A##3 = FMA(A##3, M, C);            \
    A##4 = FMA(A##4, M, C); A##5 = FMA(A##5, M, C); A##6 = FMA(A##6, M, C); A##7 = FMA(A##7, M, C);            \
    A##8 = FMA(A##8, M, C); A##9 = FMA(A##9, M, C); A##10 = FMA(A##10, M, C); A##11 = FMA(A##11, M, C);

__attribute__((target("avx512f"))) double fmaAvx512() {
    __m512 a0 = _mm512_set1_ps(1.0f), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0, a8 = a0, a9 = a0, a10 = a0, a11 = a0;
    const __m512 m = _mm512_set1_ps(0.999999f), c = _mm512_set1_ps(1e-7f);
    for (long i = 0; i < kIterations; ++i) {
        KS_FMA12(_mm512_fmadd_ps, a, m, c)
    }
    // A store, not _mm512_reduce_add_ps: GCC 12's header trips -Wuninitialized (bug 105593).
    alignas(64) float out[16];
    __m512 sum = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)),
                               _mm512_add_ps(_mm512_add_ps(a4, a5), _mm512_add_ps(a6, a7)));
    sum = _mm512_add_ps(sum, _mm512_add_ps(_mm512_add_ps(a8, a9), _mm512_add_ps(a10, a11)));
    _mm512_store_ps(out, sum);
    return 2.0 * 16 * 12 * static_cast<double>(kIterations) + (out[0] == 42.0f ? 1 : 0);
}

__attribute__((target("avx2,fma"))) double fmaAvx2() {
    __m256 a0 = _mm256_set1_ps(1.0f), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0, a8 = a0, a9 = a0, a10 = a0, a11 = a0;
    const __m256 m = _mm256_set1_ps(0.999999f), c = _mm256_set1_ps(1e-7f);
    for (long i = 0; i < kIterations; ++i) {
        KS_FMA12(_mm256_fmadd_ps, a, m, c)
    }
    alignas(32) float out[8];
    __m256 sum = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)),
                               _mm256_add_ps(_mm256_add_ps(a4, a5), _mm256_add_ps(a6, a7)));
    sum = _mm256_add_ps(sum, _mm256_add_ps(_mm256_add_ps(a8, a9), _mm256_add_ps(a10, a11)));
    _mm256_store_ps(out, sum);
    return 2.0 * 8 * 12 * static_cast<double>(kIterations) + (out[0] == 42.0f ? 1 : 0);
}

double fmaScalar() {
    float acc[12];
    for (auto& a : acc) a = 1.0f;
    for (long i = 0; i < kIterations / 4; ++i)
        for (auto& a : acc) a = a * 0.999999f + 1e-7f;
    float sink = 0;
    for (auto a : acc) sink += a;
    return 2.0 * 12 * static_cast<double>(kIterations / 4) + (sink == 42.0f ? 1 : 0);
}

double peakGflops(int threads, std::string& isa) {
    double (*kernel)() = fmaScalar;
    isa = "scalar";
    if (__builtin_cpu_supports("avx512f")) {
        kernel = fmaAvx512;
        isa = "avx512";
    } else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        kernel = fmaAvx2;
        isa = "avx2";
    }
    double best = 0;
    for (int rep = 0; rep < 3; ++rep) {
        std::vector<double> flops(static_cast<std::size_t>(threads));
        const auto t0 = Clock::now();
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; ++t) pool.emplace_back([&, t] { flops[static_cast<std::size_t>(t)] = kernel(); });
        for (auto& th : pool) th.join();
        const double secs = secondsSince(t0);
        double total = 0;
        for (double f : flops) total += f;
        best = std::max(best, total / secs / 1e9);
    }
    return best;
}

} // namespace

double Roofline::floorSeconds(double bytes, double flops, int usedCores) const {
    const bool all = usedCores >= cores;
    const double bw = (all ? bandwidthGBsAll : bandwidthGBs1) * 1e9;
    const double peak = (all ? gflopsAll : gflops1) * 1e9;
    return std::max(bw > 0 ? bytes / bw : 0.0, peak > 0 ? flops / peak : 0.0);
}

bool Roofline::memoryBound(double bytes, double flops, int usedCores) const {
    const bool all = usedCores >= cores;
    const double bw = (all ? bandwidthGBsAll : bandwidthGBs1) * 1e9;
    const double peak = (all ? gflopsAll : gflops1) * 1e9;
    return bw > 0 && peak > 0 && bytes / bw >= flops / peak;
}

double probeStreamBandwidth(int threads) { return streamBandwidth(std::max(1, threads)); }

Roofline probeRoofline() {
    Roofline r;
    r.cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    r.bandwidthGBs1 = streamBandwidth(1);
    r.bandwidthGBsAll = streamBandwidth(r.cores);
    r.gflops1 = peakGflops(1, r.isa);
    r.gflopsAll = peakGflops(r.cores, r.isa);
    return r;
}

} // namespace ks::profile
