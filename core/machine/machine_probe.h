#pragma once
// Measures this host's machine model in this process (trusted code): read
// bandwidth at working sets that fit L1, L2 and L3, the DRAM streaming rate
// under the harness's own protocol (buffers flushed from every cache before
// each pass), and peak FP32 FMA rates, scalar and widest vector, one core and
// all cores. Each figure is the best of several passes, so that a passing
// disturbance lowers a pass, not the result.
#include "machine/machine_model.h"

#include <functional>
#include <string>

namespace kw::machine {

struct ProbeOptions {
    int dramProbes = 3; // independent one-core DRAM probes; the model keeps their median
    std::function<void(const std::string&)> progress;
};

MachineModel probeMachine(const ProbeOptions& options = {});

// The DRAM streaming rate alone (GB/s) with `threads` threads.
double probeDramBandwidth(int threads);

} // namespace kw::machine
