// Library baseline: the operator as a user would write it with OpenBLAS, two
// SGEMMs per batch in the operator's own association, T = X^T Y then X T.
#include <cblas.h>

#include <vector>

void wukong_fm(const float* x, const float* y, float* out, int64_t B, int64_t N, int64_t D, int64_t K) {
    std::vector<float> t(static_cast<size_t>(D * K));
    for (int64_t b = 0; b < B; ++b) {
        const float* xb = x + b * N * D;
        const float* yb = y + b * N * K;
        float* ob = out + b * N * K;
        // T (D x K) = X^T (D x N) * Y (N x K)
        cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, static_cast<int>(D), static_cast<int>(K), static_cast<int>(N), 1.0f,
                    xb, static_cast<int>(D), yb, static_cast<int>(K), 0.0f, t.data(), static_cast<int>(K));
        // out (N x K) = X (N x D) * T (D x K)
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(N), static_cast<int>(K), static_cast<int>(D), 1.0f,
                    xb, static_cast<int>(D), t.data(), static_cast<int>(K), 0.0f, ob, static_cast<int>(K));
    }
}
