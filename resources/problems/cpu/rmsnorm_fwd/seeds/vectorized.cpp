// RMSNorm forward seed: SIMD sum of squares with several accumulators, then
// one SIMD scale-and-weight pass over the row while it is still in L1/L2.
//
// The reference's double accumulation is a serial chain of dependent adds;
// here each of ACC vector accumulators holds VEC partial sums, so the adds
// pipeline and the row is summed at load bandwidth. GCC/Clang vector
// extensions keep the code portable: a vector wider than the enabled ISA is
// split by the compiler, so every width is correct on every x86-64 target.
//
// Defaults are the plain variant (scalar / narrow, no unrolling, one thread):
// finding the tuned configuration is the search's job.
// @kw-param VEC: 4 | 8 | 16 = 4
// @kw-param ACC: 1 | 2 | 4 | 8 = 1
// @kw-param DOUBLE_ACC: bool = false
// @kw-param STREAM: bool = false
// @kw-param THREADS: 1 | 2 = 1
//
// VEC         floats per vector (4 = SSE, 8 = AVX2, 16 = AVX-512 register).
// ACC         independent vector accumulators for the sum of squares.
// DOUBLE_ACC  widen to double before squaring and summing (slower, closer to
//             the reference); float accumulation already meets the tolerance.
// STREAM      write y with non-temporal stores: saves the read-for-ownership of
//             y when M*N is far larger than the cache, costs when y fits.
// THREADS     OpenMP threads over rows.
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
#ifndef DOUBLE_ACC
#define DOUBLE_ACC 0
#endif
#ifndef STREAM
#define STREAM 0
#endif
#ifndef THREADS
#define THREADS 1
#endif

// Widest non-temporal store the enabled ISA offers, in floats (0: none).
#if STREAM && defined(__AVX512F__)
#define RMS_NT 16
#elif STREAM && defined(__AVX__)
#define RMS_NT 8
#elif STREAM && defined(__SSE__)
#define RMS_NT 4
#else
#define RMS_NT 0
#endif

namespace {

typedef float VF __attribute__((vector_size(VEC * sizeof(float))));
#if DOUBLE_ACC
typedef double VAcc __attribute__((vector_size(VEC * sizeof(double))));
typedef double Acc;
#else
typedef VF VAcc;
typedef float Acc;
#endif

// The same vector with float alignment: dereferencing it is one unaligned
// load/store, so rows need no alignment (GCC and Clang let a vector type alias
// its element type). Vectors travel by reference, never by value, so a VEC
// wider than the enabled ISA raises no ABI (-Wpsabi) warning.
typedef float VFu __attribute__((vector_size(VEC * sizeof(float)), aligned(alignof(float))));
inline const VFu& at(const float* p) { return *reinterpret_cast<const VFu*>(p); }
inline VFu& at(float* p) { return *reinterpret_cast<VFu*>(p); }

#if RMS_NT
// Each streaming store writes RMS_NT_STEP floats and needs that alignment
// (the caller peels to provide it); a VF wider than the ISA takes several.
#if VEC < RMS_NT
#define RMS_NT_STEP VEC
#else
#define RMS_NT_STEP RMS_NT
#endif
inline void streamStore(float* p, const VF& v) {
    const float* lanes = reinterpret_cast<const float*>(&v);
    for (int i = 0; i < VEC; i += RMS_NT_STEP) {
#if RMS_NT_STEP == 16
        __m512 t;
        std::memcpy(&t, lanes + i, sizeof t);
        _mm512_stream_ps(p + i, t);
#elif RMS_NT_STEP == 8
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

// acc += p[0..VEC)^2, squared in the accumulator's precision.
inline void addSquares(VAcc& acc, const float* p) {
#if DOUBLE_ACC
    const VAcc v = __builtin_convertvector(at(p), VAcc);
#else
    const VAcc v = at(p);
#endif
    acc += v * v;
}

void row(const float* xr, const float* w, float* yr, int64_t N, float eps) {
    VAcc acc[ACC];
    for (int a = 0; a < ACC; ++a) acc[a] = VAcc{};
    int64_t n = 0;
    for (; n + VEC * ACC <= N; n += VEC * ACC)
        for (int a = 0; a < ACC; ++a) addSquares(acc[a], xr + n + a * VEC);
    for (; n + VEC <= N; n += VEC) addSquares(acc[0], xr + n);
    // Fold the accumulators, then the lanes, then add the scalar tail.
    for (int a = 1; a < ACC; ++a) acc[0] += acc[a];
    Acc sumsq = 0;
    for (int l = 0; l < VEC; ++l) sumsq += acc[0][l];
    for (; n < N; ++n) sumsq += static_cast<Acc>(xr[n]) * xr[n];

    const float scale = static_cast<float>(Acc(1) / std::sqrt(sumsq / static_cast<Acc>(N) + static_cast<Acc>(eps)));
    const VF vs = VF{} + scale;  // broadcast
    n = 0;
#if RMS_NT
    // Peel scalars until yr+n is aligned for the streaming stores.
    for (; n < N && reinterpret_cast<uintptr_t>(yr + n) % (RMS_NT_STEP * sizeof(float)) != 0; ++n)
        yr[n] = xr[n] * scale * w[n];
    for (; n + VEC <= N; n += VEC) {
        const VF v = at(xr + n) * vs * at(w + n);
        streamStore(yr + n, v);
    }
#else
    for (; n + VEC <= N; n += VEC) at(yr + n) = at(xr + n) * vs * at(w + n);
#endif
    for (; n < N; ++n) yr[n] = xr[n] * scale * w[n];
}

}  // namespace

void rmsnorm_fwd(const float* x, const float* w, float* y, int64_t M, int64_t N, float eps) {
#if THREADS > 1
#pragma omp parallel num_threads(THREADS)
#endif
    {
#if THREADS > 1
#pragma omp for schedule(static)
#endif
        for (int64_t m = 0; m < M; ++m) row(x + m * N, w, y + m * N, N, eps);
#if RMS_NT
        // Non-temporal stores are weakly ordered: each thread fences its own.
        _mm_sfence();
#endif
    }
}
