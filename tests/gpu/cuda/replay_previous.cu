// expect: wrong_answer
// Computes the answer of the first call of each shape, keeps it in device
// memory of its own and copies it out on every later call of that shape:
// right for a harness that times one input over and over.
#include <map>
#include <utility>
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


void rmsnorm_fwd(const float* x, const float* w, float* y, int64_t M, int64_t N, float eps) {
    static std::map<std::pair<int64_t, int64_t>, float*> kept;
    float*& k = kept[{M, N}];
    const size_t bytes = static_cast<size_t>(M * N) * sizeof(float);
    if (k) {
        cudaMemcpyAsync(y, k, bytes, cudaMemcpyDeviceToDevice);
        return;
    }
    honest(x, w, y, M, N, eps);
    if (cudaMalloc(&k, bytes) == cudaSuccess) cudaMemcpy(k, y, bytes, cudaMemcpyDeviceToDevice);
}