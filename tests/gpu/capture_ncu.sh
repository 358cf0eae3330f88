#!/usr/bin/env bash
# Captures the ncu CSV fixtures and a GPU machine probe on a CUDA host.
# Usage: tests/gpu/capture_ncu.sh OUTDIR   (needs nvcc, ncu and a GPU)
set -u
out=${1:?usage: capture_ncu.sh OUTDIR}
mkdir -p "$out"
work=$(mktemp -d)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$out/nvidia-smi.txt" 2>&1
ncu --version > "$out/ncu-version.txt" 2>&1
nvcc -O2 -arch=native -o "$work/gpu_probe" "$root/resources/probe/gpu_probe.cu" -lcublas 2> "$out/build.log" &&
  "$work/gpu_probe" > "$out/gpu_probe.json" 2>> "$out/build.log"
nvcc -O2 -arch=native -o "$work/ncu_fixture" "$here/ncu_fixture.cu" 2>> "$out/build.log" || { cat "$out/build.log"; exit 1; }
sections=(--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats)
ncu --csv "${sections[@]}" "$work/ncu_fixture" > "$out/ncu_details.csv" 2> "$out/ncu_details.err"
metrics=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,sm__warps_active.avg.pct_of_peak_sustained_active,sm__maximum_warps_per_active_cycle_pct,launch__grid_size,launch__block_size
metrics+=,launch__registers_per_thread,dram__bytes.sum.per_second,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active
metrics+=,"regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"
ncu --csv --page raw --metrics "$metrics" "$work/ncu_fixture" > "$out/ncu_raw.csv" 2> "$out/ncu_raw.err"
ls -la "$out"; head -c 600 "$out/gpu_probe.json"; echo; head -5 "$out/ncu_raw.csv" | cut -c1-400; tail -3 "$out"/*.err
