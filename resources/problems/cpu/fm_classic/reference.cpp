// Reference classic FM second-order interaction: plain loops, single thread.
//
//   out[b] = 0.5 * sum_d ( (sum_f x[b, f, d])^2 - sum_f x[b, f, d]^2 )
//
// For every (b, d) the field sum and the sum of squares are accumulated in
// double (walking down the F fields with stride D), so the reference is close
// to the exact result; candidates may accumulate in float in any order.

void fm_classic(const float* x, float* out, int64_t B, int64_t F, int64_t D) {
    for (int64_t b = 0; b < B; ++b) {
        const float* xb = x + b * F * D;
        double total = 0.0;
        for (int64_t d = 0; d < D; ++d) {
            double sum = 0.0, sumsq = 0.0;
            for (int64_t f = 0; f < F; ++f) {
                const double v = xb[f * D + d];
                sum += v;
                sumsq += v * v;
            }
            total += sum * sum - sumsq;
        }
        out[b] = static_cast<float>(0.5 * total);
    }
}
