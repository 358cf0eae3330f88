// Reference dense conv1d (kernel 3, stride 1, zero padding 1) + bias:
// one dot product per output, plain loops, single thread, double accumulator.
//
//   y[b,o,t] = bias[o] + sum_i sum_{k<3} w[o,i,k] * x[b,i,t-1+k]   (x outside [0,L) = 0)

void conv1d(const float* x, const float* w, const float* bias, float* y, int64_t B, int64_t Cin, int64_t Cout,
            int64_t L) {
    for (int64_t b = 0; b < B; ++b)
        for (int64_t o = 0; o < Cout; ++o)
            for (int64_t t = 0; t < L; ++t) {
                double acc = bias[o];
                for (int64_t i = 0; i < Cin; ++i) {
                    const float* xr = x + (b * Cin + i) * L;
                    const float* wk = w + (o * Cin + i) * 3;
                    for (int64_t k = 0; k < 3; ++k) {
                        const int64_t s = t - 1 + k;
                        if (s >= 0 && s < L) acc += static_cast<double>(wk[k]) * xr[s];
                    }
                }
                y[(b * Cout + o) * L + t] = static_cast<float>(acc);
            }
}
