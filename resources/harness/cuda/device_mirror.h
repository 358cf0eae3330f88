// Kernelwright's judge, CUDA side (judge_main.cpp built with -DKW_CUDA).
//
// Every buffer of a case has a device mirror that the judge allocates and
// shares with kernel runners as a file descriptor (CUDA's virtual memory
// management: both processes map it with the device's large pages, where a
// legacy IPC mapping ran a memory-bound kernel 20-45% slower on an H100); kernels (reference, baselines,
// candidate) are launchers that take device pointers. The host copies stay the
// truth the judge checks against: inputs go up when their contents change and
// are compared on the device with a copy no runner holds, outputs go up
// poisoned before every call and come back after it. Each mirror is followed
// by a red zone whose pattern is checked after every call, so a write past
// the end is caught.
//
// Every CUDA call is checked; a failure comes back as a message ("" = fine).
#pragma once

#include <cstddef>
#include <string>

// Picks the device (CUDA_VISIBLE_DEVICES chose it) and makes the L2 flush buffer.
std::string ksDevInit();
// "NVIDIA H100 80GB HBM3 (sm_90)" for result.json.
std::string ksDevName();

// `bytes` of device memory followed by a red zone; *dev is null on failure.
std::string ksDevAlloc(size_t bytes, void** dev);
void ksDevFree(void* dev);
// Like ksDevAlloc, shareable: *fd is the allocation's handle for another
// process (cuMemImportFromShareableHandle), *mapBytes its size there.
std::string ksDevAllocShared(size_t bytes, void** dev, int* fd, size_t* mapBytes);
// Waits for everything the judge queued on the device.
std::string ksDevSync();
std::string ksDevUpload(void* dev, const void* host, size_t bytes);
std::string ksDevDownload(void* host, const void* dev, size_t bytes);
// "" when the red zone after a `bytes`-long mirror still holds its pattern;
// otherwise how far past the end the first changed byte is.
std::string ksDevRedZone(const void* dev, size_t bytes, bool* intact);

// Device to device, for the poisoned images of the timed calls.
std::string ksDevCopy(void* dst, const void* src, size_t bytes);
// Whether two device buffers hold the same bytes (compared on the device: a
// timed output is checked without bringing it back).
std::string ksDevEqual(const void* a, const void* b, size_t bytes, bool* equal);

// Evicts the L2 (writes a buffer larger than it), so every timed call starts cold.
std::string ksDevFlushL2();
// A kernel of the judge's own, waited for: before each call, so that every
// call (an empty one too) starts from the judge's context.
std::string ksDevProbe();
// After a runner answered a call: returns once the device is idle (a probe
// kernel of the judge's comes back as fast as on an idle device), or after
// `limitS`; *waitedS is how long that took, *probeS an idle probe's time.
// Work a kernel left running past its answer is inside the judge's clock.
std::string ksDevDrain(double limitS, double* waitedS, double* probeS);
