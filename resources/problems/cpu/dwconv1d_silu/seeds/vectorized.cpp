// Depthwise causal conv1d + SiLU seed: SIMD over time with a polynomial exp.
//
// Each output needs K multiply-adds and one exp; with K = 4 the exp dominates,
// and libm's scalar expf cannot be vectorized without -ffast-math. The vector
// path uses a Cephes-style exp (range reduction by ln 2, degree-6 polynomial,
// exponent built in the integer lanes; about 1 ulp) so a whole vector of
// outputs costs a few FMAs. The K taps are unaligned loads of the same row
// shifted by one sample (they hit L1). UNROLL vectors are in flight per step
// so the polynomial's dependency chains overlap. FIXED_K compiles the K = 4
// tap loop fully unrolled (other K take the generic loop).
//
// Defaults are the plain variant (scalar with libm exp, no unrolling, one
// thread): finding the tuned configuration is the search's job.
// @kw-param VEC: 1 | 4 | 8 | 16 = 1
// @kw-param UNROLL: 1 | 2 | 4 | 8 = 1
// @kw-param FIXED_K: bool = false
// @kw-param THREADS: 1 | 2 = 1
// @kw-param EXP: enum(portable, avx512) = portable
// @kw-param STREAM: bool = false
// @kw-param DIV: enum(exact, rcp) = exact
//
// VEC      floats per vector (4 = SSE, 8 = AVX2, 16 = AVX-512); 1 = scalar
//          with std::exp. GCC vector extensions split a vector wider than the
//          enabled ISA, so every width is correct on every x86-64 target.
//          With 16 on an AVX-512 target (and L >= 16), y is walked as one
//          flat stream of aligned vectors across row ends (flatRange), so
//          short rows need no head and tail of their own.
// UNROLL   vectors (or scalars) of outputs computed per step.
// FIXED_K  a compile-time K = 4 specialization when K == 4.
// THREADS  OpenMP threads over the B*C rows.
// EXP      portable: the exp above in vector extensions (integer exponent
//          arithmetic, compare-and-blend clamps). avx512: with VEC = 16 on an
//          AVX-512 target, 2^(x log2 e) with hardware rounding (vrndscaleps),
//          a degree-5 polynomial and vscalefps for the 2^n factor: ten
//          instructions per vector. Elsewhere it falls back to portable.
// DIV      exact: silu = v / (1 + e) with a vector division. rcp: with VEC = 16
//          on AVX-512, v * 1/(1 + e) from the 14-bit reciprocal estimate
//          (vrcp14ps) refined by one Newton step (about 1 ulp): a division
//          takes several times the issue slots of the two FMAs it replaces.
// STREAM   treat x and y as the streams they are (VEC > 1). y is stored with
//          non-temporal stores (VEC >= 8 on an AVX target): it is written
//          once and never read back, so caching it only costs a
//          read-for-ownership of every line. Each row's head is extended to
//          the next 64-byte boundary so the main loop's stores are aligned
//          (the flat walk of VEC = 16 has them aligned already). And x is
//          prefetched kPrefetchAhead floats ahead of the loads: one core
//          keeps more of its lines in flight that way than the hardware
//          prefetchers alone get it to (VEC 16, UNROLL 8, K fixed, STREAM
//          here: 625 us without the prefetch, 499 us with it).
#include <cmath>
#include <cstdint>
#if THREADS > 1
#include <omp.h>
#endif

#ifndef VEC
#define VEC 1
#endif
#ifndef UNROLL
#define UNROLL 1
#endif
#ifndef FIXED_K
#define FIXED_K 0
#endif
#ifndef THREADS
#define THREADS 1
#endif
#define portable 0
#define avx512 1
#ifndef EXP
#define EXP portable
#endif
#ifndef STREAM
#define STREAM 0
#endif
#define exact 0
#define rcp 1
#ifndef DIV
#define DIV exact
#endif
#if DIV == rcp && VEC == 16 && defined(__AVX512F__)
#define DW_RCP 1
#else
#define DW_RCP 0
#endif
#if EXP == avx512 && VEC == 16 && defined(__AVX512F__)
#define DW_EXP_AVX512 1
#else
#define DW_EXP_AVX512 0
#endif
// STREAM's non-temporal stores: 256-bit ones in the row walk, 512-bit ones
// in the flat walk of VEC = 16 on AVX-512 (0: plain stores).
#if STREAM && VEC >= 8 && defined(__AVX__)
#define DW_NT 1
#else
#define DW_NT 0
#endif
// VEC = 16 on AVX-512 walks y as one flat stream (see flatRange).
#if VEC == 16 && defined(__AVX512F__)
#define DW_FLAT 1
#else
#define DW_FLAT 0
#endif
#if DW_EXP_AVX512 || DW_NT || DW_RCP || DW_FLAT || (STREAM && VEC > 1)
#include <immintrin.h>
#endif

namespace {

inline float siluScalar(float v) { return v / (1.0f + std::exp(-v)); }

// One output computed with scalar code (heads, tails, and the VEC = 1 path).
template <int KK>
inline float outScalar(const float* xr, const float* wc, float bc, int64_t t, int64_t K) {
    const int64_t k = KK ? KK : K;
    float v = bc;
    for (int64_t j = 0; j < k; ++j) {
        const int64_t s = t - (k - 1) + j;
        if (s >= 0) v += wc[j] * xr[s];
    }
    return siluScalar(v);
}

#if VEC > 1
typedef float VF __attribute__((vector_size(VEC * sizeof(float))));
typedef int32_t VI __attribute__((vector_size(VEC * sizeof(int32_t))));
typedef float VFu __attribute__((vector_size(VEC * sizeof(float)), aligned(alignof(float))));
inline const VFu& at(const float* p) { return *reinterpret_cast<const VFu*>(p); }
inline VFu& at(float* p) { return *reinterpret_cast<VFu*>(p); }

// With STREAM, asks for the x lines kPrefetchAhead floats past the n inputs
// from p on: one prefetch per 64-byte line (prefetches never fault, even past
// x's end). 2 KiB ahead was as good as 8 KiB and better than 1 KiB here.
constexpr int64_t kPrefetchAhead = 512;
inline void prefetchAhead(const float* p, int64_t n) {
#if STREAM
    for (int64_t i = 0; i < n; i += 16) _mm_prefetch(reinterpret_cast<const char*>(p + kPrefetchAhead + i), _MM_HINT_T0);
#else
    (void)p;
    (void)n;
#endif
}

#if DW_EXP_AVX512
// exp(x) = 2^n * 2^f with n = round(x log2 e) and f = x log2 e - n in
// [-1/2, 1/2]. log2 e is split in two floats so f keeps its accuracy when
// |x| is large (with one float, f is off by |x| times log2 e's rounding: 23
// ulp of exp near |x| = 87); 2^f is a degree-5 minimax polynomial (relative
// error 7.5e-8 before rounding) and vscalefps applies 2^n, saturating to 0
// or inf by itself. Ten instructions against the portable path's sixteen.
inline void vexp(VF& xv) {
    const __m512 x = (__m512)xv;
    const __m512 log2eHi = _mm512_set1_ps(1.44269502162933349609375f);
    const __m512 log2eLo = _mm512_set1_ps(1.92596298909109e-8f);
    const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, log2eHi), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __m512 f = _mm512_fmadd_ps(x, log2eLo, _mm512_fmsub_ps(x, log2eHi, n));
    __m512 p = _mm512_set1_ps(1.3276471979e-3f);
    p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(9.6755413342e-3f));
    p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(5.5507132735e-2f));
    p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(2.4022119724e-1f));
    p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(6.9314696706e-1f));
    p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(1.0000000717f));
    xv = (VF)_mm512_scalef_ps(p, n);
}
#else
// Cephes expf on a vector: exp(x) = 2^n * exp(r), |r| <= ln2/2.
inline void vexp(VF& x) {
    x = x < 88.3f ? x : VF{} + 88.3f;
    x = x > -87.3f ? x : VF{} - 87.3f;
    const VF magic = VF{} + 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer
    const VF fn = (x * 1.44269504088896341f + magic) - magic;
    const VF r = x - fn * 0.693359375f - fn * -2.12194440e-4f;
    VF p = VF{} + 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * r * r + r + 1.0f;
    const VI e = (__builtin_convertvector(fn, VI) + 127) << 23;
    x = p * (VF)e; // a vector cast keeps the bits: 2^n as a float
}
#endif
#endif

#if VEC > 1
constexpr int64_t kMaxEdgeTaps = 64;

// silu from v and e = exp(-v): v / (1 + e).
inline VF siluOf(const VF& v, const VF& e) {
#if DW_RCP
    const __m512 d = _mm512_add_ps((__m512)e, _mm512_set1_ps(1.0f));
    __m512 r = _mm512_rcp14_ps(d);
    // One Newton step: r = r * (2 - d * r).
    r = _mm512_mul_ps(r, _mm512_fnmadd_ps(d, r, _mm512_set1_ps(2.0f)));
    return (VF)_mm512_mul_ps((__m512)v, r);
#else
    return v / (1.0f + e);
#endif
}

// A vector of outputs to an aligned address: non-temporal with STREAM.
inline void put(float* p, const VF& v) {
#if DW_NT
    const float* lanes = reinterpret_cast<const float*>(&v);
    for (int i = 0; i < VEC; i += 8) _mm256_stream_ps(p + i, _mm256_loadu_ps(lanes + i));
#else
    at(p) = v;
#endif
}

// One vector of outputs t .. t+VEC-1 away from the head (t >= K-1).
inline VF silu(const float* base, const float* wc, float bc, int64_t k, int64_t t) {
    VF v = VF{} + bc;
    for (int64_t j = 0; j < k; ++j) v += wc[j] * at(base + t + j);
    VF e = -v;
    vexp(e);
    return siluOf(v, e);
}

// silu(bias + taps) for the outputs t .. t+n-1 (n <= VEC) at a row's edges:
// the inputs, zero-padded on both sides, are copied to a small buffer so the
// head (which reads the causal padding) and the tail (shorter than a vector)
// take the vector exp too, instead of one scalar libm call per output.
inline void edgeVector(const float* xr, const float* wc, float bc, float* yr, int64_t L, int64_t k, int64_t t, int64_t n) {
    float xin[VEC + kMaxEdgeTaps];
    for (int64_t j = 0; j < VEC + k - 1; ++j) {
        const int64_t s = t - (k - 1) + j;
        xin[j] = s >= 0 && s < L ? xr[s] : 0.0f;
    }
    const VF out = silu(xin, wc, bc, k, 0);
    for (int64_t i = 0; i < n; ++i) yr[t + i] = out[i];
}
#endif

#if DW_FLAT
// VEC = 16 on AVX-512 walks y as one flat stream of 64-byte-aligned vectors
// rather than row by row. Rows of y follow each other in memory, so every
// store of the walk is aligned (and can be non-temporal) whatever L is; a row
// walk must instead finish each row with a head and tail of partial vectors,
// which costs as much as the row's body when rows are short (L = 200 is 12
// vectors: 330 -> 211 us with STREAM on).
// A vector inside one row, past its K-1 padded outputs, takes the plain path
// (broadcast taps, unmasked loads); a vector that straddles two rows or reads
// the padding blends the two rows' taps and zeroes the padded inputs with
// masked loads (masked-off lanes never touch memory, so nothing is read
// before x or past its end). Needs L >= 16: a vector then spans <= 2 rows.

// A whole vector of outputs to a 64-byte-aligned address.
inline void putAligned(float* p, __m512 v) {
#if DW_NT
    _mm512_stream_ps(p, v);
#else
    _mm512_store_ps(p, v);
#endif
}

inline __mmask16 lanesFrom(int64_t n) { return n <= 0 ? 0xFFFF : n >= 16 ? 0 : static_cast<__mmask16>(0xFFFF << n); }

// Outputs at flat index f .. f+15 of y, f a multiple of 16 floats past y's
// 64-byte boundary (negative before y starts). Lane a = max(0, -f) is output
// t0 of row r; lanes before it and past N are left alone.
inline void flatEdge(const float* x, const float* w, const float* bias, float* y, int64_t C, int64_t L, int64_t k,
                     int64_t N, int64_t f, int64_t r, int64_t t0) {
    const int64_t a = f < 0 ? -f : 0;
    const int64_t b = a + (L - t0);  // first lane of row r + 1
    const __mmask16 valid = static_cast<__mmask16>(lanesFrom(a) & ~lanesFrom(N - f));
    const __mmask16 next = static_cast<__mmask16>(valid & lanesFrom(b));
    const int64_t c = r % C, c2 = (r + 1) % C;
    __m512 v = _mm512_mask_blend_ps(next, _mm512_set1_ps(bias[c]), _mm512_set1_ps(bias[c2]));
    // x + f - (k-1) + j may point before x: only the lanes in `m` are read.
    const uintptr_t xf = reinterpret_cast<uintptr_t>(x) + static_cast<uintptr_t>(f - (k - 1)) * sizeof(float);
    for (int64_t j = 0; j < k; ++j) {
        // Lane i reads its row's input t - (K-1) + j: zero while that is < 0.
        const __mmask16 m = static_cast<__mmask16>((valid & ~next & lanesFrom(a + (k - 1 - j) - t0)) |
                                                   (next & lanesFrom(b + (k - 1 - j))));
        const __m512 xv = _mm512_maskz_loadu_ps(m, reinterpret_cast<const float*>(xf + j * sizeof(float)));
        const __m512 wv = _mm512_mask_blend_ps(next, _mm512_set1_ps(w[c * k + j]), _mm512_set1_ps(w[c2 * k + j]));
        v = _mm512_fmadd_ps(wv, xv, v);
    }
    VF e = -(VF)v;
    vexp(e);
    const __m512 out = (__m512)siluOf((VF)v, e);
    // Before y starts (f < 0) only the lanes in `valid` are written.
    float* const yf = reinterpret_cast<float*>(reinterpret_cast<uintptr_t>(y) + static_cast<uintptr_t>(f) * sizeof(float));
    if (valid == 0xFFFF) putAligned(yf, out);
    else _mm512_mask_storeu_ps(yf, valid, out);
}

// The flat chunks [fBegin, fEnd) (multiples of 16 from y's first 64-byte
// boundary; the last may pass N), row and time of fBegin tracked as it goes.
// Inside a row the plain vectors run as a counted loop with the row's taps
// and bias loop-invariant, as in a row walk.
template <int KK>
void flatRange(const float* x, const float* w, const float* bias, float* y, int64_t C, int64_t L, int64_t K,
               int64_t N, int64_t fBegin, int64_t fEnd) {
    const int64_t k = KK ? KK : K;
    int64_t f = fBegin;
    const int64_t first = f < 0 ? 0 : f;
    int64_t r = first / L, t0 = first - r * L, c = r % C;
    constexpr int64_t kStep = VEC * UNROLL;
    while (f < fEnd) {
        int64_t n = 0; // outputs of row r done in this pass
        if (f >= 0 && t0 >= k - 1) {
            // The whole vectors left in this row and this range.
            const int64_t run = (L - t0 < fEnd - f ? L - t0 : fEnd - f) / VEC * VEC;
            const float* base = x + f - (k - 1);
            float* const out = y + f;
            const float* wc = w + c * k;
            const float bc = bias[c];
            // The row walk's main-loop step, written out again: a helper
            // shared by both walks measured 8-10% slower on the mamba shape
            // here (GCC 12 did not inline it, and forced inline still lost).
            for (; n + kStep <= run; n += kStep) {
                VF v[UNROLL];
                for (int u = 0; u < UNROLL; ++u) v[u] = VF{} + bc;
                prefetchAhead(base + n, kStep);
                for (int64_t j = 0; j < k; ++j)
                    for (int u = 0; u < UNROLL; ++u) v[u] += wc[j] * at(base + n + u * VEC + j);
                VF e[UNROLL];
                for (int u = 0; u < UNROLL; ++u) {
                    e[u] = -v[u];
                    vexp(e[u]);
                }
                for (int u = 0; u < UNROLL; ++u) putAligned(out + n + u * VEC, (__m512)siluOf(v[u], e[u]));
            }
            for (; n < run; n += VEC) putAligned(out + n, (__m512)silu(base, wc, bc, k, n));
        }
        if (n == 0) {
            // A vector that reads the padding or crosses into the next row.
            flatEdge(x, w, bias, y, C, L, k, N, f, r, t0);
            n = f < 0 ? VEC + f : VEC; // the lanes from row r's output t0 on
        }
        f += f < 0 ? VEC : n;
        t0 += n;
        if (t0 >= L) {
            t0 -= L;
            ++r;
            if (++c == C) c = 0;
        }
    }
}
#endif

template <int KK>
void row(const float* xr, const float* wc, float bc, float* yr, int64_t L, int64_t K) {
    const int64_t k = KK ? KK : K;
    int64_t t = 0;
#if VEC > 1
    const bool edgesVectorized = k <= kMaxEdgeTaps;
    // Head: the first K-1 outputs read the zero padding.
    int64_t headEnd = k - 1;
#if DW_NT
    // Up to the first 64-byte boundary of y at or after K-1: aligned stores from there on.
    while (headEnd < L && reinterpret_cast<uintptr_t>(yr + headEnd) % 64 != 0) ++headEnd;
    if (!edgesVectorized) headEnd = k - 1;
#endif
    if (edgesVectorized)
        while (t < L && t < headEnd) {
            // Whole vectors, except the last one stops at headEnd with STREAM.
            int64_t n = L - t < VEC ? L - t : VEC;
#if DW_NT
            n = headEnd - t < n ? headEnd - t : n;
#endif
            edgeVector(xr, wc, bc, yr, L, k, t, n);
            t += n;
        }
#endif
    for (; t < L && t < k - 1; ++t) yr[t] = outScalar<KK>(xr, wc, bc, t, K);
#if VEC > 1
    const float* base = xr - (k - 1);  // base[t + j] = x[t-(K-1)+j], valid for t >= K-1
    for (; t + VEC * UNROLL <= L; t += VEC * UNROLL) {
        VF v[UNROLL];
        for (int u = 0; u < UNROLL; ++u) v[u] = VF{} + bc;
        prefetchAhead(base + t, VEC * UNROLL);
        for (int64_t j = 0; j < k; ++j)
            for (int u = 0; u < UNROLL; ++u) v[u] += wc[j] * at(base + t + u * VEC + j);
        VF e[UNROLL];
        for (int u = 0; u < UNROLL; ++u) {
            e[u] = -v[u];
            vexp(e[u]);
        }
#if DW_NT
        if (reinterpret_cast<uintptr_t>(yr + t) % 64 == 0) {
            for (int u = 0; u < UNROLL; ++u) put(yr + t + u * VEC, siluOf(v[u], e[u]));
            continue;
        }
#endif
        for (int u = 0; u < UNROLL; ++u) at(yr + t + u * VEC) = siluOf(v[u], e[u]);
    }
#else
    for (; t + UNROLL <= L; t += UNROLL) {
        float v[UNROLL];
        for (int u = 0; u < UNROLL; ++u) v[u] = bc;
        for (int64_t j = 0; j < k; ++j)
            for (int u = 0; u < UNROLL; ++u) v[u] += wc[j] * xr[t + u - (k - 1) + j];
        for (int u = 0; u < UNROLL; ++u) yr[t + u] = siluScalar(v[u]);
    }
#endif
#if VEC > 1
    for (; t + VEC <= L; t += VEC) at(yr + t) = silu(base, wc, bc, k, t);
    // Tail shorter than a vector: recompute the row's last full vector (the
    // overlap rewrites identical values), or pad when the row is that short.
    if (t < L && L - VEC >= k - 1) at(yr + L - VEC) = silu(base, wc, bc, k, L - VEC);
    else if (edgesVectorized)
        for (; t < L; t += VEC) edgeVector(xr, wc, bc, yr, L, k, t, L - t < VEC ? L - t : VEC);
    t = L > t ? L : t;
#endif
    for (; t < L; ++t) yr[t] = outScalar<KK>(xr, wc, bc, t, K);
}

}  // namespace

void dwconv1d_silu(const float* x, const float* w, const float* bias, float* y, int64_t B, int64_t C, int64_t L,
                   int64_t K) {
#if DW_FLAT
    const int64_t N = B * C * L;
    const uintptr_t misalign = reinterpret_cast<uintptr_t>(y) % 64;
    if (L >= VEC && misalign % sizeof(float) == 0 && N > 0) {
        const int64_t fBegin = -static_cast<int64_t>(misalign / sizeof(float));
        const int64_t chunks = (N - fBegin + VEC - 1) / VEC;
#if THREADS > 1
#pragma omp parallel num_threads(THREADS)
#endif
        {
            int64_t part = 0, parts = 1;
#if THREADS > 1
            part = omp_get_thread_num();
            parts = omp_get_num_threads();
#endif
            const int64_t lo = fBegin + chunks * part / parts * VEC, hi = fBegin + chunks * (part + 1) / parts * VEC;
#if FIXED_K
            if (K == 4) flatRange<4>(x, w, bias, y, C, L, K, N, lo, hi);
            else
#endif
                flatRange<0>(x, w, bias, y, C, L, K, N, lo, hi);
#if DW_NT
            _mm_sfence();
#endif
        }
        return;
    }
#endif
#if THREADS > 1
#pragma omp parallel num_threads(THREADS)
#endif
    {
#if THREADS > 1
#pragma omp for schedule(static)
#endif
        for (int64_t bc = 0; bc < B * C; ++bc) {
            const int64_t c = bc % C;
#if FIXED_K
            if (K == 4) {
                row<4>(x + bc * L, w + c * K, bias[c], y + bc * L, L, K);
                continue;
            }
#endif
            row<0>(x + bc * L, w + c * K, bias[c], y + bc * L, L, K);
        }
#if DW_NT
        _mm_sfence(); // non-temporal stores are weakly ordered: each thread fences its own
#endif
    }
}
