// Reference WuKong optimized FM: out[b] = X[b] * (X[b]^T * Y[b]), plain loops,
// single thread, in the association the operator is written in.
//
//   T[d, k]   = sum_n x[b, n, d] * y[b, n, k]        (D x K)
//   out[n, k] = sum_d x[b, n, d] * T[d, k]           (N x K)
//
// Both products accumulate in double (the inner loop runs over k, contiguous),
// so the reference is close to the exact result; candidates may accumulate in
// float in any order or use (X X^T) Y.
#include <vector>

void wukong_fm(const float* x, const float* y, float* out, int64_t B, int64_t N, int64_t D, int64_t K) {
    std::vector<double> t(static_cast<size_t>(D * K));
    std::vector<double> row(static_cast<size_t>(K));
    for (int64_t b = 0; b < B; ++b) {
        const float* xb = x + b * N * D;
        const float* yb = y + b * N * K;
        float* ob = out + b * N * K;
        for (auto& v : t) v = 0.0;
        for (int64_t n = 0; n < N; ++n)
            for (int64_t d = 0; d < D; ++d) {
                const double a = xb[n * D + d];
                double* td = t.data() + d * K;
                for (int64_t k = 0; k < K; ++k) td[k] += a * yb[n * K + k];
            }
        for (int64_t n = 0; n < N; ++n) {
            for (auto& v : row) v = 0.0;
            for (int64_t d = 0; d < D; ++d) {
                const double a = xb[n * D + d];
                const double* td = t.data() + d * K;
                for (int64_t k = 0; k < K; ++k) row[k] += a * td[k];
            }
            for (int64_t k = 0; k < K; ++k) ob[n * K + k] = static_cast<float>(row[k]);
        }
    }
}
