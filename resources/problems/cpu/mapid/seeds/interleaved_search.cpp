// MapId seed: branchless lower-bound search, GROUP ids in lockstep.
//
// The reference's branchy binary search mispredicts about half of its ~log2(T)
// steps and, for a table larger than the cache, waits for one cache miss per
// step, one id at a time. The branchless form
//     while (n > 1) { half = n / 2; if (m[base + half] < v) base += half; n -= half; }
// compiles to a conditional move. Because n shrinks the same way for every id,
// GROUP ids can step together: their loads are independent, so GROUP cache
// misses overlap. PREFETCH also requests both possible next probes of each id
// one step ahead. When the remaining window is at most TAIL entries the search
// finishes with a linear count of entries < v (vectorizable, no dependency).
// Result: lb = #{ j : m[j] < v }; idx = min(lb, T-1); out = m[idx] == v ? idx+1 : 0.
//
// Defaults are the plain variant (one id at a time, no prefetch, no linear tail,
// one thread): finding the tuned configuration is the search's job.
// @kw-param GROUP: 1 | 2 | 4 | 8 | 16 | 32 = 1
// @kw-param PREFETCH: bool = false
// @kw-param TAIL: 1 | 16 = 1
// @kw-param THREADS: 1 | 2 = 1
//
// GROUP    ids searched in lockstep (memory-level parallelism).
// PREFETCH prefetch the two candidate probes of the next step.
// TAIL     window size at which the binary search stops and counts linearly.
// THREADS  OpenMP threads over blocks of ids.
#include <cstdint>

#ifndef GROUP
#define GROUP 1
#endif
#ifndef PREFETCH
#define PREFETCH 0
#endif
#ifndef TAIL
#define TAIL 1
#endif
#ifndef THREADS
#define THREADS 1
#endif

namespace {

// Searches G ids (ids[0..G)) and writes their outputs.
template <int G>
inline void searchGroup(const int64_t* ids, const int64_t* m, int64_t* out, int64_t T) {
    int64_t v[G], base[G];
    for (int g = 0; g < G; ++g) {
        v[g] = ids[g];
        base[g] = 0;
    }
    int64_t n = T;
    while (n > TAIL) {
        const int64_t half = n / 2;
#if PREFETCH
        // Next step probes base + half + (n - half) / 2 or that plus half.
        const int64_t next = (n - half) / 2;
        for (int g = 0; g < G; ++g) {
            __builtin_prefetch(m + base[g] + next);
            __builtin_prefetch(m + base[g] + half + next);
        }
#endif
        for (int g = 0; g < G; ++g) base[g] = m[base[g] + half] < v[g] ? base[g] + half : base[g];
        n -= half;
    }
    // The lower bound lies in [base, base + n]; base + n <= T.
    for (int g = 0; g < G; ++g) {
        int64_t lb = base[g];
#if TAIL > 1
        int64_t c = 0;
        for (int64_t j = 0; j < n; ++j) c += m[base[g] + j] < v[g];
        lb += c;
#else
        lb += m[lb] < v[g];
#endif
        const int64_t idx = lb < T - 1 ? lb : T - 1;
        out[g] = m[idx] == v[g] ? idx + 1 : 0;
    }
}

// Block of ids given to one thread at a time.
constexpr int64_t kBlock = 1024;

}  // namespace

void mapid(const int64_t* ids, const int64_t* mapping, int64_t* out, int64_t Q, int64_t T) {
    const int64_t blocks = (Q + kBlock - 1) / kBlock;
#if THREADS > 1
#pragma omp parallel for num_threads(THREADS) schedule(static)
#endif
    for (int64_t blk = 0; blk < blocks; ++blk) {
        const int64_t begin = blk * kBlock;
        const int64_t end = begin + kBlock < Q ? begin + kBlock : Q;
        int64_t q = begin;
        for (; q + GROUP <= end; q += GROUP) searchGroup<GROUP>(ids + q, mapping, out + q, T);
        for (; q < end; ++q) searchGroup<1>(ids + q, mapping, out + q, T);
    }
}
