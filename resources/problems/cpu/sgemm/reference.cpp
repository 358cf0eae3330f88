// Reference SGEMM: C = A * B, row-major f32, plain loops, single thread.
//
//   C[i, j] = sum_k A[i, k] * B[k, j]
//
// The i-k-j loop order is the naive but sensible one: the inner loop walks a
// row of B and a row of C with unit stride, so the compiler vectorizes it, and
// each C row is accumulated in f32 (in order of k) while it stays in cache.
// No blocking, no packing, no register tiling: those are the candidates' job.

void sgemm(const float* A, const float* B, float* C, int64_t M, int64_t N, int64_t K) {
    for (int64_t i = 0; i < M; ++i) {
        float* c = C + i * N;
        for (int64_t j = 0; j < N; ++j) c[j] = 0.0f;
        for (int64_t k = 0; k < K; ++k) {
            const float a = A[i * K + k];
            const float* b = B + k * N;
            for (int64_t j = 0; j < N; ++j) c[j] += a * b[j];
        }
    }
}
