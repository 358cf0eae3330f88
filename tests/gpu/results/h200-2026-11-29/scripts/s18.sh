#!/usr/bin/env bash
# Eighteenth session, one H200. Started with setsid in one call, collected in
# the next ones: build; the torch judge's corpus (with the runner's seccomp
# filter, the new tree-freezing cheats and the honest controls);
# the cuda judge's corpus (second_context.cu); then the bench of the nine at
# a small budget until the device time runs out. Everything in /tmp/s18,
# and /tmp/s18/s18.tgz at the end. Start it with
#   setsid nohup bash tests/gpu/results/h200-2026-11-29/scripts/s18.sh >/dev/null 2>&1 </dev/null &
# and collect with calls back to back (a machine idle 30 s goes back, and
# takes /tmp with it): `cat /tmp/s18/s18.log; cp /tmp/s18/s18.tgz $OUT/`.
set -u
root=$(pwd); o=/tmp/s18; mkdir -p "$o"
exec > "$o/s18.log" 2>&1
T0=$(date +%s); stamp() { echo "== $(( $(date +%s) - T0 )) s: $*"; }
stamp build
STEP=build bash tests/gpu/run_on_gpu.sh "$root/.debs" /tmp/n-build > "$o/build.out" 2>&1 || { tail -30 "$o/build.out"; exit 1; }
. tests/gpu/built_env.sh
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader; git log --oneline -1 2>/dev/null
python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'
stamp torch
timeout 900 bash tests/gpu/verify_torch_backend.sh /tmp/vt > "$o/torch.out" 2>&1; echo "torch rc $?"
stamp cuda
timeout 600 bash tests/gpu/verify_cuda_backend.sh /tmp/vc > "$o/cuda.out" 2>&1; echo "cuda rc $?"
stamp bench
STEP=bench FINALISTS=1 timeout 1200 bash tests/gpu/run_on_gpu.sh "$root/.debs" "$o/bench" ${BUDGET:-3} > "$o/bench.out" 2>&1; echo "bench rc $?"
stamp done
# One file to bring back ($OUT takes 8 files): the consoles and each
# evaluation's result.json of both corpora and the bench.
tar czf /tmp/s18.tgz -C /tmp s18 vt vc 2>/dev/null; mv /tmp/s18.tgz "$o/"
