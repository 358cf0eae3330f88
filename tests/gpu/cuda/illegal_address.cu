// Broken: stores through a wild pointer. Expected: runtime_error naming the CUDA error (an illegal address).
__global__ void wild(float* p) {
    p[threadIdx.x] = 1.f;
}

void rmsnorm_fwd(const float* x, const float* w, float* y, int64_t M, int64_t N, float eps) {
    wild<<<1, 32>>>(reinterpret_cast<float*>(0x10));
}
