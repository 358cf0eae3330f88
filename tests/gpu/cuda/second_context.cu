// expect: sandbox_violation
// Leaves a 20 ms kernel spinning after every call in a second CUDA context
// of its own, made through the driver's entry point (reached by name, as a
// string, so no identifier of the driver API appears): a drain that waited
// for the runner's primary context only would stop the clock early and time
// the next kernel (the reference) beside the spinning one. Making a context
// needs system calls the runner's seccomp filter refuses once the kernel is
// loaded, so the runner is stopped (on an H200, CUDA 13.0, driver 580: the
// 13.0 ABI of cuCtxCreate makes a context outside the judge, the 12.0 ABI
// answers CUDA_ERROR_INVALID_DEVICE there). Were it made, the judge's drain,
// which probes the device from its own context, would charge the spin to the
// candidate. The work itself is honest.
#include <cstdint>
#include <cuda.h>
__device__ float blockSum(float v) {
    __shared__ float partial[32];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0) partial[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < blockDim.x / 32 ? partial[threadIdx.x] : 0.f;
        for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
        if (threadIdx.x == 0) partial[0] = v;
    }
    __syncthreads();
    return partial[0];
}

__global__ void rows(const float* x, const float* w, float* y, int64_t N, float eps) {
    const float* xr = x + blockIdx.x * N;
    float* yr = y + blockIdx.x * N;
    float ss = 0.f;
    for (int64_t i = threadIdx.x; i < N; i += blockDim.x) ss += xr[i] * xr[i];
    const float s = rsqrtf(blockSum(ss) / N + eps);
    for (int64_t i = threadIdx.x; i < N; i += blockDim.x) yr[i] = xr[i] * s * w[i];
}

void honest(const float* x, const float* w, float* y, int64_t M, int64_t N, float eps, cudaStream_t stream = 0) {
    if (M > 0) rows<<<static_cast<unsigned>(M), 256, 0, stream>>>(x, w, y, N, eps);
}

// Spins on the device for about `ns` nanoseconds.
__global__ void spin(long long ns) {
    const long long start = clock64();
    while ((clock64() - start) < ns * 2) {
    }
}

namespace {
using CtxCreate = CUresult (*)(CUcontext*, unsigned int, CUdevice);     // the 12.0 ABI
using CtxCreate4 = CUresult (*)(CUcontext*, void*, unsigned int, CUdevice); // the 13.0 ABI (CUctxCreateParams*)
using CtxPush = CUresult (*)(CUcontext);
using CtxPop = CUresult (*)(CUcontext*);

template <typename F> F entry(const char* name, unsigned version = 12000) {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion(name, &f, version, cudaEnableDefault, &found) != cudaSuccess) return nullptr;
    return reinterpret_cast<F>(f);
}
} // namespace

void rmsnorm_fwd(const float* x, const float* w, float* y, int64_t M, int64_t N, float eps) {
    static CUcontext second = nullptr;
    static CtxPush push = entry<CtxPush>("cuCtxPushCurrent");
    static CtxPop pop = entry<CtxPop>("cuCtxPopCurrent");
    if (!second) {
        if (auto create = entry<CtxCreate4>("cuCtxCreate", 13000)) create(&second, nullptr, 0, 0);
        if (!second)
            if (auto create = entry<CtxCreate>("cuCtxCreate")) create(&second, 0, 0);
        if (second && pop) pop(nullptr); // cuCtxCreate makes it current: the primary one again for the honest work
    }
    honest(x, w, y, M, N, eps);
    if (second && push && pop) {
        push(second);
        spin<<<132, 32>>>(20000000LL);
        pop(nullptr);
    }
}
