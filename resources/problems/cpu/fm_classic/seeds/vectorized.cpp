// Classic FM seed: vectorize over the embedding dimension d.
//
// The reference walks down the F fields with stride D for every single d, in
// double, one (b, d) at a time. Here a d-chunk of VEC lanes is accumulated
// over all fields at once: per lane a running field sum s and sum of squares
// q, both f32. ACC independent (s, q) pairs split the fields round-robin so
// the add chain pipelines; ROWS batch samples are processed together for more
// independent work per loop iteration. The per-lane s*s - q terms are folded
// into one vector and reduced once per sample.
//
// Defaults are the plain variant (scalar / narrow, no unrolling, one thread):
// finding the tuned configuration is the search's job.
// @kw-param VEC: 1 | 4 | 8 | 16 = 1
// @kw-param ACC: 1 | 2 | 4 = 1
// @kw-param ROWS: 1 | 2 = 1
// @kw-param THREADS: 1 | 2 = 1
// @kw-param ORDER: enum(fields_inner, fields_outer) = fields_inner
// @kw-param PREFETCH: 0 | 4096 | 16384 = 0
//
// VEC     floats per vector (1 = scalar, 4 = SSE, 8 = AVX2, 16 = AVX-512). GCC/Clang
//         vector extensions: a width the enabled ISA lacks is split by the compiler,
//         so every value builds and is correct on every x86-64 target.
// ACC     independent (sum, sum of squares) accumulator pairs over the fields.
// ROWS    batch samples processed side by side.
// THREADS OpenMP threads over batch samples.
// ORDER   fields_inner: for each d-chunk, walk down the F fields (stride D), the
//         sums stay in registers but the sample is read column-wise, F lines at
//         once. fields_outer: read the sample in memory order, one field row
//         after another, accumulating into per-d sums kept in a small L1 block
//         of DBLOCK columns (a single sequential stream the prefetcher follows).
// PREFETCH fields_outer: software-prefetch this many bytes ahead of the row
//         being read (0: none). Where the hardware prefetcher stops at page
//         boundaries or ramps up slowly, this keeps more misses in flight.
#include <cstdint>

#ifndef VEC
#define VEC 1
#endif
#ifndef ACC
#define ACC 1
#endif
#ifndef ROWS
#define ROWS 1
#endif
#ifndef THREADS
#define THREADS 1
#endif
#define fields_inner 0
#define fields_outer 1
#ifndef ORDER
#define ORDER fields_inner
#endif
#ifndef PREFETCH
#define PREFETCH 0
#endif

namespace {

#if VEC > 1
typedef float VF __attribute__((vector_size(VEC * sizeof(float))));
// Same vector with float alignment: one unaligned load (rows are 4-byte aligned).
typedef float VFu __attribute__((vector_size(VEC * sizeof(float)), aligned(alignof(float))));
inline VF load(const float* p) { return *reinterpret_cast<const VFu*>(p); }
inline float hsum(const VF& v) {
    float s = 0.0f;
    for (int l = 0; l < VEC; ++l) s += v[l];
    return s;
}
#else
typedef float VF;
inline VF load(const float* p) { return *p; }
inline float hsum(VF v) { return v; }
#endif

// ROWS samples starting at xb (sample stride F*D); adds 2*interaction to tot[r].
inline void chunk(const float* xb, int64_t F, int64_t D, int64_t d, int64_t width, float* tot) {
    // width == VEC: vector lanes; width == 1: scalar tail column d.
    if (width == VEC) {
        VF s[ROWS][ACC], q[ROWS][ACC];
        for (int r = 0; r < ROWS; ++r)
            for (int a = 0; a < ACC; ++a) s[r][a] = q[r][a] = VF{};
        int64_t f = 0;
        for (; f + ACC <= F; f += ACC)
            for (int a = 0; a < ACC; ++a)
                for (int r = 0; r < ROWS; ++r) {
                    const VF v = load(xb + r * F * D + (f + a) * D + d);
                    s[r][a] += v;
                    q[r][a] += v * v;
                }
        for (; f < F; ++f)
            for (int r = 0; r < ROWS; ++r) {
                const VF v = load(xb + r * F * D + f * D + d);
                s[r][0] += v;
                q[r][0] += v * v;
            }
        for (int r = 0; r < ROWS; ++r) {
            for (int a = 1; a < ACC; ++a) {
                s[r][0] += s[r][a];
                q[r][0] += q[r][a];
            }
            tot[r] += hsum(s[r][0] * s[r][0] - q[r][0]);
        }
    } else {
        for (int r = 0; r < ROWS; ++r) {
            float s = 0.0f, q = 0.0f;
            for (int64_t f = 0; f < F; ++f) {
                const float v = xb[r * F * D + f * D + d];
                s += v;
                q += v * v;
            }
            tot[r] += s * s - q;
        }
    }
}

#if ORDER == fields_outer
constexpr int64_t DBLOCK = 256; // columns whose sums live in L1 at once (2 x 1 KiB)

// One sample in memory order: for each field row, s[d] += v, q[d] += v*v.
inline float sampleRowwise(const float* xb, int64_t F, int64_t D) {
    alignas(64) float s[DBLOCK], q[DBLOCK];
    float tot = 0.0f;
    for (int64_t d0 = 0; d0 < D; d0 += DBLOCK) {
        const int64_t w = D - d0 < DBLOCK ? D - d0 : DBLOCK;
        for (int64_t j = 0; j < w; ++j) s[j] = q[j] = 0.0f;
        for (int64_t f = 0; f < F; ++f) {
            const float* row = xb + f * D + d0;
#if PREFETCH
            // One prefetch per 64-byte line; prefetching past the end is harmless.
            for (int64_t k = 0; k < w; k += 16) __builtin_prefetch(reinterpret_cast<const char*>(row + k) + PREFETCH);
#endif
            int64_t j = 0;
#if VEC > 1
            for (; j + VEC <= w; j += VEC) {
                const VF v = load(row + j);
                VF& sv = *reinterpret_cast<VFu*>(s + j);
                VF& qv = *reinterpret_cast<VFu*>(q + j);
                sv += v;
                qv += v * v;
            }
#endif
            for (; j < w; ++j) {
                s[j] += row[j];
                q[j] += row[j] * row[j];
            }
        }
        int64_t j = 0;
#if VEC > 1
        VF acc = VF{};
        for (; j + VEC <= w; j += VEC) {
            const VF sv = load(s + j), qv = load(q + j);
            acc += sv * sv - qv;
        }
        tot += hsum(acc);
#endif
        for (; j < w; ++j) tot += s[j] * s[j] - q[j];
    }
    return tot;
}
#endif

}  // namespace

void fm_classic(const float* x, float* out, int64_t B, int64_t F, int64_t D) {
#if ORDER == fields_outer
    // ACC and ROWS shape the column-wise walk only; here the row stream is the design.
#if THREADS > 1
#pragma omp parallel for num_threads(THREADS) schedule(static)
#endif
    for (int64_t b = 0; b < B; ++b) out[b] = 0.5f * sampleRowwise(x + b * F * D, F, D);
    return;
#endif
    const int64_t groups = B / ROWS;
#if THREADS > 1
#pragma omp parallel for num_threads(THREADS) schedule(static)
#endif
    for (int64_t g = 0; g < groups; ++g) {
        const int64_t b = g * ROWS;
        float tot[ROWS] = {};
        int64_t d = 0;
        for (; d + VEC <= D; d += VEC) chunk(x + b * F * D, F, D, d, VEC, tot);
        for (; d < D; ++d) chunk(x + b * F * D, F, D, d, 1, tot);
        for (int r = 0; r < ROWS; ++r) out[b + r] = 0.5f * tot[r];
    }
    // Leftover samples (B not a multiple of ROWS): one at a time, plain scalar.
    for (int64_t b = groups * ROWS; b < B; ++b) {
        const float* xb = x + b * F * D;
        float tot = 0.0f;
        for (int64_t dd = 0; dd < D; ++dd) {
            float s = 0.0f, q = 0.0f;
            for (int64_t f = 0; f < F; ++f) {
                const float v = xb[f * D + dd];
                s += v;
                q += v * v;
            }
            tot += s * s - q;
        }
        out[b] = 0.5f * tot;
    }
}
