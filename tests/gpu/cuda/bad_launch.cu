// Broken: 2048 threads per block, more than any GPU allows. Expected: runtime_error (invalid configuration).
__global__ void k(float* y) { y[threadIdx.x] = 0.f; }

void rmsnorm_fwd(const float* x, const float* w, float* y, int64_t M, int64_t N, float eps) {
    k<<<1, 2048>>>(y);
}
