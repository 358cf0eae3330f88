#!/usr/bin/env bash
# Twentieth session, one H200. Started with setsid in one call, collected in
# the next ones back to back (a machine idle 30 s goes back with /tmp). The
# first GPU run of the behavioural op record (every bundled GPU problem
# forbids ops, so every candidate's first check shape is recorded):
#   build; the torch judge on the honest controls and the cheats the record
#   must catch; the bench of the nine (honest searches under the record);
#   the cuda judge's corpus; the rest of the torch corpus.
# A tarball of what is done is refreshed after every stage, so a collect call
#   cat /tmp/s20/s20.log; cp /tmp/s20/s20.tgz $OUT/
# brings back whatever finished. Start it with
#   setsid nohup bash tests/gpu/results/h200-2026-11-29c/scripts/s20.sh >/dev/null 2>&1 </dev/null &
set -u
root=$(pwd); o=/tmp/s20; mkdir -p "$o"
exec > "$o/s20.log" 2>&1
T0=$(date +%s); stamp() { echo "== $(( $(date +%s) - T0 )) s: $*"; }
pack() { tar czf /tmp/s20.tgz -C /tmp s20 vt vt2 vc --exclude='*.so' --exclude='*.o' --exclude=build 2>/dev/null; mv /tmp/s20.tgz "$o/"; }
stamp build
STEP=build bash tests/gpu/run_on_gpu.sh "$root/.debs" /tmp/n-build > "$o/build.out" 2>&1 || { tail -30 "$o/build.out"; exit 1; }
. tests/gpu/built_env.sh
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'
stamp torch-first
first="reference seed inline_cuda written_cuda softmax_by_another_name naive stops_the_reference unwritten rewrites_the_reference compile_in_disguise"
timeout ${FIRST_S:-420} bash tests/gpu/verify_torch_backend.sh /tmp/vt $first > "$o/torch-first.out" 2>&1; echo "torch-first rc $?"
pack
stamp bench
STEP=bench FINALISTS=1 timeout ${BENCH_S:-480} bash tests/gpu/run_on_gpu.sh "$root/.debs" "$o/bench" ${BUDGET:-3} > "$o/bench.out" 2>&1; echo "bench rc $?"
pack
stamp cuda
timeout 300 bash tests/gpu/verify_cuda_backend.sh /tmp/vc > "$o/cuda.out" 2>&1; echo "cuda rc $?"
pack
stamp torch-rest
rest=$(cd tests/gpu/torch && ls *.py | sed 's/\.py$//' | grep -vxF -f <(tr ' ' '\n' <<< "$first") | tr '\n' ' ')
timeout ${REST_S:-480} bash tests/gpu/verify_torch_backend.sh /tmp/vt2 random_forward $rest > "$o/torch-rest.out" 2>&1; echo "torch-rest rc $?"
stamp done
pack
