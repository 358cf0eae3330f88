// Kernelsmith CUDA harness: device mirrors, CUDA-event timing and the L2 flush
// (see device_mirror.h). Built by run.sh with the target's nvcc.
#include "device_mirror.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

constexpr size_t kRedZoneBytes = 4096;
constexpr unsigned char kRedZoneByte = 0xCD;

cudaEvent_t gStart = nullptr, gEnd = nullptr;
void* gFlush = nullptr;
size_t gFlushBytes = 0;
double gEmptyRegionS = 0;
std::string gName;

std::string check(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return {};
    return std::string(what) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
}

int* gDiffers = nullptr; // device flag of ksDevEqual

// Sets *differs when any byte differs; 16 bytes a load where both are aligned (cudaMalloc's are).
__global__ void compareBytes(const unsigned char* a, const unsigned char* b, size_t bytes, int* differs) {
    const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    const size_t first = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const size_t chunks = bytes / 16;
    const uint4* a4 = reinterpret_cast<const uint4*>(a);
    const uint4* b4 = reinterpret_cast<const uint4*>(b);
    for (size_t i = first; i < chunks; i += stride) {
        const uint4 x = a4[i], y = b4[i];
        if (x.x != y.x || x.y != y.y || x.z != y.z || x.w != y.w) *differs = 1;
    }
    for (size_t i = chunks * 16 + first; i < bytes; i += stride)
        if (a[i] != b[i]) *differs = 1;
}

} // namespace

std::string ksDevInit() {
    int count = 0;
    if (auto err = check(cudaGetDeviceCount(&count), "cudaGetDeviceCount"); !err.empty())
        return "no usable CUDA device on this host: " + err;
    if (count == 0) return "no CUDA device on this host (CUDA_VISIBLE_DEVICES may hide them)";
    if (auto err = check(cudaSetDevice(0), "cudaSetDevice"); !err.empty()) return err;
    cudaDeviceProp prop{};
    if (auto err = check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties"); !err.empty()) return err;
    gName = std::string(prop.name) + " (sm_" + std::to_string(prop.major) + std::to_string(prop.minor) + ")";
    if (auto err = check(cudaEventCreate(&gStart), "cudaEventCreate"); !err.empty()) return err;
    if (auto err = check(cudaEventCreate(&gEnd), "cudaEventCreate"); !err.empty()) return err;
    // Twice the L2, at least 64 MiB: writing it evicts whatever a previous call left there.
    gFlushBytes = std::max<size_t>(size_t(2) * static_cast<size_t>(prop.l2CacheSize), size_t(64) << 20);
    if (auto err = check(cudaMalloc(&gFlush, gFlushBytes), "cudaMalloc (L2 flush buffer)"); !err.empty()) return err;
    // What a timed region costs with no kernel in it: the synchronize and the events.
    std::vector<double> empty;
    for (int i = 0; i < 25; ++i) {
        double s = 0;
        if (auto err = ksDevBegin(); !err.empty()) return err;
        if (auto err = ksDevEnd(&s); !err.empty()) return err;
        empty.push_back(s);
    }
    std::sort(empty.begin(), empty.end());
    gEmptyRegionS = empty[empty.size() / 2];
    return {};
}

std::string ksDevName() {
    return gName;
}

std::string ksDevAlloc(size_t bytes, void** dev) {
    *dev = nullptr;
    void* p = nullptr;
    if (auto err = check(cudaMalloc(&p, bytes + kRedZoneBytes), "cudaMalloc"); !err.empty()) return err;
    if (auto err = check(cudaMemset(static_cast<unsigned char*>(p) + bytes, kRedZoneByte, kRedZoneBytes), "cudaMemset (red zone)");
        !err.empty()) {
        cudaFree(p);
        return err;
    }
    *dev = p;
    return {};
}

void ksDevFree(void* dev) {
    if (dev) cudaFree(dev);
}

std::string ksDevUpload(void* dev, const void* host, size_t bytes) {
    if (bytes == 0) return {};
    return check(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy to the device");
}

std::string ksDevDownload(void* host, const void* dev, size_t bytes) {
    if (bytes == 0) return {};
    return check(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy from the device");
}

std::string ksDevRedZone(const void* dev, size_t bytes, bool* intact) {
    *intact = true;
    unsigned char zone[kRedZoneBytes];
    if (auto err = ksDevDownload(zone, static_cast<const unsigned char*>(dev) + bytes, kRedZoneBytes); !err.empty()) return err;
    for (size_t i = 0; i < kRedZoneBytes; ++i)
        if (zone[i] != kRedZoneByte) {
            *intact = false;
            return "byte " + std::to_string(i) + " past the end";
        }
    return {};
}

std::string ksDevCopy(void* dst, const void* src, size_t bytes) {
    if (bytes == 0) return {};
    return check(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy on the device");
}

std::string ksDevEqual(const void* a, const void* b, size_t bytes, bool* equal) {
    *equal = false;
    if (!gDiffers)
        if (auto err = check(cudaMalloc(&gDiffers, sizeof(int)), "cudaMalloc (comparison flag)"); !err.empty()) return err;
    if (auto err = check(cudaMemset(gDiffers, 0, sizeof(int)), "cudaMemset (comparison flag)"); !err.empty()) return err;
    if (bytes > 0) {
        compareBytes<<<264, 256>>>(static_cast<const unsigned char*>(a), static_cast<const unsigned char*>(b), bytes, gDiffers);
        if (auto err = check(cudaGetLastError(), "the comparison kernel's launch"); !err.empty()) return err;
    }
    int differs = 1;
    if (auto err = check(cudaMemcpy(&differs, gDiffers, sizeof(int), cudaMemcpyDeviceToHost), "cudaMemcpy (comparison flag)"); !err.empty())
        return err;
    *equal = differs == 0;
    return {};
}

std::string ksDevFlushL2() {
    if (auto err = check(cudaMemsetAsync(gFlush, 0, gFlushBytes, 0), "cudaMemsetAsync (L2 flush)"); !err.empty()) return err;
    return {};
}

std::string ksDevBegin() {
    // An idle device first: a kernel on a stream of the candidate's own cannot
    // then start before the start event (say, beside the L2 flush).
    if (auto err = check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); !err.empty()) return err;
    return check(cudaEventRecord(gStart, 0), "cudaEventRecord (start)");
}

std::string ksDevEnd(double* seconds) {
    *seconds = 0;
    // The launcher's own errors (a bad launch configuration) and the kernels'
    // (an illegal address) surface here; the synchronize also takes in work
    // the candidate put on other streams.
    if (auto err = check(cudaGetLastError(), "kernel launch"); !err.empty()) return err;
    if (auto err = check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); !err.empty()) return err;
    if (auto err = check(cudaEventRecord(gEnd, 0), "cudaEventRecord (end)"); !err.empty()) return err;
    if (auto err = check(cudaEventSynchronize(gEnd), "cudaEventSynchronize"); !err.empty()) return err;
    float ms = 0;
    if (auto err = check(cudaEventElapsedTime(&ms, gStart, gEnd), "cudaEventElapsedTime"); !err.empty()) return err;
    *seconds = std::max(1e-9, static_cast<double>(ms) * 1e-3 - gEmptyRegionS);
    return {};
}
