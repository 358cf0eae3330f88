// The few CUDA driver calls Kernelwright's judge and kernel runner make
// (virtual memory management: shareable device allocations), looked up in
// the driver the CUDA runtime already loaded. Not linked: a host without a
// driver then gets a message from the judge, not a loader error.
#pragma once
#include <cuda.h>
#include <dlfcn.h>

struct KwDriverApi {
    decltype(&cuGetErrorName) getErrorName = nullptr;
    decltype(&cuMemGetAllocationGranularity) getGranularity = nullptr;
    decltype(&cuMemCreate) create = nullptr;
    decltype(&cuMemAddressReserve) reserve = nullptr;
    decltype(&cuMemMap) map = nullptr;
    decltype(&cuMemSetAccess) setAccess = nullptr;
    decltype(&cuMemExportToShareableHandle) exportHandle = nullptr;
    decltype(&cuMemImportFromShareableHandle) importHandle = nullptr;
    decltype(&cuMemUnmap) unmap = nullptr;
    decltype(&cuMemAddressFree) addressFree = nullptr;
    decltype(&cuMemRelease) release = nullptr;

    // "" when every call was found, else what is missing.
    const char* load() {
        void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!lib) return "the CUDA driver (libcuda.so.1) cannot be loaded";
        const auto get = [lib](auto& fn, const char* name) {
            fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
            return fn != nullptr;
        };
        if (!get(getErrorName, "cuGetErrorName") || !get(getGranularity, "cuMemGetAllocationGranularity") ||
            !get(create, "cuMemCreate") || !get(reserve, "cuMemAddressReserve") || !get(map, "cuMemMap") ||
            !get(setAccess, "cuMemSetAccess") || !get(exportHandle, "cuMemExportToShareableHandle") ||
            !get(importHandle, "cuMemImportFromShareableHandle") || !get(unmap, "cuMemUnmap") ||
            !get(addressFree, "cuMemAddressFree") || !get(release, "cuMemRelease"))
            return "the CUDA driver lacks virtual memory management (cuMemCreate and friends): update the driver";
        return "";
    }
    const char* errorName(CUresult r) const {
        const char* name = nullptr;
        if (getErrorName) getErrorName(r, &name);
        return name ? name : "an unknown CUDA driver error";
    }
};
