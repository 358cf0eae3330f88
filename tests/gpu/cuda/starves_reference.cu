// expect: ok-but-slow
// Rewrites cudaDeviceSynchronize in its process to return at once, then
// leaves a 50 ms kernel spinning on a stream of its own after each call: a
// harness that trusts the kernel's process to wait for the device would
// stop its clock early and time the next kernel (the reference) beside the
// spinning one. The work itself is honest.
#include <cstdint>
#include <cstring>
#include <sys/mman.h>
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
struct Patch {
    Patch() {
        auto* code = reinterpret_cast<unsigned char*>(reinterpret_cast<void*>(&cudaDeviceSynchronize));
        const uintptr_t page = reinterpret_cast<uintptr_t>(code) & ~static_cast<uintptr_t>(4095);
        if (mprotect(reinterpret_cast<void*>(page), 8192, PROT_READ | PROT_WRITE | PROT_EXEC) == 0) {
            const unsigned char stub[] = {0x31, 0xC0, 0xC3}; // xor eax,eax; ret: cudaSuccess
            std::memcpy(code, stub, sizeof stub);
        }
    }
} patch;
} // namespace
void rmsnorm_fwd(const float* x, const float* w, float* y, int64_t M, int64_t N, float eps) {
    static cudaStream_t side = nullptr;
    if (!side) cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    honest(x, w, y, M, N, eps);
    spin<<<132, 32, 0, side>>>(50000000LL);
}