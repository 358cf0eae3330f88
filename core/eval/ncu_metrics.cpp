#include "eval/ncu_metrics.h"

namespace kw::eval {

const std::string& ncuMetricList() {
    // Duration, speed of light (DRAM, L2, SM), occupancy and what limits it,
    // launch shape, caches, spills, shared-memory conflicts, coalescing, and
    // every warp-stall reason (a regex: the set differs between GPUs).
    static const std::string list = "gpu__time_duration.sum,"
                                    "dram__throughput.avg.pct_of_peak_sustained_elapsed,"
                                    "lts__throughput.avg.pct_of_peak_sustained_elapsed,"
                                    "sm__throughput.avg.pct_of_peak_sustained_elapsed,"
                                    "sm__warps_active.avg.pct_of_peak_sustained_active,"
                                    "sm__maximum_warps_per_active_cycle_pct,"
                                    "launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,"
                                    "launch__occupancy_limit_blocks,launch__occupancy_limit_warps,"
                                    "launch__grid_size,launch__block_size,launch__registers_per_thread,"
                                    "launch__waves_per_multiprocessor,"
                                    "l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,"
                                    "l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum,"
                                    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,"
                                    "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,"
                                    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
                                    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,"
                                    "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\\.ratio";
    return list;
}

std::string ncuLookupScript() {
    return "NCU=\"${KW_NCU:-$(command -v ncu)}\"\n"
           "for d in ${CUDA_HOME:+\"$CUDA_HOME/bin\"} ${CUDA_ROOT:+\"$CUDA_ROOT/bin\"} /usr/local/cuda/bin; do\n"
           "  [ -z \"$NCU\" ] && [ -x \"$d/ncu\" ] && NCU=\"$d/ncu\"\n"
           "done\n";
}

} // namespace kw::eval
