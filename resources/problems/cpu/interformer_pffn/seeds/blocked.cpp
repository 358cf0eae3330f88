// InterFormer PFFN seed: register-blocked GEMMs on packed per-batch weights,
// with the GELU + RMSNorm epilogues fused on small row chunks.
//
// Per batch element the work is two small GEMMs (N x D x K, then N x K x D).
// W1[b] and W2[b] are first packed into contiguous column panels one register
// tile wide, the last one padded with zeros (b1, g1, g2 are padded too), so
// the panels stream sequentially through L1 and the kernels
// have no column tails: the padded columns of h come out exactly 0 (GELU(0) =
// 0, weight 0), adding nothing to the RMS sums, which divide by the real K or D.
// Rows are processed in chunks of kChunk tokens: GEMM1 for the chunk, then bias
// + GELU + RMSNorm, then GEMM2 and the final RMSNorm, while the chunk's h is
// still in L1. Each GEMM tile keeps MR rows x NV vectors of VEC columns in
// registers: one broadcast of x (or h) per row, one weight load per vector.
//
// Defaults are the plain variant (narrow vectors, one row, one vector, libm
// erf, one thread): finding the tuned configuration is the search's job.
// @kw-param VEC: 4 | 8 | 16 = 4
// @kw-param MR: 1 | 2 | 4 = 1
// @kw-param NV: 1 | 2 = 1
// @kw-param GELU: enum(libm, poly) = libm
// @kw-param THREADS: 1 | 2 = 1
//
// VEC      floats per vector (4 = SSE, 8 = AVX2, 16 = AVX-512). GCC vector
//          extensions split a vector wider than the enabled ISA, so every
//          width is correct on every x86-64 target.
// MR       token rows per register tile.
// NV       vectors of output columns per register tile.
// GELU     libm: std::erf per element; poly: vectorized erf (Abramowitz-Stegun
//          7.1.26, |error| <= 1.5e-7, with a Cephes-style vector exp).
// THREADS  OpenMP threads over (batch element, row chunk) tasks.
#include <cmath>
#include <cstdint>
#include <vector>

#ifndef VEC
#define VEC 4
#endif
#ifndef MR
#define MR 1
#endif
#ifndef NV
#define NV 1
#endif
#ifndef GELU
#define GELU 0
#endif
#ifndef THREADS
#define THREADS 1
#endif

namespace {

typedef float VF __attribute__((vector_size(VEC * sizeof(float))));
typedef int32_t VI __attribute__((vector_size(VEC * sizeof(int32_t))));
typedef float VFu __attribute__((vector_size(VEC * sizeof(float)), aligned(alignof(float))));
inline const VFu& at(const float* p) { return *reinterpret_cast<const VFu*>(p); }
inline VFu& at(float* p) { return *reinterpret_cast<VFu*>(p); }

constexpr int64_t kTile = VEC * NV;  // columns per register tile
constexpr int64_t kChunk = 24;       // token rows per fused chunk (a multiple of MR = 1, 2, 4)

inline int64_t roundUp(int64_t a, int64_t m) { return (a + m - 1) / m * m; }

#if GELU == 1
// Cephes expf on a vector: exp(x) = 2^n * exp(r), |r| <= ln2/2.
inline VF vexp(VF x) {
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
    VF s;
    __builtin_memcpy(&s, &e, sizeof s);
    return p * s;
}
#endif

// In place: v = GELU(v) = 0.5 v (1 + erf(v / sqrt 2)).
inline void gelu(VF& v) {
#if GELU == 1
    const VF a = v * 0.70710678118654752f;
    const VF ax = a < 0.f ? -a : a;
    const VF t = 1.0f / (1.0f + 0.3275911f * ax);
    VF p = VF{} + 1.061405429f;
    p = p * t - 1.453152027f;
    p = p * t + 1.421413741f;
    p = p * t - 0.284496736f;
    p = p * t + 0.254829592f;
    const VF e = 1.0f - p * t * vexp(-ax * ax);  // erf(|a|)
    const VF erf = a < 0.f ? -e : e;
    v = 0.5f * v * (1.0f + erf);
#else
    for (int l = 0; l < VEC; ++l) v[l] = 0.5f * v[l] * (1.0f + std::erf(v[l] * 0.70710678118654752f));
#endif
}

// C[r, j:j+kTile) = A[r, 0:Inner) * panel for R rows; the panel is the packed
// Inner x kTile column block of W (contiguous). A has row stride lda, C row
// stride Cols.
template <int R>
void microTile(const float* A, int64_t lda, const float* panel, float* Cm, int64_t Inner, int64_t Cols, int64_t j) {
    VF acc[R][NV];
    for (int r = 0; r < R; ++r)
        for (int v = 0; v < NV; ++v) acc[r][v] = VF{};
    for (int64_t q = 0; q < Inner; ++q) {
        VF wv[NV];
        for (int v = 0; v < NV; ++v) wv[v] = at(panel + q * kTile + v * VEC);
        for (int r = 0; r < R; ++r) {
            const float a = A[r * lda + q];
            for (int v = 0; v < NV; ++v) acc[r][v] += a * wv[v];
        }
    }
    for (int r = 0; r < R; ++r)
        for (int v = 0; v < NV; ++v) at(Cm + r * Cols + j + v * VEC) = acc[r][v];
}

// C (rows x Cols) = A (rows x Inner) * W, W packed as Cols/kTile panels of
// Inner x kTile. Panel-outer order: one panel stays in L1 for all the rows.
void gemm(const float* A, int64_t lda, const float* Wp, float* Cm, int64_t rows, int64_t Inner, int64_t Cols) {
    for (int64_t j = 0; j < Cols; j += kTile) {
        const float* panel = Wp + j * Inner;
        int64_t r = 0;
        for (; r + MR <= rows; r += MR) microTile<MR>(A + r * lda, lda, panel, Cm + r * Cols, Inner, Cols, j);
        for (; r < rows; ++r) microTile<1>(A + r * lda, lda, panel, Cm + r * Cols, Inner, Cols, j);
    }
}

// Packs W (rows x cols) into ld/kTile panels of rows x kTile, zero-filling the
// padded columns [cols, ld).
void packPanels(const float* src, float* dst, int64_t rows, int64_t cols, int64_t ld) {
    for (int64_t j = 0; j < ld; j += kTile)
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t c = 0; c < kTile; ++c)
                dst[j * rows + r * kTile + c] = j + c < cols ? src[r * cols + j + c] : 0.f;
}

// Copies src (rows x cols) into dst (rows x ld), zero-filling columns [cols, ld).
void packPad(const float* src, float* dst, int64_t rows, int64_t cols, int64_t ld) {
    for (int64_t r = 0; r < rows; ++r) {
        for (int64_t c = 0; c < cols; ++c) dst[r * ld + c] = src[r * cols + c];
        for (int64_t c = cols; c < ld; ++c) dst[r * ld + c] = 0.f;
    }
}

}  // namespace

void interformer_pffn(const float* x, const float* W1, const float* b1, const float* g1, const float* W2,
                      const float* g2, float* y, int64_t B, int64_t N, int64_t D, int64_t K, float eps) {
    const int64_t Kp = roundUp(K, kTile), Dp = roundUp(D, kTile);
    // One workspace for the packed operands, kept between calls and only ever
    // grown: a fresh multi-megabyte allocation per call would be returned to
    // the OS on free and page-faulted back in on every call.
    static std::vector<float> ws;
    const size_t need = static_cast<size_t>(B * D * Kp + B * K * Dp + B * Kp + Kp + Dp);
    if (ws.size() < need) ws.resize(need);
    float* const w1p = ws.data();
    float* const w2p = w1p + B * D * Kp;
    float* const b1p = w2p + B * K * Dp;
    float* const g1p = b1p + B * Kp;
    float* const g2p = g1p + Kp;
    packPad(g1, g1p, 1, K, Kp);
    packPad(g2, g2p, 1, D, Dp);
    const int64_t chunks = (N + kChunk - 1) / kChunk;
#if THREADS > 1
#pragma omp parallel num_threads(THREADS)
#endif
    {
#if THREADS > 1
#pragma omp for schedule(static)
#endif
        for (int64_t b = 0; b < B; ++b) {
            packPanels(W1 + b * D * K, w1p + b * D * Kp, D, K, Kp);
            packPanels(W2 + b * K * D, w2p + b * K * Dp, K, D, Dp);
            packPad(b1 + b * K, b1p + b * Kp, 1, K, Kp);
        }
        // Per-thread chunk buffers (kChunk rows of h and z: tens of KB, L1/L2 resident).
        static thread_local std::vector<float> h, z;
        if (h.size() < static_cast<size_t>(kChunk * Kp)) h.resize(static_cast<size_t>(kChunk * Kp));
        if (z.size() < static_cast<size_t>(kChunk * Dp)) z.resize(static_cast<size_t>(kChunk * Dp));
#if THREADS > 1
#pragma omp for schedule(static)
#endif
        for (int64_t task = 0; task < B * chunks; ++task) {
            const int64_t b = task / chunks;
            const int64_t n0 = (task % chunks) * kChunk;
            const int64_t rows = N - n0 < kChunk ? N - n0 : kChunk;
            const float* xb = x + (b * N + n0) * D;
            const float* bb = b1p + b * Kp;
            gemm(xb, D, w1p + b * D * Kp, h.data(), rows, D, Kp);
            for (int64_t r = 0; r < rows; ++r) {  // bias + GELU + RMSNorm over K
                float* hr = h.data() + r * Kp;
                VF ss = VF{};
                for (int64_t k = 0; k < Kp; k += VEC) {
                    VF v = at(hr + k) + at(bb + k);
                    gelu(v);
                    ss += v * v;
                    at(hr + k) = v;
                }
                float s = 0.f;
                for (int l = 0; l < VEC; ++l) s += ss[l];
                const float sc = 1.0f / std::sqrt(s / static_cast<float>(K) + eps);
                for (int64_t k = 0; k < Kp; k += VEC) at(hr + k) = at(hr + k) * sc * at(g1p + k);
            }
            gemm(h.data(), Kp, w2p + b * K * Dp, z.data(), rows, K, Dp);
            for (int64_t r = 0; r < rows; ++r) {  // RMSNorm over D
                const float* zr = z.data() + r * Dp;
                float* yr = y + (b * N + n0 + r) * D;
                VF ss = VF{};
                for (int64_t d = 0; d < Dp; d += VEC) ss += at(zr + d) * at(zr + d);
                float s = 0.f;
                for (int l = 0; l < VEC; ++l) s += ss[l];
                const float sc = 1.0f / std::sqrt(s / static_cast<float>(D) + eps);
                int64_t d = 0;
                for (; d + VEC <= D; d += VEC) at(yr + d) = at(zr + d) * sc * at(g2p + d);
                for (; d < D; ++d) yr[d] = zr[d] * sc * g2p[d];
            }
        }
    }
}
