static float coefficient(int k) { return (k % 2 ? -1.0f : 1.0f) / static_cast<float>(k + 1); }

void poly_eval(const float* x, float* y, int64_t N) {
    for (int64_t i = 0; i < N; ++i) {
        float p = coefficient(256);
        for (int k = 255; k >= 0; --k) p = p * x[i] + coefficient(k);
        y[i] = p;
    }
}
