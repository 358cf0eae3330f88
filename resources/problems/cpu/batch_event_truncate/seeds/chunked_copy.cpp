// Batch Event Truncate seed: chunked two-pass compaction with bulk copies.
//
// The reference walks every event and copies values one float at a time, with
// output positions that depend on everything before them (a serial scan). Here
// the users are cut into chunks of kChunk users:
//   pass 1  per chunk: input events/values and kept events/values (counts);
//           with OFFSETS also each user's input value offset in a scratch array;
//   scan    exclusive prefix sums over the chunks give every chunk's input and
//           output positions, so pass 2 runs chunks independently (THREADS);
//   pass 2  per user: out_outer = min(outer, KEEP), copy the kept inner lengths
//           and values. The kept events of a user are contiguous, and so are
//           their values: with RUNS they are copied as one run per user instead
//           of one copy per event;
//   tails   zero out_inner_lengths and out_values past the kept data.
// Values are copied bit for bit (copies only, no arithmetic).
//
// Defaults are the plain variant (per-event element loops, one thread):
// finding the tuned configuration is the search's job.
// @kw-param COPY: enum(loop, memcpy, stream) = loop
// @kw-param RUNS: bool = false
// @kw-param OFFSETS: bool = false
// @kw-param ZERO: enum(loop, memset, stream) = loop
// @kw-param THREADS: 1 | 2 = 1
// @kw-param ONEPASS: bool = false
//
// COPY     how values are copied: an element loop, memcpy, or non-temporal
//          (streaming) stores for runs of at least 64 floats (AVX-512 / AVX;
//          falls back to memcpy without them).
// RUNS     one copy per user (its kept events' values are contiguous) instead
//          of one per event.
// OFFSETS  pass 1 records every user's input value offset, so pass 2 does not
//          re-sum the inner lengths of dropped events to skip their values.
// ZERO     how the output tails are zeroed: element loop, memset, or streaming.
// THREADS  OpenMP threads over chunks of users (and over the tails).
// ONEPASS  with one thread, skip pass 1 and the scan: one serial pass keeps the
//          output positions as it goes, so inner_lengths is read once, not twice
//          (pass 2 re-reads what pass 1 read; a chunk's inner lengths need not
//          stay in cache between them).
#include <cstdint>
#include <cstring>
#include <vector>
#if defined(__AVX512F__) || defined(__AVX__)
#include <immintrin.h>
#endif

#ifndef COPY
#define COPY 0
#endif
#ifndef RUNS
#define RUNS 0
#endif
#ifndef OFFSETS
#define OFFSETS 0
#endif
#ifndef ZERO
#define ZERO 0
#endif
#ifndef THREADS
#define THREADS 1
#endif
#ifndef ONEPASS
#define ONEPASS 0
#endif

#if defined(__AVX512F__)
#define BET_NT 16
#elif defined(__AVX__)
#define BET_NT 8
#else
#define BET_NT 0
#endif

namespace {

constexpr int64_t kChunk = 1024;  // users per chunk

#if BET_NT
// Non-temporal stores of n floats (src any alignment); dst is peeled to alignment.
inline void streamFloats(float* dst, const float* src, int64_t n) {
    int64_t i = 0;
    for (; i < n && (reinterpret_cast<uintptr_t>(dst + i) & (BET_NT * 4 - 1)) != 0; ++i) dst[i] = src ? src[i] : 0.0f;
#if BET_NT == 16
    for (; i + 16 <= n; i += 16) _mm512_stream_ps(dst + i, src ? _mm512_loadu_ps(src + i) : _mm512_setzero_ps());
#else
    for (; i + 8 <= n; i += 8) _mm256_stream_ps(dst + i, src ? _mm256_loadu_ps(src + i) : _mm256_setzero_ps());
#endif
    for (; i < n; ++i) dst[i] = src ? src[i] : 0.0f;
}
#endif

inline void copyValues(float* dst, const float* src, int64_t n) {
    if (n <= 0) return;
#if COPY == 0
    for (int64_t i = 0; i < n; ++i) dst[i] = src[i];
#elif COPY == 2 && BET_NT
    if (n >= 64) streamFloats(dst, src, n);
    else std::memcpy(dst, src, static_cast<size_t>(n) * sizeof(float));
#else
    std::memcpy(dst, src, static_cast<size_t>(n) * sizeof(float));
#endif
}

// Copies one user's k kept events (their inner lengths and values); returns
// the number of values copied.
inline int64_t copyKept(const int64_t* inner, const float* vals, int64_t* outInner, float* outVals, int64_t k) {
    int64_t sk = 0;
#if RUNS
    for (int64_t i = 0; i < k; ++i) {
        outInner[i] = inner[i];
        sk += inner[i];
    }
    copyValues(outVals, vals, sk);
#else
    for (int64_t i = 0; i < k; ++i) {
        outInner[i] = inner[i];
        copyValues(outVals + sk, vals + sk, inner[i]);
        sk += inner[i];
    }
#endif
    return sk;
}

template <typename T>
inline void zeroRange(T* p, int64_t n) {
    if (n <= 0) return;
#if ZERO == 0
    for (int64_t i = 0; i < n; ++i) p[i] = T(0);
#elif ZERO == 2 && BET_NT
    if constexpr (sizeof(T) == sizeof(float)) {
        streamFloats(reinterpret_cast<float*>(p), nullptr, n);
    } else {
        std::memset(p, 0, static_cast<size_t>(n) * sizeof(T));
    }
#else
    std::memset(p, 0, static_cast<size_t>(n) * sizeof(T));
#endif
}

// Zeroes piece t of p[begin, end) split into `pieces` equal pieces.
template <typename T>
inline void zeroPiece(T* p, int64_t begin, int64_t end, int t, int pieces) {
    const int64_t n = end - begin;
    const int64_t a = begin + n * t / pieces, b = begin + n * (t + 1) / pieces;
    zeroRange(p + a, b - a);
}

#if ONEPASS && THREADS == 1
// One serial pass: each user's kept events and values copied as it is met.
void onePass(const int64_t* outer_lengths, const int64_t* inner_lengths, const float* values, int64_t* out_outer_lengths,
             int64_t* out_inner_lengths, float* out_values, int64_t U, int64_t NE, int64_t NV, int64_t KEEP) {
    int64_t ein = 0, vin = 0, eout = 0, vout = 0;
    for (int64_t u = 0; u < U; ++u) {
        const int64_t n = outer_lengths[u];
        const int64_t k = n < KEEP ? n : KEEP;
        out_outer_lengths[u] = k;
        const int64_t sk = copyKept(inner_lengths + ein, values + vin, out_inner_lengths + eout, out_values + vout, k);
        int64_t sa = 0;
        for (int64_t i = k; i < n; ++i) sa += inner_lengths[ein + i];
        vin += sk + sa;
        vout += sk;
        eout += k;
        ein += n;
    }
    zeroRange(out_inner_lengths + eout, NE - eout);
    zeroRange(out_values + vout, NV - vout);
#if BET_NT && (COPY == 2 || ZERO == 2)
    _mm_sfence();
#endif
}
#endif

}  // namespace

void batch_event_truncate(const int64_t* outer_lengths, const int64_t* inner_lengths, const float* values,
                          int64_t* out_outer_lengths, int64_t* out_inner_lengths, float* out_values, int64_t U,
                          int64_t NE, int64_t NV, int64_t KEEP) {
#if ONEPASS && THREADS == 1
    onePass(outer_lengths, inner_lengths, values, out_outer_lengths, out_inner_lengths, out_values, U, NE, NV, KEEP);
    return;
#endif
    const int64_t chunks = (U + kChunk - 1) / kChunk;
    // Per chunk: input events, input values, kept events, kept values; scanned
    // in place to start positions (index chunks holds the totals).
    std::vector<int64_t> eIn(chunks + 1), vIn(chunks + 1), eOut(chunks + 1), vOut(chunks + 1);
#if OFFSETS
    std::vector<int64_t> userValueOffset(static_cast<size_t>(U));  // relative to its chunk
#endif

#if THREADS > 1
#pragma omp parallel num_threads(THREADS)
#endif
    {
        // Input event start of every chunk: needs only the outer lengths, a
        // cheap serial scan over U.
#if THREADS > 1
#pragma omp single
#endif
        {
            int64_t e = 0;
            for (int64_t c = 0; c < chunks; ++c) {
                eIn[c] = e;
                const int64_t end = (c + 1) * kChunk < U ? (c + 1) * kChunk : U;
                for (int64_t u = c * kChunk; u < end; ++u) e += outer_lengths[u];
            }
            eIn[chunks] = e;
        }
        // Pass 1: counts per chunk.
#if THREADS > 1
#pragma omp for schedule(dynamic, 1)
#endif
        for (int64_t c = 0; c < chunks; ++c) {
            const int64_t end = (c + 1) * kChunk < U ? (c + 1) * kChunk : U;
            int64_t ev = eIn[c], v = 0, ek = 0, vk = 0;
            for (int64_t u = c * kChunk; u < end; ++u) {
                const int64_t n = outer_lengths[u];
                const int64_t k = n < KEEP ? n : KEEP;
#if OFFSETS
                userValueOffset[u] = v;
#endif
                int64_t sk = 0, sa = 0;
                for (int64_t i = 0; i < k; ++i) sk += inner_lengths[ev + i];
                for (int64_t i = k; i < n; ++i) sa += inner_lengths[ev + i];
                ev += n;
                ek += k;
                vk += sk;
                v += sk + sa;
            }
            vIn[c] = v;
            eOut[c] = ek;
            vOut[c] = vk;
        }
#if THREADS > 1
#pragma omp single
#endif
        {  // exclusive scan over the chunks
            int64_t v = 0, ek = 0, vk = 0;
            for (int64_t c = 0; c <= chunks; ++c) {
                const int64_t tv = c < chunks ? vIn[c] : 0, tek = c < chunks ? eOut[c] : 0, tvk = c < chunks ? vOut[c] : 0;
                vIn[c] = v;
                eOut[c] = ek;
                vOut[c] = vk;
                v += tv;
                ek += tek;
                vk += tvk;
            }
        }
        // Pass 2: copy.
#if THREADS > 1
#pragma omp for schedule(dynamic, 1)
#endif
        for (int64_t c = 0; c < chunks; ++c) {
            const int64_t end = (c + 1) * kChunk < U ? (c + 1) * kChunk : U;
            int64_t ein = eIn[c], vin = vIn[c], eout = eOut[c], vout = vOut[c];
            for (int64_t u = c * kChunk; u < end; ++u) {
                const int64_t n = outer_lengths[u];
                const int64_t k = n < KEEP ? n : KEEP;
                out_outer_lengths[u] = k;
                const int64_t sk = copyKept(inner_lengths + ein, values + vin, out_inner_lengths + eout, out_values + vout, k);
                vout += sk;
                eout += k;
#if OFFSETS
                vin = vIn[c] + (u + 1 < end ? userValueOffset[u + 1] : vIn[c + 1] - vIn[c]);
#else
                int64_t sa = 0;
                for (int64_t i = k; i < n; ++i) sa += inner_lengths[ein + i];
                vin += sk + sa;
#endif
                ein += n;
            }
        }
        // Tails: [kept events, NE) and [kept values, NV).
        // Work-sharing over THREADS pieces covers every piece even if the
        // runtime grants fewer threads.
#if THREADS > 1
#pragma omp for schedule(static, 1)
#endif
        for (int t = 0; t < THREADS; ++t) {
            zeroPiece(out_inner_lengths, eOut[chunks], NE, t, THREADS);
            zeroPiece(out_values, vOut[chunks], NV, t, THREADS);
        }
#if BET_NT && (COPY == 2 || ZERO == 2)
        _mm_sfence();  // non-temporal stores are weakly ordered: each thread fences its own
#endif
    }
}
