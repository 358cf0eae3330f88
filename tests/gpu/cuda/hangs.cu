// Broken: a kernel that never ends (it waits for y to hold a value nothing
// writes; y holds the harness's poison). Expected: timeout (the call's
// watchdog), and the jobs after it run normally.
__global__ void spin(volatile unsigned* y) {
    while (*y != 0x12345678u) {
    }
}

void rmsnorm_fwd(const float* x, const float* w, float* y, int64_t M, int64_t N, float eps) {
    spin<<<1, 1>>>(reinterpret_cast<volatile unsigned*>(y));
}
