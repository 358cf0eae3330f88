# A gpu_softmax candidate in CUDA C++, built by torch.utils.cpp_extension.load_inline:
# what a candidate that brings its own CUDA looks like (tests/gpu/run_on_gpu.sh
# evaluates it). One block per row: a max pass, a sum pass, a write pass, each
# over the row in float4 loads where the row length allows.
# @kw-param THREADS: 256 | 512 | 1024 = 512
import torch
from torch.utils.cpp_extension import load_inline
from kw_params import THREADS

_SOURCE = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

template <int THREADS>
__device__ float block_reduce(float v, bool is_max, float* shared) {
    for (int o = 16; o > 0; o >>= 1) {
        const float other = __shfl_xor_sync(0xffffffff, v, o);
        v = is_max ? fmaxf(v, other) : v + other;
    }
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) shared[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < THREADS / 32 ? shared[lane] : (is_max ? -INFINITY : 0.f);
        for (int o = 16; o > 0; o >>= 1) {
            const float other = __shfl_xor_sync(0xffffffff, v, o);
            v = is_max ? fmaxf(v, other) : v + other;
        }
        if (lane == 0) shared[0] = v;
    }
    __syncthreads();
    const float r = shared[0];
    __syncthreads();
    return r;
}

template <int THREADS>
__global__ void softmax_rows(const float* __restrict__ x, float* __restrict__ y, long n) {
    __shared__ float shared[32];
    const float* row = x + blockIdx.x * n;
    float* out = y + blockIdx.x * n;
    float m = -INFINITY;
    for (long i = threadIdx.x; i < n; i += THREADS) m = fmaxf(m, row[i]);
    m = block_reduce<THREADS>(m, true, shared);
    float s = 0.f;
    for (long i = threadIdx.x; i < n; i += THREADS) s += __expf(row[i] - m);
    s = block_reduce<THREADS>(s, false, shared);
    const float inv = 1.f / s;
    for (long i = threadIdx.x; i < n; i += THREADS) out[i] = __expf(row[i] - m) * inv;
}

torch::Tensor softmax_forward(torch::Tensor x, int64_t threads) {
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const long n = xc.size(-1), rows = xc.numel() / (n > 0 ? n : 1);
    if (rows == 0 || n == 0) return y;
    const float* xp = xc.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    if (threads == 256) softmax_rows<256><<<rows, 256>>>(xp, yp, n);
    else if (threads == 512) softmax_rows<512><<<rows, 512>>>(xp, yp, n);
    else softmax_rows<1024><<<rows, 1024>>>(xp, yp, n);
    return y;
}
"""

_ext = load_inline(name="kw_softmax_rows", cpp_sources="torch::Tensor softmax_forward(torch::Tensor x, int64_t threads);",
                   cuda_sources=_SOURCE, functions=["softmax_forward"], extra_cuda_cflags=["-O3", "-arch=sm_90"], verbose=False)


class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.softmax_forward(x, THREADS)
