// Asks aligned_alloc() for 100 GB and writes through the result without
// checking it: the runner's allocator reports the refusal (oom), however the
// kernel allocates.
#include <cstdlib>
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    volatile char* huge = static_cast<volatile char*>(std::aligned_alloc(64, 100ull << 30));
    huge[0] = 1;
    for (int64_t i = 0; i < N; ++i) y[i] = a * x[i] + z[i] + static_cast<float>(huge[0] - 1);
    std::free(const_cast<char*>(huge));
}
