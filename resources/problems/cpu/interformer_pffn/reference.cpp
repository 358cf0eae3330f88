// Reference InterFormer PFFN: plain loops, single thread, everything in double.
// Per batch element b and token n:
//   h[k]   = GELU(b1[b,k] + sum_d x[b,n,d] * W1[b,d,k]),  GELU(v) = 0.5 v (1 + erf(v / sqrt 2))
//   h'[k]  = h[k] * g1[k] / sqrt(mean_k h^2 + eps)
//   z[d]   = sum_k h'[k] * W2[b,k,d]
//   y[b,n,d] = z[d] * g2[d] / sqrt(mean_d z^2 + eps)
// The matrix products run row by row as axpy updates (W rows are contiguous).
#include <cmath>
#include <vector>

void interformer_pffn(const float* x, const float* W1, const float* b1, const float* g1, const float* W2,
                      const float* g2, float* y, int64_t B, int64_t N, int64_t D, int64_t K, float eps) {
    std::vector<double> h(static_cast<size_t>(K)), z(static_cast<size_t>(D));
    for (int64_t b = 0; b < B; ++b) {
        const float* w1 = W1 + b * D * K;
        const float* w2 = W2 + b * K * D;
        for (int64_t n = 0; n < N; ++n) {
            const float* xr = x + (b * N + n) * D;
            for (int64_t k = 0; k < K; ++k) h[k] = b1[b * K + k];
            for (int64_t d = 0; d < D; ++d) {
                const double xv = xr[d];
                for (int64_t k = 0; k < K; ++k) h[k] += xv * w1[d * K + k];
            }
            double ss = 0.0;
            for (int64_t k = 0; k < K; ++k) {
                h[k] = 0.5 * h[k] * (1.0 + std::erf(h[k] / std::sqrt(2.0)));
                ss += h[k] * h[k];
            }
            const double r1 = 1.0 / std::sqrt(ss / static_cast<double>(K) + static_cast<double>(eps));
            for (int64_t k = 0; k < K; ++k) h[k] *= r1 * g1[k];
            for (int64_t d = 0; d < D; ++d) z[d] = 0.0;
            for (int64_t k = 0; k < K; ++k) {
                const double hv = h[k];
                for (int64_t d = 0; d < D; ++d) z[d] += hv * w2[k * D + d];
            }
            ss = 0.0;
            for (int64_t d = 0; d < D; ++d) ss += z[d] * z[d];
            const double r2 = 1.0 / std::sqrt(ss / static_cast<double>(D) + static_cast<double>(eps));
            float* yr = y + (b * N + n) * D;
            for (int64_t d = 0; d < D; ++d) yr[d] = static_cast<float>(z[d] * r2 * g2[d]);
        }
    }
}
