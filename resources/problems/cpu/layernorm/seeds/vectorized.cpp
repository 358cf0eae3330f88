// LayerNorm forward seed: SIMD statistics with several accumulators, then one
// SIMD normalize-scale-shift pass over the row while it is still in L1/L2.
//
// The reference's double accumulation is a serial chain of dependent adds;
// here each of ACC vector accumulators holds VEC partial sums, so the adds
// pipeline and the row is summed at load bandwidth. The statistics take two
// passes (mean, then sum of squared deviations) or, with ONEPASS, one pass of
// sum and sum of squares of x - K, where the shift K (the mean of the row's first
// 32 elements) keeps E[d^2] - E[d]^2 from cancelling when the row mean is
// far from zero.
// GCC/Clang vector extensions keep the code portable: a vector wider than the
// enabled ISA is split by the compiler, so every width is correct everywhere.
//
// Defaults are the plain variant (narrow vectors, no unrolling, one thread,
// two statistics passes): finding the tuned configuration is the search's job.
// @kw-param VEC: 4 | 8 | 16 = 4
// @kw-param ACC: 1 | 2 | 4 = 1
// @kw-param ONEPASS: bool = false
// @kw-param STREAM: bool = false
// @kw-param THREADS: 1 | 2 = 1
//
// VEC      floats per vector (4 = SSE, 8 = AVX2, 16 = AVX-512 register).
// ACC      independent vector accumulators for the statistics.
// ONEPASS  shifted sum and sum of squares in one read of the row (instead of
//          a mean pass and a squared-deviation pass).
// STREAM   write y with non-temporal stores: saves the read-for-ownership of
//          y when M*N is far larger than the cache, costs when y fits.
// THREADS  OpenMP threads over rows.
#include <cmath>
#include <cstdint>
#include <cstring>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#ifndef VEC
#define VEC 4
#endif
#ifndef ACC
#define ACC 1
#endif
#ifndef ONEPASS
#define ONEPASS 0
#endif
#ifndef STREAM
#define STREAM 0
#endif
#ifndef THREADS
#define THREADS 1
#endif

// Widest non-temporal store the enabled ISA offers, in floats (0: none).
#if STREAM && defined(__AVX512F__)
#define LN_NT 16
#elif STREAM && defined(__AVX__)
#define LN_NT 8
#elif STREAM && defined(__SSE__)
#define LN_NT 4
#else
#define LN_NT 0
#endif

namespace {

typedef float VF __attribute__((vector_size(VEC * sizeof(float))));

// Unaligned views (float alignment): rows need no alignment. Vectors travel
// by reference or inline, so a VEC wider than the ISA raises no ABI warning.
typedef float VFu __attribute__((vector_size(VEC * sizeof(float)), aligned(alignof(float))));
inline const VFu& at(const float* p) { return *reinterpret_cast<const VFu*>(p); }
inline VFu& at(float* p) { return *reinterpret_cast<VFu*>(p); }

inline float hsum(const VF& v) {
    float s = 0.0f;
    for (int l = 0; l < VEC; ++l) s += v[l];
    return s;
}

#if LN_NT
#if VEC < LN_NT
#define LN_NT_STEP VEC
#else
#define LN_NT_STEP LN_NT
#endif
inline void streamStore(float* p, const VF& v) {
    const float* lanes = reinterpret_cast<const float*>(&v);
    for (int i = 0; i < VEC; i += LN_NT_STEP) {
#if LN_NT_STEP == 16
        __m512 t;
        std::memcpy(&t, lanes + i, sizeof t);
        _mm512_stream_ps(p + i, t);
#elif LN_NT_STEP == 8
        __m256 t;
        std::memcpy(&t, lanes + i, sizeof t);
        _mm256_stream_ps(p + i, t);
#else
        __m128 t;
        std::memcpy(&t, lanes + i, sizeof t);
        _mm_stream_ps(p + i, t);
#endif
    }
}
#endif

void row(const float* xr, const float* gamma, const float* beta, float* yr, int64_t N, float eps) {
    const float invN = 1.0f / static_cast<float>(N);
#if ONEPASS
    // One pass: sums of d and d^2 with d = x - K, where the shift K is the
    // mean of the first (up to) 32 elements: close to the row mean, so
    // S2/N - (S1/N)^2 does not cancel (a single element as the shift can sit
    // several standard deviations away and cost a digit).
    const int64_t nk = N < 32 ? N : 32;
    float K = 0.0f;
    for (int64_t i = 0; i < nk; ++i) K += xr[i];
    K /= static_cast<float>(nk);
    const VF vK = VF{} + K;
    VF s1[ACC], s2[ACC];
    for (int a = 0; a < ACC; ++a) s1[a] = s2[a] = VF{};
    int64_t n = 0;
    for (; n + VEC * ACC <= N; n += VEC * ACC)
        for (int a = 0; a < ACC; ++a) {
            const VF d = at(xr + n + a * VEC) - vK;
            s1[a] += d;
            s2[a] += d * d;
        }
    for (; n + VEC <= N; n += VEC) {
        const VF d = at(xr + n) - vK;
        s1[0] += d;
        s2[0] += d * d;
    }
    for (int a = 1; a < ACC; ++a) {
        s1[0] += s1[a];
        s2[0] += s2[a];
    }
    float S1 = hsum(s1[0]), S2 = hsum(s2[0]);
    for (; n < N; ++n) {
        const float d = xr[n] - K;
        S1 += d;
        S2 += d * d;
    }
    const float md = S1 * invN;
    const float mean = K + md;
    float var = S2 * invN - md * md;
    var = var > 0.0f ? var : 0.0f;
#else
    // Pass 1: the mean.
    VF s[ACC];
    for (int a = 0; a < ACC; ++a) s[a] = VF{};
    int64_t n = 0;
    for (; n + VEC * ACC <= N; n += VEC * ACC)
        for (int a = 0; a < ACC; ++a) s[a] += at(xr + n + a * VEC);
    for (; n + VEC <= N; n += VEC) s[0] += at(xr + n);
    for (int a = 1; a < ACC; ++a) s[0] += s[a];
    float S = hsum(s[0]);
    for (; n < N; ++n) S += xr[n];
    const float mean = S * invN;

    // Pass 2: the sum of squared deviations.
    const VF vmean = VF{} + mean;
    for (int a = 0; a < ACC; ++a) s[a] = VF{};
    n = 0;
    for (; n + VEC * ACC <= N; n += VEC * ACC)
        for (int a = 0; a < ACC; ++a) {
            const VF d = at(xr + n + a * VEC) - vmean;
            s[a] += d * d;
        }
    for (; n + VEC <= N; n += VEC) {
        const VF d = at(xr + n) - vmean;
        s[0] += d * d;
    }
    for (int a = 1; a < ACC; ++a) s[0] += s[a];
    float Q = hsum(s[0]);
    for (; n < N; ++n) {
        const float d = xr[n] - mean;
        Q += d * d;
    }
    const float var = Q * invN;
#endif

    // y = (x - mean) * rstd * gamma + beta, as x * a + b per element with
    // a = rstd * gamma, b = beta - mean * rstd * gamma would round differently:
    // keep the reference's order of operations.
    const float rstd = 1.0f / std::sqrt(var + eps);
    const VF vm = VF{} + mean;
    const VF vr = VF{} + rstd;
    n = 0;
#if LN_NT
    for (; n < N && reinterpret_cast<uintptr_t>(yr + n) % (LN_NT_STEP * sizeof(float)) != 0; ++n)
        yr[n] = (xr[n] - mean) * rstd * gamma[n] + beta[n];
    for (; n + VEC <= N; n += VEC) streamStore(yr + n, (at(xr + n) - vm) * vr * at(gamma + n) + at(beta + n));
#else
    for (; n + VEC <= N; n += VEC) at(yr + n) = (at(xr + n) - vm) * vr * at(gamma + n) + at(beta + n);
#endif
    for (; n < N; ++n) yr[n] = (xr[n] - mean) * rstd * gamma[n] + beta[n];
}

}  // namespace

void layernorm(const float* x, const float* gamma, const float* beta, float* y, int64_t M, int64_t N, float eps) {
#if THREADS > 1
#pragma omp parallel num_threads(THREADS)
#endif
    {
#if THREADS > 1
#pragma omp for schedule(static)
#endif
        for (int64_t m = 0; m < M; ++m) row(x + m * N, gamma, beta, y + m * N, N, eps);
#if LN_NT
        // Non-temporal stores are weakly ordered: each thread fences its own.
        _mm_sfence();
#endif
    }
}
