// Reference depthwise causal conv1d + bias + SiLU: plain loops, single thread,
// taps summed and exp evaluated in double.
//
//   v        = bias[c] + sum_{k<K} w[c,k] * x[b,c,t-(K-1)+k]   (x[.., t<0] = 0)
//   y[b,c,t] = v / (1 + exp(-v))
#include <cmath>

void dwconv1d_silu(const float* x, const float* w, const float* bias, float* y, int64_t B, int64_t C, int64_t L,
                   int64_t K) {
    for (int64_t b = 0; b < B; ++b)
        for (int64_t c = 0; c < C; ++c) {
            const float* xr = x + (b * C + c) * L;
            const float* wc = w + c * K;
            float* yr = y + (b * C + c) * L;
            for (int64_t t = 0; t < L; ++t) {
                double v = bias[c];
                for (int64_t k = 0; k < K; ++k) {
                    const int64_t s = t - (K - 1) + k;
                    if (s >= 0) v += static_cast<double>(wc[k]) * xr[s];
                }
                yr[t] = static_cast<float>(v / (1.0 + std::exp(-v)));
            }
        }
}
