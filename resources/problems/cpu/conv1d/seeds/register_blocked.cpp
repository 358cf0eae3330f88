// Dense conv1d (k = 3, pad 1) seed: register-blocked direct convolution.
//
// Per batch the convolution is a small GEMM, y[b] (Cout x L) = W (Cout x 3Cin)
// times the im2col of x[b]. Instead of materializing im2col, x[b] is copied
// once into rows padded with zeros (one in front, the rest behind up to a
// whole number of vector tiles), so the three taps are plain unaligned loads of
// the same padded row at offsets 0, 1, 2 and no bounds checks remain. A tile
// of CO output channels x TU vectors of VEC time steps is kept in registers:
// each input vector loaded is reused by CO channels, each broadcast weight by
// TU vectors.
//
// Defaults are the plain variant (narrow vectors, one channel, one vector, one
// thread): finding the tuned configuration is the search's job.
// @kw-param VEC: 4 | 8 | 16 = 4
// @kw-param CO: 1 | 2 | 4 | 8 = 1
// @kw-param TU: 1 | 2 = 1
// @kw-param THREADS: 1 | 2 = 1
//
// VEC      floats per vector (4 = SSE, 8 = AVX2, 16 = AVX-512). GCC vector
//          extensions split a vector wider than the enabled ISA, so every
//          width is correct on every x86-64 target.
// CO       output channels per register tile.
// TU       vectors of time steps per register tile.
// THREADS  OpenMP threads over (batch, channel block, time tile) tiles.
#include <cstdint>
#include <vector>

#ifndef VEC
#define VEC 4
#endif
#ifndef CO
#define CO 1
#endif
#ifndef TU
#define TU 1
#endif
#ifndef THREADS
#define THREADS 1
#endif

namespace {

typedef float VF __attribute__((vector_size(VEC * sizeof(float))));
typedef float VFu __attribute__((vector_size(VEC * sizeof(float)), aligned(alignof(float))));
inline const VFu& at(const float* p) { return *reinterpret_cast<const VFu*>(p); }
inline VFu& at(float* p) { return *reinterpret_cast<VFu*>(p); }

constexpr int64_t kTW = VEC * TU;  // time steps per tile

// One tile: channels [o, o+R), time [t, t+kTW) of batch b; xp is the padded
// x[b] (row stride S, xp[i*S + 1 + s] = x[b,i,s]).
template <int R>
void tile(const float* xp, int64_t S, const float* w, const float* bias, float* yb, int64_t Cin, int64_t L, int64_t o,
          int64_t t) {
    VF acc[R][TU];
    for (int r = 0; r < R; ++r)
        for (int u = 0; u < TU; ++u) acc[r][u] = VF{} + bias[o + r];
    for (int64_t i = 0; i < Cin; ++i) {
        const float* xr = xp + i * S + t;
        for (int k = 0; k < 3; ++k) {
            VF xv[TU];
            for (int u = 0; u < TU; ++u) xv[u] = at(xr + u * VEC + k);
            for (int r = 0; r < R; ++r) {
                const float wv = w[((o + r) * Cin + i) * 3 + k];
                for (int u = 0; u < TU; ++u) acc[r][u] += wv * xv[u];
            }
        }
    }
    if (t + kTW <= L) {
        for (int r = 0; r < R; ++r)
            for (int u = 0; u < TU; ++u) at(yb + (o + r) * L + t + u * VEC) = acc[r][u];
    } else {  // the last, partial tile: only L - t outputs are real
        for (int r = 0; r < R; ++r) {
            float tmp[kTW];
            for (int u = 0; u < TU; ++u) at(tmp + u * VEC) = acc[r][u];
            for (int64_t s = 0; s < L - t; ++s) yb[(o + r) * L + t + s] = tmp[s];
        }
    }
}

}  // namespace

void conv1d(const float* x, const float* w, const float* bias, float* y, int64_t B, int64_t Cin, int64_t Cout,
            int64_t L) {
    const int64_t tilesT = (L + kTW - 1) / kTW;
    const int64_t S = tilesT * kTW + 2;  // 1 zero in front, zeros behind up to the last tile + 1
    std::vector<float> xp(static_cast<size_t>(B * Cin * S));
    const int64_t blocksO = (Cout + CO - 1) / CO;
    const int64_t tasks = B * blocksO * tilesT;
#if THREADS > 1
#pragma omp parallel num_threads(THREADS)
#endif
    {
#if THREADS > 1
#pragma omp for schedule(static)
#endif
        for (int64_t bi = 0; bi < B * Cin; ++bi) {
            float* d = xp.data() + bi * S;
            const float* s = x + bi * L;
            d[0] = 0.f;
            for (int64_t j = 0; j < L; ++j) d[1 + j] = s[j];
            for (int64_t j = L + 1; j < S; ++j) d[j] = 0.f;
        }
#if THREADS > 1
#pragma omp for schedule(static)
#endif
        for (int64_t task = 0; task < tasks; ++task) {
            const int64_t b = task / (blocksO * tilesT);
            const int64_t ob = (task / tilesT) % blocksO;
            const int64_t t = (task % tilesT) * kTW;
            const float* xb = xp.data() + b * Cin * S;
            float* yb = y + b * Cout * L;
            const int64_t o = ob * CO;
            if (o + CO <= Cout) {
                tile<CO>(xb, S, w, bias, yb, Cin, L, o, t);
            } else {
                for (int64_t r = o; r < Cout; ++r) tile<1>(xb, S, w, bias, yb, Cin, L, r, t);
            }
        }
    }
}
