// Kernelsmith CUDA harness: the device side of harness_main.cpp (built with -DKS_CUDA).
//
// Every buffer of a case has a device mirror; kernels (reference, baselines,
// candidate) are launchers that take device pointers. The host copies stay the
// truth the harness checks against: inputs go up once per case and are read
// back to prove them unmodified, outputs go up poisoned before every call and
// come back after it. Each mirror is followed by a red zone whose pattern is
// checked after every checked call, so a write past the end is caught.
//
// Every CUDA call is checked; a failure comes back as a message ("" = fine).
#pragma once

#include <cstddef>
#include <string>

// Picks the device (CUDA_VISIBLE_DEVICES chose it), makes the timing events
// and the L2 flush buffer, and measures what an empty timed region costs.
std::string ksDevInit();
// "NVIDIA H100 80GB HBM3 (sm_90)" for result.json.
std::string ksDevName();

// `bytes` of device memory followed by a red zone; *dev is null on failure.
std::string ksDevAlloc(size_t bytes, void** dev);
void ksDevFree(void* dev);
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
// Around one kernel call: the start event, then (after the launcher returned)
// a device-wide synchronize, so work on any stream is inside the measurement,
// the end event, and the elapsed time less the cost of an empty region.
std::string ksDevBegin();
std::string ksDevEnd(double* seconds);
