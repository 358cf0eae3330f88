#!/usr/bin/env bash
# Next session's H200 run, written ahead. Started with setsid in one call,
# collected in the next ones back to back:
#   build; where the op record's 5.5 s go (tests/gpu/profiler_cost.py); the
#   call site the record names now (softmax_by_another_name) and the honest
#   controls; model profile of the bundled recommendation model on the GPU;
#   the cuda corpus; the bench of the nine.
#   cat /tmp/s21/s21.log; cp /tmp/s21/s21.tgz $OUT/
# Start it with
#   setsid nohup bash tests/gpu/results/h200-next/scripts/s21.sh >/dev/null 2>&1 </dev/null &
set -u
root=$(pwd); o=/tmp/s21; mkdir -p "$o"
exec > "$o/s21.log" 2>&1
T0=$(date +%s); stamp() { echo "== $(( $(date +%s) - T0 )) s: $*"; }
pack() { tar czf /tmp/s21.tgz -C /tmp s21 vt vc --exclude='*.so' --exclude='*.o' --exclude=build 2>/dev/null; mv /tmp/s21.tgz "$o/"; }
stamp build
STEP=build bash tests/gpu/run_on_gpu.sh "$root/.debs" /tmp/n-build > "$o/build.out" 2>&1 || { tail -30 "$o/build.out"; exit 1; }
. tests/gpu/built_env.sh
stamp profiler-cost
timeout 120 python3 tests/gpu/profiler_cost.py > "$o/profiler_cost.json" 2> "$o/profiler_cost.err"; echo "profiler-cost rc $?"
stamp model-profile
timeout 300 "$cli" model profile resources/models/rec_ranker/model.py --steps 20 --top 20 > "$o/model_profile.txt" 2>&1; echo "model-profile rc $?"
timeout 300 "$cli" model profile resources/models/rec_ranker/model.py --steps 20 --json > "$o/model_profile.json" 2> "$o/model_profile.err"
pack
stamp torch-first
timeout ${FIRST_S:-420} bash tests/gpu/verify_torch_backend.sh /tmp/vt reference seed inline_cuda softmax_by_another_name naive > "$o/torch-first.out" 2>&1; echo "torch-first rc $?"
pack
stamp cuda
timeout 300 bash tests/gpu/verify_cuda_backend.sh /tmp/vc > "$o/cuda.out" 2>&1; echo "cuda rc $?"
pack
stamp bench
STEP=bench FINALISTS=1 timeout ${BENCH_S:-600} bash tests/gpu/run_on_gpu.sh "$root/.debs" "$o/bench" ${BUDGET:-3} > "$o/bench.out" 2>&1; echo "bench rc $?"
stamp done
pack
