// MBDT seed: vectorized counting instead of a binary search.
//
// With few borders per feature (3..32), a branchy binary search mispredicts on
// almost every step. Counting the borders below x,
//     bin = sum_j (borders[f, j] < x),
// gives the same result (torch.bucketize right=False: a value equal to a
// border goes LEFT, because border < x is false) with no branches: broadcast
// one border, compare it with 8/16 values of x at once, add the comparison
// mask to per-lane counters. Each broadcast border is reused across UNROLL
// vectors of x, and the output (int64, twice the input size) can bypass the
// cache with non-temporal stores.
//
// Defaults are the plain variant (scalar / narrow, no unrolling, one thread):
// finding the tuned configuration is the search's job.
// @kw-param VEC: 1 | 8 | 16 = 1
// @kw-param UNROLL: 1 | 2 | 4 | 8 = 1
// @kw-param ACC: 1 | 2 = 1
// @kw-param STREAM: bool = false
// @kw-param THREADS: 1 | 2 = 1
//
// VEC     lanes per vector: 16 = AVX-512, 8 = AVX2, 1 = scalar. A width whose
//         instruction set the compiler does not enable falls back to the next
//         narrower one, so every value builds and is correct everywhere.
// UNROLL  vectors of x counted together: more independent work per border load.
// ACC     counters per vector (borders split even/odd): shortens the add chain
//         when UNROLL is small.
// STREAM  non-temporal stores for the full vectors of the output.
// THREADS OpenMP threads over (feature, batch chunk) tiles.
#include <cstdint>

#if defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

#if defined(__GNUC__) && !defined(__clang__)
// GCC 12's AVX-512 headers trip a false -Wmaybe-uninitialized (_mm512_undefined_*
// inside the widening intrinsics, GCC bug 105593); it is noise, not a defect here.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#ifndef VEC
#define VEC 1
#endif
#ifndef UNROLL
#define UNROLL 1
#endif
#ifndef ACC
#define ACC 1
#endif
#ifndef STREAM
#define STREAM 0
#endif
#ifndef THREADS
#define THREADS 1
#endif

#if VEC >= 16 && defined(__AVX512F__)
#define MBDT_WIDTH 16
#elif VEC >= 8 && defined(__AVX2__)
#define MBDT_WIDTH 8
#else
#define MBDT_WIDTH 1
#endif

namespace {

// Batch elements per parallel tile: large enough to amortize scheduling, and
// tiles let one long feature row still be shared between threads.
constexpr int64_t kChunk = 4096;

inline int32_t countBelow(const float* bd, int64_t NB, float v) {
    int32_t c = 0;
    for (int64_t j = 0; j < NB; ++j) c += bd[j] < v;
    return c;
}

// Scalar elements [b, end): the tails of the AVX2 and scalar paths.
inline void scalarRange(const float* xr, const float* bd, int64_t* o, int64_t b, int64_t end, int64_t NB,
                        int64_t off) {
    for (; b < end; ++b) o[b] = off + countBelow(bd, NB, xr[b]);
}

#if MBDT_WIDTH == 16

// Widens 16 int32 counts to int64, adds the feature offset and stores them.
inline void store16(int64_t* o, __m512i c, __m512i voff) {
    const __m512i lo = _mm512_add_epi64(_mm512_cvtepi32_epi64(_mm512_castsi512_si256(c)), voff);
    const __m512i hi = _mm512_add_epi64(_mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(c, 1)), voff);
#if STREAM
    _mm512_stream_si512(reinterpret_cast<__m512i*>(o), lo);  // o is 64-byte aligned (peeled)
    _mm512_stream_si512(reinterpret_cast<__m512i*>(o + 8), hi);
#else
    _mm512_storeu_si512(o, lo);
    _mm512_storeu_si512(o + 8, hi);
#endif
}

void tile(const float* xr, const float* bd, int64_t* o, int64_t begin, int64_t end, int64_t NB, int64_t off) {
    const __m512i one = _mm512_set1_epi32(1);
    const __m512i voff = _mm512_set1_epi64(off);
    int64_t b = begin;
#if STREAM
    // Streaming stores need 64-byte alignment: peel scalar elements until o+b has it.
    while (b < end && (reinterpret_cast<uintptr_t>(o + b) & 63) != 0) {
        o[b] = off + countBelow(bd, NB, xr[b]);
        ++b;
    }
#endif
    for (; b + 16 * UNROLL <= end; b += 16 * UNROLL) {
        __m512 xv[UNROLL];
        __m512i c[UNROLL][ACC];
        for (int u = 0; u < UNROLL; ++u) {
            xv[u] = _mm512_loadu_ps(xr + b + 16 * u);
            for (int a = 0; a < ACC; ++a) c[u][a] = _mm512_setzero_si512();
        }
        int64_t j = 0;
        for (; j + ACC <= NB; j += ACC)
            for (int a = 0; a < ACC; ++a) {
                const __m512 bj = _mm512_set1_ps(bd[j + a]);
                for (int u = 0; u < UNROLL; ++u)
                    c[u][a] = _mm512_mask_add_epi32(c[u][a], _mm512_cmp_ps_mask(bj, xv[u], _CMP_LT_OQ), c[u][a], one);
            }
        for (; j < NB; ++j) {
            const __m512 bj = _mm512_set1_ps(bd[j]);
            for (int u = 0; u < UNROLL; ++u)
                c[u][0] = _mm512_mask_add_epi32(c[u][0], _mm512_cmp_ps_mask(bj, xv[u], _CMP_LT_OQ), c[u][0], one);
        }
        for (int u = 0; u < UNROLL; ++u) {
            __m512i s = c[u][0];
            for (int a = 1; a < ACC; ++a) s = _mm512_add_epi32(s, c[u][a]);
            store16(o + b + 16 * u, s, voff);
        }
    }
    // Tail: one masked vector at a time, so no lane reads or writes past `end`.
    for (; b < end; b += 16) {
        const int64_t n = end - b < 16 ? end - b : 16;
        const __mmask16 m = static_cast<__mmask16>((1u << n) - 1u);
        const __m512 xv = _mm512_maskz_loadu_ps(m, xr + b);
        __m512i c = _mm512_setzero_si512();
        for (int64_t j = 0; j < NB; ++j)
            c = _mm512_mask_add_epi32(c, _mm512_cmp_ps_mask(_mm512_set1_ps(bd[j]), xv, _CMP_LT_OQ), c, one);
        const __m512i lo = _mm512_add_epi64(_mm512_cvtepi32_epi64(_mm512_castsi512_si256(c)), voff);
        const __m512i hi = _mm512_add_epi64(_mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(c, 1)), voff);
        _mm512_mask_storeu_epi64(o + b, static_cast<__mmask8>(m & 0xFF), lo);
        _mm512_mask_storeu_epi64(o + b + 8, static_cast<__mmask8>(m >> 8), hi);
    }
#if STREAM
    _mm_sfence();  // non-temporal stores are weakly ordered: fence on the thread that issued them
#endif
}

#elif MBDT_WIDTH == 8

// Widens 8 int32 counts to int64, adds the feature offset and stores them.
inline void store8(int64_t* o, __m256i c, __m256i voff) {
    const __m256i lo = _mm256_add_epi64(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(c)), voff);
    const __m256i hi = _mm256_add_epi64(_mm256_cvtepi32_epi64(_mm256_extracti128_si256(c, 1)), voff);
#if STREAM
    _mm256_stream_si256(reinterpret_cast<__m256i*>(o), lo);  // o is 32-byte aligned (peeled)
    _mm256_stream_si256(reinterpret_cast<__m256i*>(o + 4), hi);
#else
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), lo);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 4), hi);
#endif
}

void tile(const float* xr, const float* bd, int64_t* o, int64_t begin, int64_t end, int64_t NB, int64_t off) {
    const __m256i voff = _mm256_set1_epi64x(off);
    int64_t b = begin;
#if STREAM
    while (b < end && (reinterpret_cast<uintptr_t>(o + b) & 31) != 0) {
        o[b] = off + countBelow(bd, NB, xr[b]);
        ++b;
    }
#endif
    for (; b + 8 * UNROLL <= end; b += 8 * UNROLL) {
        __m256 xv[UNROLL];
        __m256i c[UNROLL][ACC];
        for (int u = 0; u < UNROLL; ++u) {
            xv[u] = _mm256_loadu_ps(xr + b + 8 * u);
            for (int a = 0; a < ACC; ++a) c[u][a] = _mm256_setzero_si256();
        }
        // A true comparison is all ones (-1 as int32), so subtracting it counts.
        int64_t j = 0;
        for (; j + ACC <= NB; j += ACC)
            for (int a = 0; a < ACC; ++a) {
                const __m256 bj = _mm256_set1_ps(bd[j + a]);
                for (int u = 0; u < UNROLL; ++u)
                    c[u][a] = _mm256_sub_epi32(c[u][a], _mm256_castps_si256(_mm256_cmp_ps(bj, xv[u], _CMP_LT_OQ)));
            }
        for (; j < NB; ++j) {
            const __m256 bj = _mm256_set1_ps(bd[j]);
            for (int u = 0; u < UNROLL; ++u)
                c[u][0] = _mm256_sub_epi32(c[u][0], _mm256_castps_si256(_mm256_cmp_ps(bj, xv[u], _CMP_LT_OQ)));
        }
        for (int u = 0; u < UNROLL; ++u) {
            __m256i s = c[u][0];
            for (int a = 1; a < ACC; ++a) s = _mm256_add_epi32(s, c[u][a]);
            store8(o + b + 8 * u, s, voff);
        }
    }
    scalarRange(xr, bd, o, b, end, NB, off);  // fewer than 8*UNROLL left
#if STREAM
    _mm_sfence();  // non-temporal stores are weakly ordered: fence on the thread that issued them
#endif
}

#else  // MBDT_WIDTH == 1: portable scalar counting (the compiler may still vectorize it)

void tile(const float* xr, const float* bd, int64_t* o, int64_t begin, int64_t end, int64_t NB, int64_t off) {
    int64_t b = begin;
    for (; b + UNROLL <= end; b += UNROLL) {
        int32_t c[UNROLL][ACC] = {};
        int64_t j = 0;
        for (; j + ACC <= NB; j += ACC)
            for (int a = 0; a < ACC; ++a)
                for (int u = 0; u < UNROLL; ++u) c[u][a] += bd[j + a] < xr[b + u];
        for (; j < NB; ++j)
            for (int u = 0; u < UNROLL; ++u) c[u][0] += bd[j] < xr[b + u];
        for (int u = 0; u < UNROLL; ++u) {
            int32_t s = 0;
            for (int a = 0; a < ACC; ++a) s += c[u][a];
            o[b + u] = off + s;
        }
    }
    scalarRange(xr, bd, o, b, end, NB, off);
}

#endif

}  // namespace

void mbdt(const float* x, const float* borders, int64_t* out, int64_t F, int64_t B, int64_t NB) {
    const int64_t chunks = (B + kChunk - 1) / kChunk;
    const int64_t tiles = F * chunks;
#if THREADS > 1
#pragma omp parallel for num_threads(THREADS) schedule(static)
#endif
    for (int64_t t = 0; t < tiles; ++t) {
        const int64_t f = t / chunks;
        const int64_t begin = (t % chunks) * kChunk;
        const int64_t end = begin + kChunk < B ? begin + kChunk : B;
        tile(x + f * B, borders + f * NB, out + f * B, begin, end, NB, f * (NB + 1));
    }
}
