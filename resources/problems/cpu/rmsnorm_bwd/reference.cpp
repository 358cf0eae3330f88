// Reference RMSNorm backward: plain loops, single thread, every sum in double.
//
//   r[m]     = 1 / sqrt(sum_n x[m,n]^2 / N + eps)
//   c[m]     = sum_n w[n] * dy[m,n] * x[m,n] / N
//   dx[m,n]  = r[m] * w[n] * dy[m,n] - x[m,n] * r[m]^3 * c[m]
//   dw[n]    = sum_m dy[m,n] * x[m,n] * r[m]
//
// (dx differentiates y = x * r * w through the direct term and through r:
// d r / d x[m,j] = -r^3 * x[m,j] / N.)
#include <cmath>
#include <vector>

void rmsnorm_bwd(const float* x, const float* w, const float* dy, float* dx, float* dw, int64_t M, int64_t N,
                 float eps) {
    std::vector<double> dwd(static_cast<size_t>(N), 0.0);
    for (int64_t m = 0; m < M; ++m) {
        const float* xr = x + m * N;
        const float* gr = dy + m * N;
        float* dxr = dx + m * N;
        double sumsq = 0.0, dot = 0.0;
        for (int64_t n = 0; n < N; ++n) {
            sumsq += static_cast<double>(xr[n]) * xr[n];
            dot += static_cast<double>(w[n]) * gr[n] * xr[n];
        }
        const double r = 1.0 / std::sqrt(sumsq / static_cast<double>(N) + static_cast<double>(eps));
        const double c = dot / static_cast<double>(N);
        const double r3c = r * r * r * c;
        for (int64_t n = 0; n < N; ++n) {
            dxr[n] = static_cast<float>(r * w[n] * gr[n] - xr[n] * r3c);
            dwd[n] += static_cast<double>(gr[n]) * xr[n] * r;
        }
    }
    for (int64_t n = 0; n < N; ++n) dw[n] = static_cast<float>(dwd[n]);
}
