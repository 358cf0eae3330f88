#!/usr/bin/env bash
# The judge checks to run first on a CUDA host after a judge change, on one
# GPU (CUDA_VISIBLE_DEVICES): the torch judge against the reference, a
# reference that draws random numbers in its forward, the seed and three
# cheats (verify_torch_backend.sh); the breakdown and the ncu pass on both
# GPU backends (verify_breakdowns.sh with PROFILE=ncu); the judge's parts of
# the rmsnorm_fwd and softmax seeds' timed calls with the runners pinned to
# one CPU and not (KS_JUDGE_PIN=0: does pinning slow their launches?); and
# gpu_mapid's packed strategy. Run after `STEP=build tests/gpu/run_on_gpu.sh
# DEBS OUT`; everything lands in OUT.
#
# usage: tests/gpu/judge_checks.sh OUT
set -uo pipefail
out=${1:?usage: judge_checks.sh OUT}
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/built_env.sh"
mkdir -p "$out"
"$gpu_probe" > "$out/gpu_probe.json" && "$cli" machine import-gpu "$out/gpu_probe.json" --host "$(hostname)" > /dev/null

bash "$root/tests/gpu/verify_torch_backend.sh" "$out/torch" random_forward reference seed first_call_only replays_by_pointer forges_done
PROFILE=ncu bash "$root/tests/gpu/verify_breakdowns.sh" "$out/breakdowns"

# The last bench's best parameters.
declare -A params=([gpu_rmsnorm_fwd]='BLOCK_N=4096 NUM_STAGES=2 NUM_WARPS=8 ROWS=1'
                   [gpu_softmax]='BLOCK_N=4096 NUM_STAGES=1 NUM_WARPS=8 ROWS=1'
                   [gpu_mapid]='STRATEGY=packed BUCKETS_PER_ENTRY=1 BLOCK_Q=256 NUM_WARPS=4')
for pin in 1 0; do
  for p in gpu_rmsnorm_fwd gpu_softmax; do
    args=(); for kv in ${params[$p]}; do args+=(--param "$kv"); done
    jobs=$out/parts-pin$pin/$p
    mkdir -p "$out/parts-pin$pin"
    KS_JUDGE_PIN=$pin "$cli" --db "$out/checks.db" eval --problem "$p" --seed triton "${args[@]}" --json --no-cache --sandbox required \
      --time-budget 0.3 --keep-job --jobs-dir "$jobs" > "$jobs.json" 2> "$jobs.err"
    echo "== $p, KS_JUDGE_PIN=$pin"
    python3 "$root/tests/gpu/judge_parts.py" "$jobs"/*/result.json || tail -3 "$jobs.err"
  done
done
args=(); for kv in ${params[gpu_mapid]}; do args+=(--param "$kv"); done
"$cli" --db "$out/checks.db" eval --problem gpu_mapid --seed triton "${args[@]}" --json --no-cache --sandbox required \
  --time-budget 0.3 > "$out/mapid-packed.json" 2> "$out/mapid-packed.err"
python3 - "$out/mapid-packed.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print("== gpu_mapid STRATEGY=packed:", r.get("status"), (r.get("message") or "")[:200],
      [f"{t['candidate']['median'] * 1e6:.1f} us" for t in r.get("timing", [])])
PY
