// Horner's rule on 8 independent 16-lane vectors at once: enough FMAs in
// flight to keep both FMA pipes busy despite each chain's latency.
typedef float v16 __attribute__((vector_size(64)));

static float coefficient(int k) { return (k % 2 ? -1.0f : 1.0f) / static_cast<float>(k + 1); }

void poly_eval(const float* x, float* y, int64_t N) {
    float c[65];
    for (int k = 0; k <= 64; ++k) c[k] = coefficient(k);
    constexpr int kChains = 8, kLanes = 16, kBlock = kChains * kLanes;
    int64_t i = 0;
    for (; i + kBlock <= N; i += kBlock) {
        v16 xv[kChains], p[kChains];
        for (int j = 0; j < kChains; ++j) {
            __builtin_memcpy(&xv[j], x + i + j * kLanes, sizeof(v16));
            p[j] = v16{} + c[64];
        }
        for (int k = 63; k >= 0; --k)
            for (int j = 0; j < kChains; ++j) p[j] = p[j] * xv[j] + c[k];
        for (int j = 0; j < kChains; ++j) __builtin_memcpy(y + i + j * kLanes, &p[j], sizeof(v16));
    }
    for (; i < N; ++i) {
        float p = c[64];
        for (int k = 63; k >= 0; --k) p = p * x[i] + c[k];
        y[i] = p;
    }
}
