// Reference LayerNorm forward: three plain passes per row, single thread.
//
//   mean = sum_n x[m, n] / N
//   var  = sum_n (x[m, n] - mean)^2 / N          (biased variance)
//   y[m, n] = (x[m, n] - mean) / sqrt(var + eps) * gamma[n] + beta[n]
//
// The mean, the variance and the scale are computed in double (two statistics
// passes, no cancellation), so the reference is close to the exact result;
// candidates may accumulate in float in any order (the problem's f32 tolerance
// allows for that).
#include <cmath>

void layernorm(const float* x, const float* gamma, const float* beta, float* y, int64_t M, int64_t N, float eps) {
    for (int64_t m = 0; m < M; ++m) {
        const float* xr = x + m * N;
        float* yr = y + m * N;
        double sum = 0.0;
        for (int64_t n = 0; n < N; ++n) sum += xr[n];
        const double mean = sum / static_cast<double>(N);
        double sq = 0.0;
        for (int64_t n = 0; n < N; ++n) {
            const double d = xr[n] - mean;
            sq += d * d;
        }
        const double rstd = 1.0 / std::sqrt(sq / static_cast<double>(N) + static_cast<double>(eps));
        for (int64_t n = 0; n < N; ++n) yr[n] = static_cast<float>((xr[n] - mean) * rstd * gamma[n] + beta[n]);
    }
}
