// RMSNorm backward seed: per row one SIMD pass for the two reductions
// (sum x^2 and sum w*dy*x), then one SIMD pass that writes dx and adds the
// row's contribution dy*x*r to a dw accumulator.
//
// The dw column sums are what make the backward awkward: every row touches
// all of dw. Here ROWS rows are finished together, so w[n] and the dw partial
// sums are loaded and stored once per ROWS rows instead of once per row. The
// partial sums are f32 over blocks of kFlush rows and are then folded into a
// double total, so accuracy does not degrade with M. With THREADS > 1 each
// thread takes a contiguous band of rows with its own dw totals; the totals are
// reduced across threads (over columns, in parallel) at the end.
//
// Defaults are the plain variant (narrow vectors, one accumulator, one row at
// a time, one thread): finding the tuned configuration is the search's job.
// @kw-param VEC: 4 | 8 | 16 = 4
// @kw-param ACC: 1 | 2 | 4 = 1
// @kw-param ROWS: 1 | 2 | 4 = 1
// @kw-param THREADS: 1 | 2 = 1
// @kw-param STREAM: bool = false
//
// VEC      floats per vector (4 = SSE, 8 = AVX2, 16 = AVX-512 register). GCC
//          vector extensions split a vector wider than the enabled ISA, so
//          every width is correct on every x86-64 target.
// ACC      independent vector accumulators per reduction in the first pass.
// ROWS     rows whose second pass (dx and the dw update) is fused.
// THREADS  OpenMP threads over bands of rows.
// STREAM   store dx with non-temporal stores (VEC = 8 on AVX, 16 on
//          AVX-512), where a vector's address is aligned to its size: dx is
//          written once and never read back, so caching it only costs a
//          read-for-ownership of every line (a third more traffic).
#include <cmath>
#include <cstdint>
#include <vector>
#if THREADS > 1
#include <omp.h>
#endif

#ifndef VEC
#define VEC 4
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
#ifndef STREAM
#define STREAM 0
#endif
#if STREAM && VEC == 16 && defined(__AVX512F__)
#define RB_NT 16
#elif STREAM && VEC == 8 && defined(__AVX__)
#define RB_NT 8
#else
#define RB_NT 0
#endif
#if RB_NT
#include <immintrin.h>
#endif

namespace {

typedef float VF __attribute__((vector_size(VEC * sizeof(float))));
// The same vector with float alignment: one unaligned load/store. Vectors
// travel by reference, so a VEC wider than the ISA raises no -Wpsabi warning.
typedef float VFu __attribute__((vector_size(VEC * sizeof(float)), aligned(alignof(float))));
inline const VFu& at(const float* p) { return *reinterpret_cast<const VFu*>(p); }
inline VFu& at(float* p) { return *reinterpret_cast<VFu*>(p); }

// A vector of dx: streamed past the caches with STREAM where aligned.
inline void putDx(float* p, const VF& v) {
#if RB_NT
    if (reinterpret_cast<uintptr_t>(p) % (RB_NT * sizeof(float)) == 0) {
#if RB_NT == 16
        _mm512_stream_ps(p, (__m512)v);
#else
        _mm256_stream_ps(p, (__m256)v);
#endif
        return;
    }
#endif
    at(p) = v;
}

constexpr int64_t kFlush = 64;  // rows summed in f32 before the fold into double

// r and r^3 * c of one row.
inline void rowStats(const float* xr, const float* gr, const float* w, int64_t N, float eps, float& r, float& k) {
    VF s[ACC], d[ACC];
    for (int a = 0; a < ACC; ++a) s[a] = d[a] = VF{};
    int64_t n = 0;
    for (; n + VEC * ACC <= N; n += VEC * ACC)
        for (int a = 0; a < ACC; ++a) {
            const VF xv = at(xr + n + a * VEC);
            s[a] += xv * xv;
            d[a] += at(w + n + a * VEC) * at(gr + n + a * VEC) * xv;
        }
    for (; n + VEC <= N; n += VEC) {
        const VF xv = at(xr + n);
        s[0] += xv * xv;
        d[0] += at(w + n) * at(gr + n) * xv;
    }
    for (int a = 1; a < ACC; ++a) {
        s[0] += s[a];
        d[0] += d[a];
    }
    float sumsq = 0.f, dot = 0.f;
    for (int l = 0; l < VEC; ++l) {
        sumsq += s[0][l];
        dot += d[0][l];
    }
    for (; n < N; ++n) {
        sumsq += xr[n] * xr[n];
        dot += w[n] * gr[n] * xr[n];
    }
    const double rd = 1.0 / std::sqrt(static_cast<double>(sumsq) / static_cast<double>(N) + eps);
    r = static_cast<float>(rd);
    k = static_cast<float>(rd * rd * rd * (static_cast<double>(dot) / static_cast<double>(N)));
}

// dx for R consecutive rows starting at m, and their dw contributions into part.
template <int R>
void rowsPass2(const float* x, const float* w, const float* dy, float* dx, float* part, int64_t m, int64_t N,
               float eps) {
    float r[R], k[R];
    for (int i = 0; i < R; ++i) rowStats(x + (m + i) * N, dy + (m + i) * N, w, N, eps, r[i], k[i]);
    int64_t n = 0;
    for (; n + VEC <= N; n += VEC) {
        const VF wv = at(w + n);
        VF pv = at(part + n);
        for (int i = 0; i < R; ++i) {
            const int64_t o = (m + i) * N + n;
            const VF xv = at(x + o), gv = at(dy + o);
            putDx(dx + o, r[i] * wv * gv - xv * k[i]);
            pv += gv * xv * r[i];
        }
        at(part + n) = pv;
    }
    for (; n < N; ++n)
        for (int i = 0; i < R; ++i) {
            const int64_t o = (m + i) * N + n;
            dx[o] = r[i] * w[n] * dy[o] - x[o] * k[i];
            part[n] += dy[o] * x[o] * r[i];
        }
}

void flush(float* part, double* tot, int64_t N) {
    for (int64_t n = 0; n < N; ++n) {
        tot[n] += part[n];
        part[n] = 0.f;
    }
}

// Rows [begin, end) into tot (double, length N, zeroed by the caller).
void band(const float* x, const float* w, const float* dy, float* dx, double* tot, float* part, int64_t begin,
          int64_t end, int64_t N, float eps) {
    for (int64_t n = 0; n < N; ++n) part[n] = 0.f;
    int64_t m = begin, since = 0;
    for (; m + ROWS <= end; m += ROWS) {
        rowsPass2<ROWS>(x, w, dy, dx, part, m, N, eps);
        if ((since += ROWS) >= kFlush) {
            flush(part, tot, N);
            since = 0;
        }
    }
    for (; m < end; ++m) rowsPass2<1>(x, w, dy, dx, part, m, N, eps);
    flush(part, tot, N);
#if RB_NT
    _mm_sfence(); // non-temporal stores are weakly ordered: each band (thread) fences its own
#endif
}

}  // namespace

void rmsnorm_bwd(const float* x, const float* w, const float* dy, float* dx, float* dw, int64_t M, int64_t N,
                 float eps) {
    std::vector<double> tot(static_cast<size_t>(THREADS * N), 0.0);
    std::vector<float> part(static_cast<size_t>(THREADS * N), 0.f);
#if THREADS > 1
#pragma omp parallel num_threads(THREADS)
    {
        const int t = omp_get_thread_num(), nt = omp_get_num_threads();
        const int64_t begin = M * t / nt, end = M * (t + 1) / nt;
        band(x, w, dy, dx, tot.data() + t * N, part.data() + t * N, begin, end, N, eps);
#pragma omp barrier
#pragma omp for schedule(static)
        for (int64_t n = 0; n < N; ++n) {
            double s = 0.0;
            for (int u = 0; u < nt; ++u) s += tot[u * N + n];
            dw[n] = static_cast<float>(s);
        }
    }
#else
    band(x, w, dy, dx, tot.data(), part.data(), 0, M, N, eps);
    for (int64_t n = 0; n < N; ++n) dw[n] = static_cast<float>(tot[n]);
#endif
}
