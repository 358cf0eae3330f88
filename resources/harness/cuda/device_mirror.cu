// Kernelwright's judge, CUDA side: device mirrors shared through CUDA IPC,
// comparisons on the device and the L2 flush (see device_mirror.h). Built by
// run.sh with the target's nvcc.
#include "device_mirror.h"

#include <cuda_runtime.h>
#include <unistd.h>

#include <type_traits>

#include "driver_api.h"

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <vector>

namespace {

constexpr size_t kRedZoneBytes = 4096;
constexpr unsigned char kRedZoneByte = 0xCD;

void* gFlush = nullptr;
size_t gFlushBytes = 0;
std::string gName;
std::string check(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return {};
    return std::string(what) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
}

double gProbeS = 0; // an idle device's probe round trip (median)

__global__ void probe() {}

double nowS() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// One probe: a launch of the judge's own and its completion.
std::string probeOnce(double* seconds) {
    const double t0 = nowS();
    probe<<<1, 1>>>();
    if (auto err = check(cudaGetLastError(), "the probe's launch"); !err.empty()) return err;
    if (auto err = check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (probe)"); !err.empty()) return err;
    *seconds = nowS() - t0;
    return {};
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

namespace {
struct SharedAllocation {
    CUmemGenericAllocationHandle handle;
    size_t size;
};
std::map<void*, SharedAllocation> gShared; // ksDevFree tells them from cudaMalloc's
KwDriverApi gDriver;

std::string checkDriver(CUresult r, const char* what) {
    if (r == CUDA_SUCCESS) return {};
    return std::string(what) + ": " + gDriver.errorName(r);
}
} // namespace

std::string ksDevInit() {
    int count = 0;
    if (auto err = check(cudaGetDeviceCount(&count), "cudaGetDeviceCount"); !err.empty())
        return "no usable CUDA device on this host: " + err;
    if (count == 0) return "no CUDA device on this host (CUDA_VISIBLE_DEVICES may hide them)";
    if (auto err = check(cudaSetDevice(0), "cudaSetDevice"); !err.empty()) return err;
    if (auto err = check(cudaFree(nullptr), "cudaFree (making the context)"); !err.empty()) return err;
    if (const char* why = gDriver.load(); *why) return why;
    cudaDeviceProp prop{};
    if (auto err = check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties"); !err.empty()) return err;
    gName = std::string(prop.name) + " (sm_" + std::to_string(prop.major) + std::to_string(prop.minor) + ")";
    // Twice the L2, at least 64 MiB: writing it evicts whatever a previous call left there.
    gFlushBytes = std::max<size_t>(size_t(2) * static_cast<size_t>(prop.l2CacheSize), size_t(64) << 20);
    if (auto err = check(cudaMalloc(&gFlush, gFlushBytes), "cudaMalloc (L2 flush buffer)"); !err.empty()) return err;
    std::vector<double> probes;
    for (int i = 0; i < 25; ++i) {
        double s = 0;
        if (auto err = probeOnce(&s); !err.empty()) return err;
        probes.push_back(s);
    }
    std::sort(probes.begin(), probes.end());
    gProbeS = probes[probes.size() / 2];
    return {};
}

std::string ksDevName() {
    return gName;
}

std::string ksDevAlloc(size_t bytes, void** dev) {
    *dev = nullptr;
    void* p = nullptr;
    if (auto err = check(cudaMalloc(&p, bytes + kRedZoneBytes), "cudaMalloc"); !err.empty()) return err;
    if (auto err =
            check(cudaMemset(static_cast<unsigned char*>(p) + bytes, kRedZoneByte, kRedZoneBytes), "cudaMemset (red zone)");
        !err.empty()) {
        cudaFree(p);
        return err;
    }
    *dev = p;
    return {};
}

void ksDevFree(void* dev) {
    if (!dev) return;
    const auto it = gShared.find(dev);
    if (it == gShared.end()) {
        cudaFree(dev);
        return;
    }
    const auto ptr = reinterpret_cast<CUdeviceptr>(dev);
    gDriver.unmap(ptr, it->second.size);
    gDriver.addressFree(ptr, it->second.size);
    gDriver.release(it->second.handle);
    gShared.erase(it);
}

std::string ksDevAllocShared(size_t bytes, void** dev, int* fd, size_t* mapBytes) {
    *dev = nullptr;
    *fd = -1;
    int device = 0;
    if (auto err = check(cudaGetDevice(&device), "cudaGetDevice"); !err.empty()) return err;
    CUmemAllocationProp prop{};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = device;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    size_t granularity = 0;
    if (auto err = checkDriver(gDriver.getGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED),
                               "cuMemGetAllocationGranularity");
        !err.empty())
        return err;
    const size_t size = (bytes + kRedZoneBytes + granularity - 1) / granularity * granularity;
    CUmemGenericAllocationHandle handle{};
    if (auto err = checkDriver(gDriver.create(&handle, size, &prop, 0), "cuMemCreate"); !err.empty()) return err;
    CUdeviceptr ptr = 0;
    CUmemAccessDesc access{};
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    std::string err = checkDriver(gDriver.reserve(&ptr, size, granularity, 0, 0), "cuMemAddressReserve");
    if (err.empty()) err = checkDriver(gDriver.map(ptr, size, 0, handle, 0), "cuMemMap");
    if (err.empty()) err = checkDriver(gDriver.setAccess(ptr, size, &access, 1), "cuMemSetAccess");
    if (err.empty())
        err = checkDriver(gDriver.exportHandle(fd, handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
                          "cuMemExportToShareableHandle");
    void* p = reinterpret_cast<void*>(ptr);
    gShared[p] = SharedAllocation{handle, size};
    if (err.empty())
        err = check(cudaMemset(static_cast<unsigned char*>(p) + bytes, kRedZoneByte, kRedZoneBytes), "cudaMemset (red zone)");
    if (!err.empty()) {
        if (ptr)
            ksDevFree(p);
        else
            gDriver.release(handle);
        if (*fd >= 0) close(*fd);
        *fd = -1;
        return err;
    }
    *dev = p;
    *mapBytes = size;
    return {};
}

std::string ksDevSync() {
    return check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
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
    if (auto err = check(cudaMemcpy(&differs, gDiffers, sizeof(int), cudaMemcpyDeviceToHost), "cudaMemcpy (comparison flag)");
        !err.empty())
        return err;
    *equal = differs == 0;
    return {};
}

std::string ksDevFlushL2() {
    if (auto err = check(cudaMemsetAsync(gFlush, 0, gFlushBytes, 0), "cudaMemsetAsync (L2 flush)"); !err.empty()) return err;
    return {};
}

std::string ksDevProbe() {
    double s = 0;
    return probeOnce(&s);
}

std::string ksDevDrain(double limitS, double* waitedS, double* probeS) {
    // Kernels of two processes do not run at once: the GPU gives each context
    // its time slice in turn. While a runner's kernel still runs, the probe
    // waits for it or for the end of the slice, far longer than an idle
    // device's round trip; so the device is idle once a probe comes back in
    // about that time. What the wait held is charged to the call.
    const double start = nowS(), quick = std::max(4 * gProbeS, gProbeS + 20e-6);
    for (;;) {
        double s = 0;
        if (auto err = probeOnce(&s); !err.empty()) return err;
        if (s <= quick) break;
        if (nowS() - start > limitS) break;
    }
    *waitedS = nowS() - start;
    *probeS = gProbeS;
    return {};
}
