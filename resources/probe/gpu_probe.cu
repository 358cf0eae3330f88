// Kernelwright GPU machine probe: device-to-device copy bandwidth, peak FP32
// FMA rate, dense matrix throughput (cuBLAS, bf16 and fp32 inputs), the rate
// of random reads from an L2-resident table, SM count and L2 size of every
// visible GPU, printed as one JSON object on stdout.
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

// One random 8-byte read per query from a table that stays in L2, the index
// streamed in and the value streamed out: the least work a lookup operator
// (an id map, an embedding row id, a hash probe) does per query. Four
// queries per thread per step, so loads in flight, not latency, bound it.
__global__ void gatherKernel(const long long* __restrict__ index, const long long* __restrict__ table,
                             long long* __restrict__ out, long long n) {
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
        const long long a = index[i], b = index[i + stride], c = index[i + 2 * stride], d = index[i + 3 * stride];
        const long long va = table[a], vb = table[b], vc = table[c], vd = table[d];
        out[i] = va;
        out[i + stride] = vb;
        out[i + 2 * stride] = vc;
        out[i + 3 * stride] = vd;
    }
    for (; i < n; i += stride) out[i] = table[index[i]];
}

__global__ void fillIndex(long long* index, long long n, long long entries) {
    const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned long long x = static_cast<unsigned long long>(i) * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    index[i] = static_cast<long long>(x & static_cast<unsigned long long>(entries - 1));
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

        // A table of a quarter of L2 (a power of two of int64 entries): it
        // stays resident while 2^24 queries stream through.
        long long entries = 1;
        while (entries * 2 * 8 <= static_cast<long long>(p.l2CacheSize) / 4) entries *= 2;
        const long long queries = 1ll << 24;
        long long *index, *table, *values;
        CHECK(cudaMalloc(&index, queries * 8));
        CHECK(cudaMalloc(&values, queries * 8));
        CHECK(cudaMalloc(&table, entries * 8));
        CHECK(cudaMemset(table, 1, entries * 8));
        fillIndex<<<static_cast<unsigned>((queries + 255) / 256), 256>>>(index, queries, entries);
        CHECK(cudaGetLastError());
        const float gatherMs = bestMs(
            [&] {
                gatherKernel<<<p.multiProcessorCount * 8, 256>>>(index, table, values, queries);
                CHECK(cudaGetLastError());
            },
            10);
        CHECK(cudaFree(index));
        CHECK(cudaFree(values));
        CHECK(cudaFree(table));
        const double gatherG = static_cast<double>(queries) / (gatherMs * 1e-3) / 1e9;

        cublasHandle_t h;
        CHECK_BLAS(cublasCreate(&h));
        const double bf16 = gemmTflops(h, CUDA_R_16BF, 8192);
        const double fp32 = gemmTflops(h, CUDA_R_32F, 8192);
        CHECK_BLAS(cublasDestroy(h));

        std::printf("%s{\"index\":%d,\"name\":\"%s\",\"cc\":\"%d.%d\",\"sm_count\":%d,\"l2_bytes\":%d,\"memory_bytes\":%zu,"
                    "\"copy_gbs\":%.1f,\"l2_gather_gps\":%.2f,\"l2_gather_table_bytes\":%lld,\"fp32_fma_tflops\":%.2f,\"bf16_"
                    "matrix_tflops\":%.1f,\"fp32_matrix_tflops\":%.1f}",
                    d ? "," : "", d, p.name, p.major, p.minor, p.multiProcessorCount, p.l2CacheSize, p.totalGlobalMem, copyGBs,
                    gatherG, entries * 8, fmaTflops, bf16, fp32);
    }
    std::printf("]}\n");
    return 0;
}
