# An honest gpu_softmax candidate the way many models write one: its CUDA
# source written to a .cu file next to its own module (pathlib), built by
# torch.utils.cpp_extension.load into a build folder there, once, by a
# function that keeps the extension in a global. The judge lets it write in
# its own folder only (torch_landlock); tests/gpu/verify_torch_backend.sh
# evaluates it (written_cuda).
import pathlib

import torch
from torch.utils.cpp_extension import load

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

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("softmax_forward", &softmax_forward); }
"""

_ext = None


def ext():
    global _ext
    if _ext is None:
        here = pathlib.Path(__file__).resolve().parent
        build = here / "softmax_build"
        build.mkdir(exist_ok=True)
        source = here / "softmax_rows.cu"
        source.write_text(_SOURCE)
        _ext = load(name="kw_softmax_written", sources=[str(source)], build_directory=str(build),
                    extra_cuda_cflags=["-O3", "-arch=sm_90"], verbose=False)
    return _ext


class ModelNew(torch.nn.Module):
    def forward(self, x):
        return ext().softmax_forward(x, 512)
