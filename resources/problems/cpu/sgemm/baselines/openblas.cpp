// OpenBLAS baseline: the same kernel through cblas_sgemm (row-major, no
// transposes, alpha = 1, beta = 0). Trusted problem code, linked with
// -lopenblas; OpenBLAS picks its own thread count (OPENBLAS_NUM_THREADS or
// all cores), so compare it with the candidates' THREADS setting in mind.
#include <cblas.h>

void sgemm(const float* A, const float* B, float* C, int64_t M, int64_t N, int64_t K) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<blasint>(M), static_cast<blasint>(N),
                static_cast<blasint>(K), 1.0f, A, static_cast<blasint>(K), B, static_cast<blasint>(N), 0.0f, C,
                static_cast<blasint>(N));
}
