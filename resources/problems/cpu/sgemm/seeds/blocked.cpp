// SGEMM seed: the GotoBLAS/BLIS structure with tunable blocking.
//
//   for jc over N in kNB columns           (B panel shared by all threads)
//     for pc over K in KB steps            (C is stored on the first, then accumulated)
//       [PACK] pack B[pc:pc+KB, jc:jc+kNB] into NR-column panels, zero padded
//       for ic over M in MB rows            (OpenMP: blocks of rows per thread)
//         [PACK] pack A[ic:ic+MB, pc:pc+KB] into MR-row panels, zero padded
//         for jr over the panel in NR = NRV*VEC columns
//           for ir over the block in MR rows
//             micro-kernel: an MR x NR tile of C in MR*NRV vector registers,
//             one rank-1 update (broadcast a, FMA with NRV vectors of b) per k
//
// The reference's i-k-j loop streams a whole row of B per multiply-add and
// reloads C each k; the register tile here reuses every loaded b vector MR
// times and every broadcast a NRV times, and the cache blocks keep the B
// panel in L1/L2 while the A block is swept. Packing makes both operands
// contiguous (unit-stride, no edge cases inside the micro-kernel); without it
// the micro-kernel reads A and B in place (a column strip narrower than NR is
// copied to a zero-padded buffer, leftover rows use a 1-row kernel).
// GCC/Clang vector extensions keep the code portable: a vector wider than the
// enabled ISA is split by the compiler, so every width is correct everywhere.
//
// Defaults are the plain variant (narrow vectors, a 1 x VEC register tile,
// no packing, one thread): finding the tuned configuration is the search's job.
// @kw-param MB: 32 | 128 = 32
// @kw-param KB: 64 | 256 = 64
// @kw-param MR: 1 | 4 | 6 = 1
// @kw-param NRV: 1 | 2 = 1
// @kw-param VEC: 8 | 16 = 8
// @kw-param PACK: bool = false
// @kw-param THREADS: 1 | 2 = 1
//
// MB       rows of A (and C) per cache block; the unit of work of a thread.
// KB       depth of a cache block: the k range of one packed panel pass.
// MR       rows of the register tile (register blocking over M).
// NRV      vectors per tile row (unrolling over N); NR = NRV * VEC columns.
// VEC      floats per vector (8 = AVX2, 16 = AVX-512 register).
// PACK     copy the A block and the B panel into contiguous tile order.
// THREADS  OpenMP threads over the MB row blocks.
#include <cstdint>
#include <vector>

#ifndef MB
#define MB 32
#endif
#ifndef KB
#define KB 64
#endif
#ifndef MR
#define MR 1
#endif
#ifndef NRV
#define NRV 1
#endif
#ifndef VEC
#define VEC 8
#endif
#ifndef PACK
#define PACK 0
#endif
#ifndef THREADS
#define THREADS 1
#endif

namespace {

constexpr int NR = NRV * VEC;      // columns of the register tile
constexpr int64_t kNB = 512;       // columns of a B panel (KB x 512 floats: 128-512 KiB)
constexpr int64_t kMBr = (MB + MR - 1) / MR * MR;  // MB rounded up to whole MR panels

typedef float VF __attribute__((vector_size(VEC * sizeof(float))));

// Unaligned views (float alignment): rows need no alignment. Vectors travel
// by reference or inline, so a VEC wider than the ISA raises no ABI warning.
typedef float VFu __attribute__((vector_size(VEC * sizeof(float)), aligned(alignof(float))));
inline const VFu& at(const float* p) { return *reinterpret_cast<const VFu*>(p); }
inline VFu& at(float* p) { return *reinterpret_cast<VFu*>(p); }

inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

// C[0:mr, 0:nr] = (first ? 0 : C) + acc, for mr <= R rows and nr <= NR columns.
template <int R>
inline void storeTile(float* c, int64_t ldc, int mr, int nr, const VF (&acc)[R][NRV], bool first) {
    if (nr == NR) {
        for (int r = 0; r < mr; ++r)
            for (int v = 0; v < NRV; ++v) {
                float* p = c + r * ldc + v * VEC;
                if (first) at(p) = acc[r][v];
                else at(p) = at(p) + acc[r][v];
            }
    } else {
        for (int r = 0; r < mr; ++r)
            for (int col = 0; col < nr; ++col) {
                const float s = acc[r][col / VEC][col % VEC];
                float* p = c + r * ldc + col;
                *p = first ? s : *p + s;
            }
    }
}

// acc[r][v] = sum_k a[r*lda + k] * b[k*ldb + v*VEC .. +VEC], for R rows.
// Packed operands use lda = 1 with a stepping MR per k (see kernelPacked).
template <int R>
inline void kernelDirect(int64_t kc, const float* a, int64_t lda, const float* b, int64_t ldb, VF (&acc)[R][NRV]) {
    for (int r = 0; r < R; ++r)
        for (int v = 0; v < NRV; ++v) acc[r][v] = VF{};
    for (int64_t k = 0; k < kc; ++k) {
        VF bv[NRV];
        for (int v = 0; v < NRV; ++v) bv[v] = at(b + k * ldb + v * VEC);
        for (int r = 0; r < R; ++r) {
            const VF av = VF{} + a[r * lda + k];
            for (int v = 0; v < NRV; ++v) acc[r][v] += av * bv[v];
        }
    }
}

#if PACK
// Packed panels: ap holds [k][MR] (rows zero padded), bp holds [k][NR]
// (columns zero padded), so every tile is a full MR x NR tile.
inline void kernelPacked(int64_t kc, const float* ap, const float* bp, VF (&acc)[MR][NRV]) {
    for (int r = 0; r < MR; ++r)
        for (int v = 0; v < NRV; ++v) acc[r][v] = VF{};
    for (int64_t k = 0; k < kc; ++k) {
        VF bv[NRV];
        for (int v = 0; v < NRV; ++v) bv[v] = at(bp + v * VEC);
        for (int r = 0; r < MR; ++r) {
            const VF av = VF{} + ap[r];
            for (int v = 0; v < NRV; ++v) acc[r][v] += av * bv[v];
        }
        ap += MR;
        bp += NR;
    }
}

// B[pc:pc+kc, jc+p*NR : +NR] -> bp[p][k][NR], for panels [p0, p1).
inline void packB(const float* B, int64_t ldb, int64_t kc, int64_t nc, int64_t p, float* bp) {
    const int64_t j0 = p * NR;
    const int64_t w = min64(NR, nc - j0);
    float* dst = bp + p * kc * NR;
    for (int64_t k = 0; k < kc; ++k) {
        const float* src = B + k * ldb + j0;
        int64_t j = 0;
        for (; j < w; ++j) dst[k * NR + j] = src[j];
        for (; j < NR; ++j) dst[k * NR + j] = 0.0f;
    }
}

// A[ic:ic+mc, pc:pc+kc] -> ap[q][k][MR] for every MR-row panel q.
inline void packA(const float* A, int64_t lda, int64_t mc, int64_t kc, float* ap) {
    for (int64_t i0 = 0; i0 < mc; i0 += MR) {
        const int64_t h = min64(MR, mc - i0);
        float* dst = ap + i0 * kc;
        for (int64_t k = 0; k < kc; ++k) {
            int64_t r = 0;
            for (; r < h; ++r) dst[k * MR + r] = A[(i0 + r) * lda + k];
            for (; r < MR; ++r) dst[k * MR + r] = 0.0f;
        }
    }
}
#endif

// One MB x kNB block of C for the k range [pc, pc + kc).
inline void block(const float* A, const float* B, float* C, int64_t N, int64_t K, int64_t ic, int64_t mc,
                  int64_t jc, int64_t nc, int64_t pc, int64_t kc, const float* bp, float* ap, float* edge) {
    const bool first = pc == 0;
#if PACK
    (void)B;
    (void)edge;
    packA(A + ic * K + pc, K, mc, kc, ap);
    for (int64_t jr = 0; jr < nc; jr += NR) {
        const int nr = static_cast<int>(min64(NR, nc - jr));
        const float* bpanel = bp + (jr / NR) * kc * NR;
        for (int64_t ir = 0; ir < mc; ir += MR) {
            VF acc[MR][NRV];
            kernelPacked(kc, ap + ir * kc, bpanel, acc);
            storeTile<MR>(C + (ic + ir) * N + jc + jr, N, static_cast<int>(min64(MR, mc - ir)), nr, acc, first);
        }
    }
#else
    (void)bp;
    (void)ap;
    for (int64_t jr = 0; jr < nc; jr += NR) {
        const int nr = static_cast<int>(min64(NR, nc - jr));
        const float* b = B + pc * N + jc + jr;
        int64_t ldb = N;
        if (nr < NR) {
            // A strip narrower than the tile: copy it, zero padded, so the
            // kernel's full-width loads stay inside the buffer.
            for (int64_t k = 0; k < kc; ++k)
                for (int j = 0; j < NR; ++j) edge[k * NR + j] = j < nr ? b[k * N + j] : 0.0f;
            b = edge;
            ldb = NR;
        }
        int64_t ir = 0;
        for (; ir + MR <= mc; ir += MR) {
            VF acc[MR][NRV];
            kernelDirect<MR>(kc, A + (ic + ir) * K + pc, K, b, ldb, acc);
            storeTile<MR>(C + (ic + ir) * N + jc + jr, N, MR, nr, acc, first);
        }
        for (; ir < mc; ++ir) {
            VF acc[1][NRV];
            kernelDirect<1>(kc, A + (ic + ir) * K + pc, K, b, ldb, acc);
            storeTile<1>(C + (ic + ir) * N + jc + jr, N, 1, nr, acc, first);
        }
    }
#endif
}

}  // namespace

void sgemm(const float* A, const float* B, float* C, int64_t M, int64_t N, int64_t K) {
    const int64_t mblocks = (M + MB - 1) / MB;
#if PACK
    std::vector<float> bpack(static_cast<size_t>(KB * ((kNB + NR - 1) / NR * NR)));
    float* bp = bpack.data();
#else
    float* bp = nullptr;
#endif
#if THREADS > 1
#pragma omp parallel num_threads(THREADS)
#endif
    {
        // Per-thread buffers: the packed A block, or the padded B edge strip.
#if PACK
        std::vector<float> abuf(static_cast<size_t>(kMBr * KB));
        std::vector<float> ebuf(1);
#else
        std::vector<float> abuf(1);
        std::vector<float> ebuf(static_cast<size_t>(KB * NR));
#endif
        for (int64_t jc = 0; jc < N; jc += kNB) {
            const int64_t nc = min64(kNB, N - jc);
            for (int64_t pc = 0; pc < K; pc += KB) {
                const int64_t kc = min64(KB, K - pc);
#if PACK
                const int64_t panels = (nc + NR - 1) / NR;
#if THREADS > 1
#pragma omp for schedule(static)
#endif
                for (int64_t p = 0; p < panels; ++p) packB(B + pc * N + jc, N, kc, nc, p, bp);
#endif
#if THREADS > 1
#pragma omp for schedule(static)
#endif
                for (int64_t q = 0; q < mblocks; ++q) {
                    const int64_t ic = q * MB;
                    block(A, B, C, N, K, ic, min64(MB, M - ic), jc, nc, pc, kc, bp, abuf.data(), ebuf.data());
                }
            }
        }
    }
}
