// Kernelsmith GPU machine probe: device-to-device copy bandwidth, peak FP32
// FMA rate, dense matrix throughput (cuBLAS, bf16 and fp32 inputs), SM count
// and L2 size of every visible GPU, printed as one JSON object on stdout.
// Built and run on the GPU host:  nvcc -O2 -o gpu_probe gpu_probe.cu -lcublas
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#define CHECK(call)                                                                                                              \
    do {                                                                                                                         \
        cudaError_t e_ = (call);                                                                                                 \
        if (e_ != cudaSuccess) {                                                                                                 \
            std::fprintf(stderr, "gpu_probe: %s failed: %s\n", #call, cudaGetErrorString(e_));                                   \
            std::exit(2);                                                                                                        \
        }                                                                                                                        \
    } while (0)
#define CHECK_BLAS(call)                                                                                                         \
    do {                                                                                                                         \
        cublasStatus_t s_ = (call);                                                                                              \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                                                       \
            std::fprintf(stderr, "gpu_probe: %s failed: status %d\n", #call, static_cast<int>(s_));                              \
            std::exit(2);                                                                                                        \
        }                                                                                                                        \
    } while (0)

constexpr int kFmaIters = 4096;

// Eight independent FMA chains per thread, so issue rate, not latency, bounds it.
__global__ void fmaKernel(float* out, float m, float c) {
    float a0 = threadIdx.x, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3, a4 = a0 + 4, a5 = a0 + 5, a6 = a0 + 6, a7 = a0 + 7;
#pragma unroll 16
    for (int i = 0; i < kFmaIters; ++i) {
        a0 = fmaf(a0, m, c);
        a1 = fmaf(a1, m, c);
        a2 = fmaf(a2, m, c);
        a3 = fmaf(a3, m, c);
        a4 = fmaf(a4, m, c);
        a5 = fmaf(a5, m, c);
        a6 = fmaf(a6, m, c);
        a7 = fmaf(a7, m, c);
    }
    const float s = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
    if (s == 42.0f) out[blockIdx.x * blockDim.x + threadIdx.x] = s; // keeps the chains alive
}

template <typename F> float bestMs(F body, int reps) {
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    body(); // warm-up
    CHECK(cudaDeviceSynchronize());
    float best = 1e30f;
    for (int r = 0; r < reps; ++r) {
        CHECK(cudaEventRecord(a));
        body();
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        best = std::min(best, ms);
    }
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    return best;
}

double gemmTflops(cublasHandle_t h, cudaDataType type, int n) {
    const size_t elems = static_cast<size_t>(n) * n, size = type == CUDA_R_32F ? 4 : 2;
    void *A, *B, *C;
    CHECK(cudaMalloc(&A, elems * size));
    CHECK(cudaMalloc(&B, elems * size));
    CHECK(cudaMalloc(&C, elems * 4));
    CHECK(cudaMemset(A, 0, elems * size));
    CHECK(cudaMemset(B, 0, elems * size));
    const float alpha = 1, beta = 0;
    const cublasComputeType_t compute = type == CUDA_R_32F ? CUBLAS_COMPUTE_32F : CUBLAS_COMPUTE_32F;
    const float ms = bestMs(
        [&] {
            CHECK_BLAS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, A, type, n, B, type, n, &beta, C, CUDA_R_32F, n,
                                    compute, CUBLAS_GEMM_DEFAULT));
        },
        5);
    CHECK(cudaFree(A));
    CHECK(cudaFree(B));
    CHECK(cudaFree(C));
    return 2.0 * n * static_cast<double>(n) * n / (ms * 1e-3) / 1e12;
}

int main() {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        std::printf("{\"gpus\":[]}\n");
        std::fprintf(stderr, "gpu_probe: no CUDA device visible\n");
        return 1;
    }
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    std::printf("{\"cuda_driver\":%d,\"cuda_runtime\":%d,\"gpus\":[", driver, runtime);
    for (int d = 0; d < count; ++d) {
        CHECK(cudaSetDevice(d));
        cudaDeviceProp p{};
        CHECK(cudaGetDeviceProperties(&p, d));

        const size_t bytes = size_t(1) << 30;
        void *src, *dst;
        CHECK(cudaMalloc(&src, bytes));
        CHECK(cudaMalloc(&dst, bytes));
        CHECK(cudaMemset(src, 1, bytes));
        const float copyMs = bestMs([&] { CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice)); }, 10);
        CHECK(cudaFree(src));
        CHECK(cudaFree(dst));
        const double copyGBs = 2.0 * static_cast<double>(bytes) / (copyMs * 1e-3) / 1e9;

        float* out;
        const int blocks = p.multiProcessorCount * 16, threads = 256;
        CHECK(cudaMalloc(&out, sizeof(float) * blocks * threads));
        const float fmaMs = bestMs(
            [&] {
                fmaKernel<<<blocks, threads>>>(out, 0.999999f, 1e-7f);
                CHECK(cudaGetLastError());
            },
            10);
        CHECK(cudaFree(out));
        const double fmaTflops = 2.0 * 8 * kFmaIters * static_cast<double>(blocks) * threads / (fmaMs * 1e-3) / 1e12;

        cublasHandle_t h;
        CHECK_BLAS(cublasCreate(&h));
        const double bf16 = gemmTflops(h, CUDA_R_16BF, 8192);
        const double fp32 = gemmTflops(h, CUDA_R_32F, 8192);
        CHECK_BLAS(cublasDestroy(h));

        std::printf("%s{\"index\":%d,\"name\":\"%s\",\"cc\":\"%d.%d\",\"sm_count\":%d,\"l2_bytes\":%d,\"memory_bytes\":%zu,"
                    "\"copy_gbs\":%.1f,\"fp32_fma_tflops\":%.2f,\"bf16_matrix_tflops\":%.1f,\"fp32_matrix_tflops\":%.1f}",
                    d ? "," : "", d, p.name, p.major, p.minor, p.multiProcessorCount, p.l2CacheSize, p.totalGlobalMem, copyGBs,
                    fmaTflops, bf16, fp32);
    }
    std::printf("]}\n");
    return 0;
}
