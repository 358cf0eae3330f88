// Three kernels with known bottlenecks, profiled with ncu to capture the CSV
// fixtures under tests/data/ncu/: a streaming copy (memory-bound), an FMA
// loop (compute-bound) and a one-block kernel (launch overhead, low occupancy).
#include <cuda_runtime.h>
#include <cstdio>

__global__ void streamCopy(const float4* __restrict__ in, float4* __restrict__ out, size_t n) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) out[i] = in[i];
}

__global__ void fmaLoop(float* out, float m, float c) {
    float a0 = threadIdx.x, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3, a4 = a0 + 4, a5 = a0 + 5, a6 = a0 + 6, a7 = a0 + 7;
    for (int i = 0; i < 4096; ++i) {
        a0 = fmaf(a0, m, c); a1 = fmaf(a1, m, c); a2 = fmaf(a2, m, c); a3 = fmaf(a3, m, c);
        a4 = fmaf(a4, m, c); a5 = fmaf(a5, m, c); a6 = fmaf(a6, m, c); a7 = fmaf(a7, m, c);
    }
    const float s = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
    if (s == 42.0f) out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void tinyScale(float* x, int n) {
    const int i = threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

int main() {
    const size_t n = size_t(64) << 20; // float4s: 1 GiB each way
    float4 *in, *out;
    float* f;
    if (cudaMalloc(&in, n * sizeof(float4)) || cudaMalloc(&out, n * sizeof(float4)) || cudaMalloc(&f, 1 << 24)) return 1;
    cudaMemset(in, 0, n * sizeof(float4));
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    streamCopy<<<sms * 8, 512>>>(in, out, n);
    fmaLoop<<<sms * 16, 256>>>(f, 0.999999f, 1e-7f);
    tinyScale<<<1, 64>>>(f, 64);
    const cudaError_t e = cudaDeviceSynchronize();
    std::printf("ncu_fixture: %s\n", cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : 1;
}
