#!/usr/bin/env bash
# Repeats the GPU benchmark on a CUDA host that reaches no package registry:
# builds kernelwright-cli from Debian packages carried in DEBS (fetched on any
# Debian 12 machine with `tests/gpu/fetch_debs.sh DEBS`), measures the GPU
# (resources/probe/gpu_probe.cu), then runs `bench` on the GPU problems.
#
# usage: tests/gpu/run_on_gpu.sh DEBS OUT [BUDGET] [PROBLEMS]
#   BUDGET    evaluations per problem (default 8)
#   PROBLEMS  comma-separated names (default: every bundled GPU problem)
#   STEP=build|bench|all (environment, default all): build only, or bench with
#   the build of an earlier call (the prefix and build stay in /tmp).
#   FINALISTS (environment, default 3): kernels of each search timed again.
#   GPUS (environment, e.g. 0,1,2,3): bench a problem on each of these GPUs at
#   once (two workers each) instead of every problem on the one visible GPU.
#   RESUME (environment, a bench.json): go on with that run (bench --resume):
#   its problems are kept and the others run, so one bench can span several
#   calls of a device's time limit (the same settings and GPU kind).
# Needs: bash, cmake, ninja or make, g++ (C++20), nvcc, python3 with PyTorch and Triton.
set -euo pipefail
debs=${1:?usage: run_on_gpu.sh DEBS OUT [BUDGET] [PROBLEMS]}
out=${2:?usage: run_on_gpu.sh DEBS OUT [BUDGET] [PROBLEMS]}
budget=${3:-8}
problems=${4:-gpu_rmsnorm_fwd,gpu_rmsnorm_bwd,gpu_softmax,gpu_layernorm,gpu_dwconv1d_silu,gpu_fm_classic,gpu_batch_event_truncate,gpu_mbdt,gpu_mapid}
step=${STEP:-all}
root=$(cd "$(dirname "$0")/../.." && pwd)
prefix=/tmp/kw-prefix
build=/tmp/kw-gpu-build
lib=$prefix/usr/lib/x86_64-linux-gnu
mkdir -p "$out"
export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=$prefix/usr/bin:$PATH # bubblewrap from the carried packages: bench runs with --sandbox required

if [ "$step" != bench ]; then
  rm -rf "$prefix" && mkdir -p "$prefix"
  for f in "$debs"/*.deb; do dpkg -x "$f" "$prefix"; done
  t0=$(date +%s)
  generator=$(command -v ninja > /dev/null && echo Ninja || echo "Unix Makefiles")
  cmake -S "$root" -B "$build" -G "$generator" -DCMAKE_BUILD_TYPE=Release -DKW_BUILD_GUI=OFF -DKW_BUILD_TESTS=OFF -DKW_WERROR=OFF \
    -DCMAKE_PREFIX_PATH="$prefix/usr" -DOPENSSL_ROOT_DIR="$prefix/usr" \
    -DCMAKE_EXE_LINKER_FLAGS="-Wl,-rpath-link,$lib -Wl,-rpath,$lib" > "$out/cmake.log" 2>&1 || { tail -40 "$out/cmake.log"; exit 1; }
  cmake --build "$build" --parallel "$(nproc)" --target kernelwright-cli > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
  echo "run_on_gpu: built kernelwright-cli in $(( $(date +%s) - t0 )) s"
  nvcc -O2 -arch=sm_90 -o "$build/gpu_probe" "$root/resources/probe/gpu_probe.cu" -lcublas
fi
cli=$build/app/cli/kernelwright-cli
"$cli" --version
[ "$step" = build ] && exit 0

# The floor's copy bandwidth is measured in this run, on this GPU.
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$out/nvidia-smi.txt" 2>&1 || true
"$build/gpu_probe" > "$out/gpu_probe.json"
"$cli" machine import-gpu "$out/gpu_probe.json" --host "$(hostname)"
python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'
# Two workers on one GPU; with GPUS=0,1,2,3 a problem on each GPU at once, two workers each.
placement=(--workers 2)
if [ -n "${GPUS:-}" ]; then
  placement=(--gpus "$(for g in ${GPUS//,/ }; do printf '%s,%s,' "$g" "$g"; done | sed 's/,$//')")
fi
resume=()
if [ -n "${RESUME:-}" ]; then
  # The first call of a run has nothing to go on with yet: the run starts.
  if [ -f "$RESUME" ] && [ "$(realpath -m "$RESUME")" != "$(realpath -m "$out/bench.json")" ]; then cp "$RESUME" "$out/bench.json"; fi
  resume=(--resume)
fi
"$cli" --db "$out/gpu-bench.db" bench --problems "$problems" --budget "$budget" "${placement[@]}" --time-budget 0.3 --finalists "${FINALISTS:-3}" --sandbox required --json "$out/bench.json" "${resume[@]}" 2>&1 | tee -a "$out/bench.log"
