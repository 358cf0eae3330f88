// Reference RMSNorm forward: two plain passes per row, single thread.
//
//   y[m, n] = x[m, n] * rsqrt(mean_n(x[m, :]^2) + eps) * w[n]
//
// The sum of squares and the scale are computed in double, so the reference is
// close to the exact result; candidates may accumulate in float in any order
// (the problem's f32 tolerance allows for that).
#include <cmath>

void rmsnorm_fwd(const float* x, const float* w, float* y, int64_t M, int64_t N, float eps) {
    for (int64_t m = 0; m < M; ++m) {
        const float* xr = x + m * N;
        float* yr = y + m * N;
        double sumsq = 0.0;
        for (int64_t n = 0; n < N; ++n) sumsq += static_cast<double>(xr[n]) * xr[n];
        const double scale = 1.0 / std::sqrt(sumsq / static_cast<double>(N) + static_cast<double>(eps));
        for (int64_t n = 0; n < N; ++n) yr[n] = static_cast<float>(xr[n] * scale * w[n]);
    }
}
