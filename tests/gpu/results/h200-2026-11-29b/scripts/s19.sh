#!/usr/bin/env bash
# Nineteenth session, one H200. Started with setsid in one call, collected in
# the next ones back to back (a machine idle 30 s goes back with /tmp):
# build; the torch judge's corpus (the runner confined by seccomp and
# Landlock, the zero-region check, written_cuda, rewrites_the_reference);
# the bench of the nine at a small budget; the cuda judge's corpus. A
# tarball of what is done is refreshed after every stage, so a collect call
#   cat /tmp/s19/s19.log; cp /tmp/s19/s19.tgz $OUT/
# brings back whatever finished. Start it with
#   setsid nohup bash tests/gpu/results/h200-2026-11-29b/scripts/s19.sh >/dev/null 2>&1 </dev/null &
set -u
root=$(pwd); o=/tmp/s19; mkdir -p "$o"
exec > "$o/s19.log" 2>&1
T0=$(date +%s); stamp() { echo "== $(( $(date +%s) - T0 )) s: $*"; }
pack() { tar czf /tmp/s19.tgz -C /tmp s19 vt vc --exclude='*.so' --exclude='*.o' --exclude=build 2>/dev/null; mv /tmp/s19.tgz "$o/"; }
stamp build
STEP=build bash tests/gpu/run_on_gpu.sh "$root/.debs" /tmp/n-build > "$o/build.out" 2>&1 || { tail -30 "$o/build.out"; exit 1; }
. tests/gpu/built_env.sh
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'
stamp torch
timeout ${TORCH_S:-660} bash tests/gpu/verify_torch_backend.sh /tmp/vt > "$o/torch.out" 2>&1; echo "torch rc $?"
pack
stamp bench
STEP=bench FINALISTS=1 timeout ${BENCH_S:-720} bash tests/gpu/run_on_gpu.sh "$root/.debs" "$o/bench" ${BUDGET:-3} > "$o/bench.out" 2>&1; echo "bench rc $?"
pack
stamp cuda
timeout 420 bash tests/gpu/verify_cuda_backend.sh /tmp/vc > "$o/cuda.out" 2>&1; echo "cuda rc $?"
stamp done
pack
