// Broken: a type error in device code. Expected: compile_error with nvcc's message.
__global__ void k(float* y) { y[threadIdx.x] = "zero"; }

void rmsnorm_fwd(const float* x, const float* w, float* y, int64_t M, int64_t N, float eps) {
    k<<<1, 32>>>(y);
}
