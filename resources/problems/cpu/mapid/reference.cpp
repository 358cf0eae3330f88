// Reference MapId: one branchy binary search (lower bound) per id, plain
// loops, single thread. It defines the semantics the candidates must
// reproduce exactly (the output is int64):
//
//   idx     = min(#{ j : mapping[j] < v }, T - 1)     torch.bucketize(right=False), clamped
//   out[q]  = mapping[idx] == v ? idx + 1 : 0          1-based position, 0 when absent

void mapid(const int64_t* ids, const int64_t* mapping, int64_t* out, int64_t Q, int64_t T) {
    for (int64_t q = 0; q < Q; ++q) {
        const int64_t v = ids[q];
        int64_t lo = 0, hi = T;  // lower bound: first j with mapping[j] >= v
        while (lo < hi) {
            const int64_t mid = lo + (hi - lo) / 2;
            if (mapping[mid] < v) lo = mid + 1;
            else hi = mid;
        }
        const int64_t idx = lo < T - 1 ? lo : T - 1;
        out[q] = mapping[idx] == v ? idx + 1 : 0;
    }
}
