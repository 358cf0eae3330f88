// WuKong FM seed: two register-blocked small matrix products per batch item.
//
// out[b] = X (X^T Y) is two small GEMMs per batch item. Each is computed by one
// micro-kernel: an MR x (KU*VEC) tile of the result lives in registers while
// the reduction dimension streams through; a row of the right-hand matrix is
// loaded once per step and reused by MR broadcast elements of the left one.
// ORDER picks the association:
//   xt_y_first  T = X^T Y (D x K), then out = X T           4*N*D*K flops
//   gram_first  G = X X^T (N x N), then out = G Y           2*N*N*(D+K) flops
// The Gram order is much cheaper when N is small against D and K (N=24..48,
// D=224); it needs X^T in a scratch buffer so both products read rows.
// Accumulation is f32 (the problem's tolerance allows reordered f32 sums).
//
// Defaults are the plain variant (the operator's own association, narrow
// vectors, no register blocking, one thread): finding the tuned configuration
// is the search's job.
// @kw-param ORDER: enum(xt_y_first, gram_first) = xt_y_first
// @kw-param VEC: 4 | 8 | 16 = 4
// @kw-param MR: 1 | 4 = 1
// @kw-param KU: 1 | 2 = 1
// @kw-param THREADS: 1 | 2 = 1
//
// VEC     floats per vector (4 = SSE, 8 = AVX2, 16 = AVX-512). GCC/Clang vector
//         extensions: a width the enabled ISA lacks is split by the compiler.
// MR      rows of the result per register tile.
// KU      vectors along the result's columns per register tile.
// THREADS OpenMP threads over batch items (each with its own scratch).
#include <cstdint>
#include <vector>

#ifndef ORDER
#define ORDER 0
#endif
#ifndef VEC
#define VEC 4
#endif
#ifndef MR
#define MR 1
#endif
#ifndef KU
#define KU 1
#endif
#ifndef THREADS
#define THREADS 1
#endif

namespace {

typedef float VF __attribute__((vector_size(VEC * sizeof(float))));
// Same vector with float alignment: one unaligned load/store. Vectors travel
// by reference or stay local, so a VEC wider than the ISA raises no ABI warning.
typedef float VFu __attribute__((vector_size(VEC * sizeof(float)), aligned(alignof(float))));
inline const VFu& at(const float* p) { return *reinterpret_cast<const VFu*>(p); }
inline VFu& at(float* p) { return *reinterpret_cast<VFu*>(p); }

// C[i, j] = sum_p A(i, p) * Bm[p, j] for rows i0 .. i0+R, all NC columns.
// A(i, p) = A[i*ars + p*acs]; Bm is P x NC row-major (ldb); C row-major (ldc).
template <int R, int U>
inline void columnTiles(const float* A, int64_t ars, int64_t acs, const float* Bm, int64_t ldb, float* C, int64_t ldc,
                        int64_t i0, int64_t& j, int64_t NC, int64_t P) {
    for (; j + U * VEC <= NC; j += U * VEC) {
        VF acc[R][U];
        for (int r = 0; r < R; ++r)
            for (int u = 0; u < U; ++u) acc[r][u] = VF{};
        for (int64_t p = 0; p < P; ++p) {
            VF bv[U];
            for (int u = 0; u < U; ++u) bv[u] = at(Bm + p * ldb + j + u * VEC);
            for (int r = 0; r < R; ++r) {
                const VF a = VF{} + A[(i0 + r) * ars + p * acs];
                for (int u = 0; u < U; ++u) acc[r][u] += a * bv[u];
            }
        }
        for (int r = 0; r < R; ++r)
            for (int u = 0; u < U; ++u) at(C + (i0 + r) * ldc + j + u * VEC) = acc[r][u];
    }
}

template <int R>
inline void rowTile(const float* A, int64_t ars, int64_t acs, const float* Bm, int64_t ldb, float* C, int64_t ldc,
                    int64_t i0, int64_t NC, int64_t P) {
    int64_t j = 0;
    columnTiles<R, KU>(A, ars, acs, Bm, ldb, C, ldc, i0, j, NC, P);
    columnTiles<R, 1>(A, ars, acs, Bm, ldb, C, ldc, i0, j, NC, P);  // fewer than KU vectors left
    for (; j < NC; ++j)                                                // fewer than VEC columns left
        for (int r = 0; r < R; ++r) {
            float s = 0.0f;
            for (int64_t p = 0; p < P; ++p) s += A[(i0 + r) * ars + p * acs] * Bm[p * ldb + j];
            C[(i0 + r) * ldc + j] = s;
        }
}

// C (M x NC) = A (M x P, strides ars/acs) * Bm (P x NC).
void gemm(const float* A, int64_t ars, int64_t acs, const float* Bm, int64_t ldb, float* C, int64_t ldc, int64_t M,
          int64_t NC, int64_t P) {
    int64_t i = 0;
    for (; i + MR <= M; i += MR) rowTile<MR>(A, ars, acs, Bm, ldb, C, ldc, i, NC, P);
    for (; i < M; ++i) rowTile<1>(A, ars, acs, Bm, ldb, C, ldc, i, NC, P);
}

void item(const float* xb, const float* yb, float* ob, int64_t N, int64_t D, int64_t K, std::vector<float>& scratch) {
#if ORDER == 0
    // T = X^T Y: A(d, n) = x[n, d]; then out = X T.
    scratch.resize(static_cast<size_t>(D * K));
    float* t = scratch.data();
    gemm(xb, 1, D, yb, K, t, K, D, K, N);
    gemm(xb, D, 1, t, K, ob, K, N, K, D);
#else
    // XT = X^T (D x N), G = X XT (N x N), out = G Y.
    scratch.resize(static_cast<size_t>(D * N + N * N));
    float* xt = scratch.data();
    float* g = xt + D * N;
    for (int64_t n = 0; n < N; ++n)
        for (int64_t d = 0; d < D; ++d) xt[d * N + n] = xb[n * D + d];
    gemm(xb, D, 1, xt, N, g, N, N, N, D);
    gemm(g, N, 1, yb, K, ob, K, N, K, N);
#endif
}

}  // namespace

void wukong_fm(const float* x, const float* y, float* out, int64_t B, int64_t N, int64_t D, int64_t K) {
#if THREADS > 1
#pragma omp parallel num_threads(THREADS)
#endif
    {
        std::vector<float> scratch;
#if THREADS > 1
#pragma omp for schedule(static)
#endif
        for (int64_t b = 0; b < B; ++b) item(x + b * N * D, y + b * N * K, out + b * N * K, N, D, K, scratch);
    }
}
