#!/usr/bin/env bash
# The lead's length against the first set's cold host path: seeds judged
# with KW_JUDGE_LEAD_US=500 (default) and 1000.
set -u
root=$(pwd); o=${OUT:-/tmp/out}; mkdir -p "$o/r"
[ -x /tmp/kw-gpu-build/app/cli/kernelwright-cli ] || { STEP=build bash tests/gpu/run_on_gpu.sh "$root/.debs" /tmp/n-build > "$o/r/build.out" 2>&1 || { tail -20 "$o/r/build.out"; exit 1; }; }
. tests/gpu/built_env.sh
P=resources/problems/gpu
while read -r lead p rest; do
  [ -n "$p" ] || continue
  args=(); for kv in $rest; do args+=(--param "$kv"); done
  tag="$p-$lead-$(echo $rest | md5sum | cut -c1-4)"
  KW_JUDGE_LEAD_US=$lead timeout 90 "$cli" --db /tmp/s14d.db eval --problem $P/$p --seed triton "${args[@]}" --json --no-cache --sandbox required --time-budget 0.3 > "$o/r/$tag.json" 2> "$o/r/$tag.err"
  echo "== lead $lead $p $rest"; python3 tests/gpu/judge_parts.py "$o/r/$tag.json" | grep -E "shape|candidate  |reference  " | head -3
done <<'LIST'
500 gpu_rmsnorm_fwd
1000 gpu_rmsnorm_fwd
500 gpu_rmsnorm_bwd BLOCK_N=4096 DW=partials LAUNCH=direct NUM_WARPS=16 PROGS_PER_SM=2 ROWS=1
1000 gpu_rmsnorm_bwd BLOCK_N=4096 DW=partials LAUNCH=direct NUM_WARPS=16 PROGS_PER_SM=2 ROWS=1
1000 gpu_batch_event_truncate BLOCK=4096 BLOCK_U=1024 ITERS=1 LAUNCH=direct NUM_WARPS=4 SCHEDULE=chunks
1000 gpu_mbdt BLOCK_F=64 BORDERS_T=false LAUNCH=direct NUM_WARPS=4 ROWS=16 STRATEGY=bisect
LIST
cd "$o" && tar czf /tmp/00.tgz r && rm -rf r && mv /tmp/00.tgz "$o/"
