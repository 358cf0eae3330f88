#pragma once
// Where a model's time goes (`model profile`): a PyTorch model in
// KernelBench's format (class Model, get_inputs, get_init_inputs) runs in a
// Python of its own (resources/harness/torch/model_profile.py; KW_PYTHON or
// python3 on PATH), on the GPU when one is visible, else on the CPU, under
// PyTorch's profiler. The result is per step: each ATen op's own device
// time and each region's (a leaf module: what a kernel can replace without
// editing the user's file) with the bytes it reads and writes, for a floor.
#include "util/result.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace kw::model {

struct OpTime {
    std::string name; // aten::addmm
    int calls = 0;    // per step
    double seconds = 0, share = 0;
    std::vector<std::string> shapes; // its inputs' shapes where it cost most
};

struct RegionTime {
    std::string name, kind; // the module's dotted name and class
    int calls = 0;
    double seconds = 0, share = 0; // its forward, synchronised, profiler-free: its cost to a step
    double deviceSeconds = 0;      // under the profiler: on the device (a GPU: its kernels' span)
    double hostSeconds = 0;        // under the profiler: the host's time in its forward
    std::int64_t bytes = 0;        // read and written per step: inputs, parameters, outputs
};

struct ModelProfile {
    std::string device; // cpu | cuda
    int steps = 0;
    double stepSeconds = 0;          // median forward pass, synchronised
    std::vector<OpTime> ops;         // costliest first
    std::vector<RegionTime> regions; // costliest first
};

struct ProfileOptions {
    int steps = 10;
    double timeoutS = 600;
    std::string gpu; // CUDA_VISIBLE_DEVICES ("" : inherited)
};

// The profiler's answer (its last line of output) as a profile; errors say
// what to fix in the model file.
Result<ModelProfile> parseModelProfile(const std::string& answer);

Result<ModelProfile> profileModel(const std::filesystem::path& file, const ProfileOptions& options);

} // namespace kw::model
