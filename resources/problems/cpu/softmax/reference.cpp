// Reference row softmax: three plain passes per row, single thread.
//
//   y[m, n] = exp(x[m, n] - max_n x[m, :]) / sum_n exp(x[m, n] - max_n x[m, :])
//
// Pass 1 finds the row maximum (subtracting it keeps exp from overflowing),
// pass 2 stores exp(x - max) in y and sums it in double, pass 3 scales y by
// 1/sum. exp is the f32 std::exp; the sum and the scale are in double, so the
// reference is close to the exact result; candidates may use their own exp and
// accumulate in float in any order (the problem's f32 tolerance allows for that).
#include <cmath>

void softmax(const float* x, float* y, int64_t M, int64_t N) {
    for (int64_t m = 0; m < M; ++m) {
        const float* xr = x + m * N;
        float* yr = y + m * N;
        float mx = xr[0];
        for (int64_t n = 1; n < N; ++n) mx = xr[n] > mx ? xr[n] : mx;
        double sum = 0.0;
        for (int64_t n = 0; n < N; ++n) {
            const float e = std::exp(xr[n] - mx);
            yr[n] = e;
            sum += e;
        }
        const double inv = 1.0 / sum;
        for (int64_t n = 0; n < N; ++n) yr[n] = static_cast<float>(yr[n] * inv);
    }
}
