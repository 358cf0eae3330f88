#pragma once
// The judge's buffers: a case's inputs and outputs, their pools and red zones.
// Part of the C++ judge: included once, in order, by judge_main.cpp (one
// translation unit), after the headers and the problem's generated part.

namespace {

// ---------------------------------------------------------------- buffers ---
// A buffer is a memfd: the judge maps it read-write; runners get inputs
// sealed against writing and reopened read-only, outputs shared.
struct Buffer {
    std::string name;
    DT dt = DT::F32;
    size_t count = 0;
    bool output = false;
    int fd = -1;
    void* map = nullptr;
    size_t mapBytes = 0, offset = 0, dataBytes = 0;
    unsigned char* data = nullptr;
    void* dev = nullptr;      // KW_CUDA: the device mirror runners get
    void* pristine = nullptr; // KW_CUDA: an input's device copy no runner holds
    int devFd = -1;           // KW_CUDA: the shareable handle of `dev`, for runners
    size_t devMapBytes = 0;   // KW_CUDA: the size of that allocation
    template <typename T> T* as() { return reinterpret_cast<T*>(data); }
};

std::string bytesText(double b) {
    char buf[64];
    const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int u = 0;
    while (b >= 1024 && u < 6) {
        b /= 1024;
        ++u;
    }
    std::snprintf(buf, sizeof buf, u ? "%.1f %s" : "%.0f %s", b, units[u]);
    return buf;
}

// A memfd of `bytes` (allocated now, so a full host fails here rather than
// at a write) mapped read-write by the judge: "" or what failed. *fd is -1
// when none was made; *map is null for 0 bytes or on failure.
std::string mappedMemfd(const char* name, size_t bytes, int* fd, void** map) {
    *map = nullptr;
    *fd = static_cast<int>(syscall(SYS_memfd_create, name, MFD_CLOEXEC | MFD_ALLOW_SEALING));
    if (*fd < 0) return std::string("memfd_create: ") + std::strerror(errno);
    if (bytes == 0) return "";
    if (ftruncate(*fd, static_cast<off_t>(bytes)) != 0) return std::string("ftruncate: ") + std::strerror(errno);
    if (fallocate(*fd, 0, 0, static_cast<off_t>(bytes)) != 0) return std::strerror(errno);
    void* m = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
    if (m == MAP_FAILED) return std::string("mmap: ") + std::strerror(errno);
    *map = m;
    return "";
}

struct Case {
    std::vector<int64_t> sizes;
    std::vector<Buffer> buffers;
    std::string allocError; // set when a buffer could not be made; the case is unusable
    Case() { buffers.reserve(ksproto::kMaxBuffers); }
    Case(const Case&) = delete;
    Case& operator=(const Case&) = delete;
    ~Case() {
        for (auto& b : buffers) {
            if (b.map) munmap(b.map, b.mapBytes);
            if (b.fd >= 0) close(b.fd);
#ifdef KW_CUDA
            ksDevFree(b.dev);
            ksDevFree(b.pristine);
            if (b.devFd >= 0) close(b.devFd);
#endif
        }
    }
    Buffer& add(const char* name, DT dt, int64_t count, bool output) {
        Buffer b;
        b.name = name;
        b.dt = dt;
        b.output = output;
        const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
        const uint64_t n = count > 0 ? static_cast<uint64_t>(count) : 0;
        if (!allocError.empty() || buffers.size() >= ksproto::kMaxBuffers) {
            if (allocError.empty()) allocError = "more arguments than the judge supports";
            buffers.push_back(b);
            return buffers.back();
        }
        if (n > (UINT64_MAX - 2 * page) / dtSize(dt)) {
            allocError = std::string("argument ") + name + " would have more bytes than an address space holds";
            buffers.push_back(b);
            return buffers.back();
        }
        b.count = static_cast<size_t>(n);
        b.dataBytes = b.count * dtSize(dt);
        const size_t rounded = (b.dataBytes + 63) / 64 * 64;
        b.mapBytes = (rounded + page - 1) / page * page;
        b.offset = b.mapBytes - rounded; // the data ends at the end of the mapping: a guard page follows in runners
        const std::string why = mappedMemfd(name, b.mapBytes, &b.fd, &b.map);
        if (!why.empty()) {
            allocError =
                "cannot allocate " + bytesText(static_cast<double>(b.mapBytes)) + " for argument " + name + " (" + why + ")";
            if (b.fd >= 0) close(b.fd);
            b = Buffer{};
            b.name = name;
            buffers.push_back(b);
            return buffers.back();
        }
        b.data = b.map ? static_cast<unsigned char*>(b.map) + b.offset : reinterpret_cast<unsigned char*>(&b.offset);
        buffers.push_back(b);
        return buffers.back();
    }
    Buffer* find(const char* name) {
        for (auto& b : buffers)
            if (b.name == name) return &b;
        return nullptr;
    }
    size_t totalBytes() const {
        size_t t = 0;
        for (const auto& b : buffers) t += b.mapBytes;
        return t;
    }
    size_t outputBytes() const {
        size_t t = 0;
        for (const auto& b : buffers)
            if (b.output) t += b.mapBytes;
        return t;
    }
};

} // namespace
