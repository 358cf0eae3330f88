// Horner's rule on independent vectors at once: enough FMAs in flight to keep
// both FMA pipes busy despite each chain's latency, and few enough that the
// chains and their inputs stay in registers: 8 x 16 lanes in AVX-512's 32
// registers, 6 x 8 lanes in AVX2's 16 (16-lane vectors split in halves there
// spill, and the kernel reached 3% of the FMA roof).
#if defined(__AVX512F__)
typedef float vec __attribute__((vector_size(64)));
constexpr int kChains = 8, kLanes = 16;
#else
typedef float vec __attribute__((vector_size(32)));
constexpr int kChains = 6, kLanes = 8;
#endif

static float coefficient(int k) { return (k % 2 ? -1.0f : 1.0f) / static_cast<float>(k + 1); }

void poly_eval(const float* x, float* y, int64_t N) {
    float c[257];
    for (int k = 0; k <= 256; ++k) c[k] = coefficient(k);
    constexpr int kBlock = kChains * kLanes;
    int64_t i = 0;
    for (; i + kBlock <= N; i += kBlock) {
        vec xv[kChains], p[kChains];
        for (int j = 0; j < kChains; ++j) {
            __builtin_memcpy(&xv[j], x + i + j * kLanes, sizeof(vec));
            p[j] = vec{} + c[256];
        }
        for (int k = 255; k >= 0; --k)
            for (int j = 0; j < kChains; ++j) p[j] = p[j] * xv[j] + c[k];
        for (int j = 0; j < kChains; ++j) __builtin_memcpy(y + i + j * kLanes, &p[j], sizeof(vec));
    }
    for (; i < N; ++i) {
        float p = c[256];
        for (int k = 255; k >= 0; --k) p = p * x[i] + c[k];
        y[i] = p;
    }
}
