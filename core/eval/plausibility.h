#pragma once
// A correct result faster than the operator's floor on this machine (its
// bytes at the measured memory bandwidth, its flops at the measured peak,
// whichever takes longer) cannot be honest: it is flagged for review, and a
// flagged node is no search's best until a person pins it.
#include "eval/evaluation_result.h"
#include "machine/machine_model.h"

namespace kw::eval {

// How far under the floor a timing may go before it is flagged: the probes
// measure a little below what the best kernels reach.
constexpr double kFloorMargin = 0.8;

// Flags `result` (implausibleSpeedup, and a sentence in its message) when a
// timing shape's candidate median is under kFloorMargin x the floor with all
// of the machine's cores. True when it flagged.
bool flagBelowFloor(eval::EvaluationResult& result, const machine::MachineModel& machine);

// The same on a GPU: the floor is the operator's bytes at the GPU's measured
// device-to-device copy bandwidth, or its lookups at the GPU's L2 gather
// rate, whichever is longer (machine::gpuFloorSeconds; resources/probe/gpu_probe.cu). The GPU is
// the one of `machine` whose name the result's env.gpu starts with (the
// first otherwise). False, flagging nothing, without a measured GPU.
bool flagBelowGpuFloor(eval::EvaluationResult& result, const machine::MachineModel& machine);

} // namespace kw::eval
