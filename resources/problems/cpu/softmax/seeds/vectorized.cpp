// Row softmax seed: a vectorized exp (range reduction + polynomial) over the
// row, with several independent accumulators for the max and the sum.
//
// The reference calls the scalar libm expf once per element; here exp runs on
// VEC lanes at once: n = round(x / ln2), r = x - n*ln2, exp(r) from a degree-6
// polynomial (Cephes expf, ~1 ulp on [-ln2/2, ln2/2]), times 2^n built in the
// exponent bits. Arguments are x - max <= 0; below -87.3 the result is 0.
// GCC/Clang vector extensions keep the code portable: a vector wider than the
// enabled ISA is split by the compiler, so every width is correct everywhere.
//
// Defaults are the plain variant (narrow vectors, no unrolling, one thread,
// classic three passes): finding the tuned configuration is the search's job.
// @kw-param VEC: 4 | 8 | 16 = 4
// @kw-param ACC: 1 | 2 | 4 = 1
// @kw-param ONLINE: bool = false
// @kw-param STREAM: bool = false
// @kw-param THREADS: 1 | 2 = 1
// @kw-param EXP: enum(portable, avx512) = portable
// @kw-param SCRATCH: bool = false
// @kw-param PREFETCH: 0 | 4096 | 16384 = 0
//
// VEC      floats per vector (4 = SSE, 8 = AVX2, 16 = AVX-512 register).
// ACC      independent vectors per step (max, sum and exp chains interleave).
// ONLINE   false: max pass, then y = exp(x - max) stored and summed, then a
//          scaling pass over y (one exp per element, three passes).
//          true: one pass keeps a running per-lane max and rescaled sum
//          (online softmax), then y = exp(x - max) / sum is written once
//          (two passes over memory, but two exps per element).
// STREAM   write the final pass of y with non-temporal stores.
// SCRATCH  (three passes) pass 2 keeps exp(x - max) in a row buffer on the
//          stack instead of y (rows up to 8192 floats): y is then written once,
//          by the final pass, so a plain store of y costs no read-for-ownership
//          in pass 2 and STREAM can skip the cache entirely.
// PREFETCH while a row is in its compute pass, prefetch x at least this many
//          bytes ahead and never inside the current row (already cached): the
//          next row for long rows, several rows ahead for short ones (0: none).
//          Memory then stays busy when no pass streams from it.
// THREADS  OpenMP threads over rows.
// EXP      portable: the exp below in vector extensions. avx512: with VEC = 16
//          on an AVX-512 target, the same polynomial with hardware rounding
//          (vrndscaleps), a max clamp and vscalefps for 2^n: fewer
//          instructions per vector. Elsewhere it falls back to portable.
#include <cfloat>
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
#ifndef ONLINE
#define ONLINE 0
#endif
#ifndef STREAM
#define STREAM 0
#endif
#ifndef THREADS
#define THREADS 1
#endif
#ifndef SCRATCH
#define SCRATCH 0
#endif
#ifndef PREFETCH
#define PREFETCH 0
#endif
#define portable 0
#define avx512 1
#ifndef EXP
#define EXP portable
#endif
#if EXP == avx512 && VEC == 16 && defined(__AVX512F__)
#define SM_EXP_AVX512 1
#else
#define SM_EXP_AVX512 0
#endif

// Widest non-temporal store the enabled ISA offers, in floats (0: none).
#if STREAM && defined(__AVX512F__)
#define SM_NT 16
#elif STREAM && defined(__AVX__)
#define SM_NT 8
#elif STREAM && defined(__SSE__)
#define SM_NT 4
#else
#define SM_NT 0
#endif

namespace {

typedef float VF __attribute__((vector_size(VEC * sizeof(float))));
typedef int32_t VI __attribute__((vector_size(VEC * sizeof(int32_t))));

// Unaligned views (float alignment): rows need no alignment. Vectors travel
// by reference or inline, so a VEC wider than the ISA raises no ABI warning.
typedef float VFu __attribute__((vector_size(VEC * sizeof(float)), aligned(alignof(float))));
inline const VFu& at(const float* p) { return *reinterpret_cast<const VFu*>(p); }
inline VFu& at(float* p) { return *reinterpret_cast<VFu*>(p); }

#if SM_EXP_AVX512
// exp(x) for x <= 0: the polynomial below, 2^n applied by vscalefps.
inline VF vexp(const VF& xv) {
    const __m512 x = (__m512)xv;
    const __m512 lo = _mm512_set1_ps(-87.3f);
    const __m512 xc = _mm512_max_ps(x, lo);
    const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(xc, _mm512_set1_ps(1.44269504088896341f)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), xc);
    r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
    __m512 p = _mm512_set1_ps(1.9875691500e-4f);
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.3981999507e-3f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3334519073e-3f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1665795894e-2f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666665459e-1f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000001201e-1f));
    p = _mm512_fmadd_ps(p, _mm512_mul_ps(r, r), _mm512_add_ps(r, _mm512_set1_ps(1.0f)));
    // Below -87.3 the result is 0, as in the portable version.
    return (VF)_mm512_maskz_mov_ps(_mm512_cmp_ps_mask(x, lo, _CMP_GE_OQ), _mm512_scalef_ps(p, n));
}
#else
// exp(x) for x <= 0 (x - rowmax); 0 below -87.3 (where 2^n leaves the normals).
inline VF vexp(const VF& x) {
    const VF lo = VF{} - 87.3f;
    const VF xc = x < lo ? lo : x;
    // Round x*log2(e) to the nearest integer with the 1.5*2^23 trick.
    const VF shift = VF{} + 12582912.0f;
    const VF t = xc * 1.44269504088896341f + shift;
    const VF n = t - shift;
    VF r = xc - n * 0.693359375f;
    r = r - n * -2.12194440e-4f;
    VF p = VF{} + 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    const VF e = p * r * r + r + 1.0f;
    const VI bits = (__builtin_convertvector(n, VI) + 127) << 23;
    const VF scale = (VF)bits;
    const VF res = e * scale;
    return x < lo ? VF{} : res;
}
#endif

inline float sexp(float x) { return x < -87.3f ? 0.0f : std::exp(x); }

constexpr int64_t kScratch = 8192; // floats of the SCRATCH row buffer (32 KiB of stack)

inline VF vmax(const VF& a, const VF& b) { return a > b ? a : b; }

// Horizontal reductions: a shuffle tree on AVX-512 (short rows pay these once
// per row, so a lane-by-lane loop shows), a lane loop elsewhere.
#if VEC == 16 && defined(__AVX512F__)
inline float hmax(const VF& v) { return _mm512_reduce_max_ps((__m512)v); }
inline float hsum(const VF& v) { return _mm512_reduce_add_ps((__m512)v); }
#else
inline float hmax(const VF& v) {
    float m = v[0];
    for (int l = 1; l < VEC; ++l) m = v[l] > m ? v[l] : m;
    return m;
}

inline float hsum(const VF& v) {
    float s = 0.0f;
    for (int l = 0; l < VEC; ++l) s += v[l];
    return s;
}
#endif

#if SM_NT
#if VEC < SM_NT
#define SM_NT_STEP VEC
#else
#define SM_NT_STEP SM_NT
#endif
inline void streamStore(float* p, const VF& v) {
    const float* lanes = reinterpret_cast<const float*>(&v);
    for (int i = 0; i < VEC; i += SM_NT_STEP) {
#if SM_NT_STEP == 16
        __m512 t;
        std::memcpy(&t, lanes + i, sizeof t);
        _mm512_stream_ps(p + i, t);
#elif SM_NT_STEP == 8
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

// Final pass: yr[n] = f(n) for every n, where vf/sf compute a vector / a scalar.
template <class VFn, class SFn>
inline void writeRow(float* yr, int64_t N, VFn vf, SFn sf) {
    int64_t n = 0;
#if SM_NT
    for (; n < N && reinterpret_cast<uintptr_t>(yr + n) % (SM_NT_STEP * sizeof(float)) != 0; ++n) yr[n] = sf(n);
    for (; n + VEC <= N; n += VEC) streamStore(yr + n, vf(n));
#else
    for (; n + VEC * ACC <= N; n += VEC * ACC)
        for (int a = 0; a < ACC; ++a) at(yr + n + a * VEC) = vf(n + a * VEC);
    for (; n + VEC <= N; n += VEC) at(yr + n) = vf(n);
#endif
    for (; n < N; ++n) yr[n] = sf(n);
}

void row(const float* xr, float* yr, int64_t N) {
#if !ONLINE
    // Pass 1: the row maximum.
    float mx = xr[0];
    int64_t n = 0;
    if (N >= VEC) {
        VF m[ACC];
        for (int a = 0; a < ACC; ++a) m[a] = at(xr);
        for (; n + VEC * ACC <= N; n += VEC * ACC)
            for (int a = 0; a < ACC; ++a) m[a] = vmax(m[a], at(xr + n + a * VEC));
        for (; n + VEC <= N; n += VEC) m[0] = vmax(m[0], at(xr + n));
        for (int a = 1; a < ACC; ++a) m[0] = vmax(m[0], m[a]);
        mx = hmax(m[0]);
    }
    for (; n < N; ++n) mx = xr[n] > mx ? xr[n] : mx;

    // Pass 2: e = exp(x - max), summed, kept in y or in the scratch row.
#if SCRATCH
    alignas(64) float scratch[kScratch];
    float* er = N <= kScratch ? scratch : yr;
#else
    float* er = yr;
#endif
    const VF vmx = VF{} + mx;
#if PREFETCH
    const int64_t pfDistance = N > PREFETCH / 4 ? N : PREFETCH / 4;
#endif
    VF s[ACC];
    for (int a = 0; a < ACC; ++a) s[a] = VF{};
    n = 0;
    for (; n + VEC * ACC <= N; n += VEC * ACC) {
#if PREFETCH
        // One prefetch per cache line (16 floats).
        for (int64_t p = n; p < n + VEC * ACC; p += 16) __builtin_prefetch(xr + p + pfDistance, 0, 3);
#endif
        for (int a = 0; a < ACC; ++a) {
            const VF e = vexp(at(xr + n + a * VEC) - vmx);
            at(er + n + a * VEC) = e;
            s[a] += e;
        }
    }
    for (; n + VEC <= N; n += VEC) {
        const VF e = vexp(at(xr + n) - vmx);
        at(er + n) = e;
        s[0] += e;
    }
    for (int a = 1; a < ACC; ++a) s[0] += s[a];
    float sum = hsum(s[0]);
    for (; n < N; ++n) {
        const float e = sexp(xr[n] - mx);
        er[n] = e;
        sum += e;
    }

    // Pass 3: y = e / sum.
    const float inv = 1.0f / sum;
    const VF vinv = VF{} + inv;
    writeRow(yr, N, [&](int64_t i) -> VF { return at(er + i) * vinv; },
             [&](int64_t i) { return er[i] * inv; });
#else
    // Pass 1 (online): per-lane running max m and sum s of exp(x - m); when a
    // lane's max grows, its sum is rescaled by exp(m_old - m_new).
    VF m[ACC], s[ACC];
    for (int a = 0; a < ACC; ++a) {
        m[a] = VF{} - FLT_MAX;  // finite, so m_old - m_new never is inf - inf
        s[a] = VF{};
    }
    int64_t n = 0;
    for (; n + VEC * ACC <= N; n += VEC * ACC)
        for (int a = 0; a < ACC; ++a) {
            const VF v = at(xr + n + a * VEC);
            const VF mn = vmax(m[a], v);
            s[a] = s[a] * vexp(m[a] - mn) + vexp(v - mn);
            m[a] = mn;
        }
    for (; n + VEC <= N; n += VEC) {
        const VF v = at(xr + n);
        const VF mn = vmax(m[0], v);
        s[0] = s[0] * vexp(m[0] - mn) + vexp(v - mn);
        m[0] = mn;
    }
    // Merge lanes and accumulators, then the scalar tail.
    float mx = -FLT_MAX;
    for (int a = 0; a < ACC; ++a) mx = hmax(m[a]) > mx ? hmax(m[a]) : mx;
    for (int64_t i = n; i < N; ++i) mx = xr[i] > mx ? xr[i] : mx;
    const VF vmx = VF{} + mx;
    VF st = VF{};
    for (int a = 0; a < ACC; ++a) st += s[a] * vexp(m[a] - vmx);
    float sum = hsum(st);
    for (; n < N; ++n) sum += sexp(xr[n] - mx);

    // Pass 2: y = exp(x - max) / sum.
    const float inv = 1.0f / sum;
    const VF vinv = VF{} + inv;
    writeRow(yr, N, [&](int64_t i) -> VF { return vexp(at(xr + i) - vmx) * vinv; },
             [&](int64_t i) { return sexp(xr[i] - mx) * inv; });
#endif
}

}  // namespace

void softmax(const float* x, float* y, int64_t M, int64_t N) {
#if THREADS > 1
#pragma omp parallel num_threads(THREADS)
#endif
    {
#if THREADS > 1
#pragma omp for schedule(static)
#endif
        for (int64_t m = 0; m < M; ++m) row(x + m * N, y + m * N, N);
#if SM_NT
        // Non-temporal stores are weakly ordered: each thread fences its own.
        _mm_sfence();
#endif
    }
}
