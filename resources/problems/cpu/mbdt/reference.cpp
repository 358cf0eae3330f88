// Reference MergeBucketizedDenseTransform: one binary search per element,
// plain loops, single thread. It defines the semantics the candidates must
// reproduce bit for bit (the output is int64, compared exactly).
//
//   out[f, b] = f * (NB + 1) + #{ j : borders[f, j] < x[f, b] }
//
// The count of borders strictly below x is torch.bucketize(x, borders,
// right=False): a value equal to a border falls in the LEFT bin.

void mbdt(const float* x, const float* borders, int64_t* out, int64_t F, int64_t B, int64_t NB) {
    for (int64_t f = 0; f < F; ++f) {
        const float* fb = borders + f * NB;
        const int64_t offset = f * (NB + 1);  // keeps bin ids unique across features
        for (int64_t b = 0; b < B; ++b) {
            const float v = x[f * B + b];
            // Lower bound: first j with fb[j] >= v, i.e. the number of borders < v.
            int64_t lo = 0, hi = NB;
            while (lo < hi) {
                const int64_t mid = lo + (hi - lo) / 2;
                if (fb[mid] < v) lo = mid + 1;
                else hi = mid;
            }
            out[f * B + b] = offset + lo;
        }
    }
}
