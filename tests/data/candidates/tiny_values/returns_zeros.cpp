// Writes zeros everywhere.
void tiny(const float* x, float* y, int64_t N) {
    (void)x;
    for (int64_t i = 0; i < N; ++i) y[i] = 0.0f;
}
