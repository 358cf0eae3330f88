#!/usr/bin/env bash
# The judge checks to run first on a CUDA host after a judge change, on one
# GPU (CUDA_VISIBLE_DEVICES): the torch judge against the reference, a
# reference that draws random numbers in its forward, the seed and three
# cheats (verify_torch_backend.sh); the breakdown and the ncu pass on both
# GPU backends (verify_breakdowns.sh with PROFILE=ncu); the judge's parts of
# the rmsnorm_fwd and softmax seeds' timed calls with the runners pinned to
# one CPU and not (KW_JUDGE_PIN=0: does pinning slow their launches?); every
# gpu_mapid strategy; batch_event_truncate's seed with and without the
# torch.compile baseline in its job; what the host's launch path costs
# (launch_cost.py); the launch-bound seeds launched both ways; and the
# rmsnorm_fwd seed judged with longer lead flushes (KW_JUDGE_LEAD_US).
# Run after `STEP=build tests/gpu/run_on_gpu.sh DEBS OUT`; everything lands
# in OUT.
#
# usage: tests/gpu/judge_checks.sh OUT
#   PARTS (environment, default all): which of torch breakdowns pinning mapid
#         bet launch seeds lead to run, as "mapid bet launch"
set -uo pipefail
out=${1:?usage: judge_checks.sh OUT}
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/built_env.sh"
mkdir -p "$out"
parts=" ${PARTS:-torch breakdowns pinning mapid bet launch seeds lead} "
want() { [[ "$parts" == *" $1 "* ]]; }
# The eval arguments of PARAM=VALUE words (--param each; --options as they are).
eval_args() {
  args=()
  for kv in "$@"; do if [[ "$kv" == --* ]]; then args+=("$kv"); else args+=(--param "$kv"); fi; done
}
# One seed judged at the given params (NAME PROBLEM PARAM=VALUE...): its
# result in OUT/judged/NAME.json, a line with its status and times.
judged() {
  local name=$1 problem=$2 args; shift 2
  eval_args "$@"
  mkdir -p "$out/judged"
  "$cli" --db "$out/checks.db" eval --problem "$problem" --seed triton "${args[@]}" --json --no-cache --sandbox required \
    --time-budget 0.3 > "$out/judged/$name.json" 2> "$out/judged/$name.err"
  python3 - "$out/judged/$name.json" "$name" <<'PY' || tail -3 "$out/judged/$name.err"
import json, sys
r = json.load(open(sys.argv[1]))
print(f"== {sys.argv[2]}:", r.get("status"), (r.get("message") or "")[:300],
      [f"{t['candidate']['median'] * 1e6:.1f} us" for t in r.get("timing", [])])
PY
}
# The same with its job kept (NAME PROBLEM PARAM=VALUE|--option...; the
# environment passes through): where its timed calls went (judge_parts.py).
# Kept job dirs under /tmp: the sandbox user may not search OUT's parents.
judged_parts() {
  local name=$1 problem=$2 args jobs=${JOBS_ROOT:-/tmp/kw-gpu-jobs}/$1; shift 2
  eval_args "$@"
  rm -rf "$jobs" && mkdir -p "$jobs" "$out/parts" && chmod o+x "$(dirname "$jobs")" "$jobs"
  "$cli" --db "$out/checks.db" eval --problem "$problem" --seed triton "${args[@]}" --json --no-cache --sandbox required \
    --time-budget 0.3 --keep-job --jobs-dir "$jobs" > "$out/parts/$name.json" 2> "$out/parts/$name.err"
  python3 "$root/tests/gpu/judge_parts.py" "$jobs"/*/result.json || tail -3 "$out/parts/$name.err"
}
"$gpu_probe" > "$out/gpu_probe.json" && "$cli" machine import-gpu "$out/gpu_probe.json" --host "$(hostname)" > /dev/null

want torch && bash "$root/tests/gpu/verify_torch_backend.sh" "$out/torch" random_forward reference seed first_call_only replays_by_pointer forges_done
want breakdowns && PROFILE=ncu bash "$root/tests/gpu/verify_breakdowns.sh" "$out/breakdowns"

# The last bench's best parameters.
declare -A params=([gpu_rmsnorm_fwd]='BLOCK_N=4096 NUM_STAGES=2 NUM_WARPS=8 ROWS=1'
                   [gpu_softmax]='BLOCK_N=4096 NUM_STAGES=1 NUM_WARPS=8 ROWS=1'
                  )
for pin in 1 0; do
  want pinning || break
  for p in gpu_rmsnorm_fwd gpu_softmax; do
    echo "== $p, KW_JUDGE_PIN=$pin"
    # shellcheck disable=SC2086
    KW_JUDGE_PIN=$pin judged_parts "pin$pin-$p" "$p" ${params[$p]}
  done
done
# Every MapId strategy: the default and bisect kernels call the shared jit
# helpers too, so each must compile and agree with the reference.
for strategy in bucket bisect packed; do
  want mapid || break
  judged "gpu_mapid-$strategy" gpu_mapid STRATEGY=$strategy BUCKETS_PER_ENTRY=1 BLOCK_Q=256 NUM_WARPS=4
done
# Bench's finalists of launch-bound seeds read up to 30 % slower re-timed
# alone (with the torch.compile baseline's runner in the job) than in the
# search (without): the same kernel both ways, judged and its parts.
bet='BLOCK=1024 BLOCK_U=4096 ITERS=2 NUM_WARPS=2'
for baseline in with without; do
  want bet || break
  echo "== gpu_batch_event_truncate, $baseline the torch.compile baseline"
  # shellcheck disable=SC2086,SC2046
  judged_parts "bet-$baseline" gpu_batch_event_truncate $bet $([ "$baseline" = without ] && echo --no-compile-baseline)
done
# What the host's launch path costs a call (Triton, eager, allocation, event).
want launch && echo "== launch path" && python3 "$root/tests/gpu/launch_cost.py" 1000
# The launch-bound seeds both ways (LAUNCH direct: kw_launch; jit:
# kernel[grid]) outside the judge (host_path.py: host time, device time,
# cProfile) and through it, and batch_event_truncate's two schedules.
if want seeds; then
  g=$root/resources/problems/gpu
  rms=${params[gpu_rmsnorm_fwd]}  # bet: the batch_event_truncate params above
  for launch in direct jit; do
    echo "== host path, LAUNCH=$launch"
    # shellcheck disable=SC2086
    python3 "$root/tests/gpu/host_path.py" "$g/gpu_batch_event_truncate" "$g/gpu_batch_event_truncate/seeds/triton.py" $bet LAUNCH=$launch
    # shellcheck disable=SC2086
    python3 "$root/tests/gpu/host_path.py" "$g/gpu_rmsnorm_fwd" "$g/gpu_rmsnorm_fwd/seeds/triton.py" $rms LAUNCH=$launch
    python3 "$root/tests/gpu/host_path.py" "$g/gpu_mbdt" "$g/gpu_mbdt/seeds/triton.py" LAUNCH=$launch
    for schedule in chunks per_sequence; do
      # shellcheck disable=SC2086
      judged bet-$schedule-$launch gpu_batch_event_truncate $bet SCHEDULE=$schedule LAUNCH=$launch
    done
    # shellcheck disable=SC2086
    judged rmsnorm_fwd-$launch gpu_rmsnorm_fwd $rms LAUNCH=$launch
    judged mbdt-$launch gpu_mbdt LAUNCH=$launch
  done
fi
# The lead flush against the runner's set-up: on the H200 host a runner spent
# 370-400 us of a timed call before its first launch, the lead was 500 us,
# and the candidate's first set took 100-135 us more device time than the
# others (1000 us by default since; on an H100 the first set then ran as
# the others). The same seed judged with several leads, and its call parts.
if want lead; then
  for lead in 500 1000 1500; do
    echo "== gpu_rmsnorm_fwd, lead $lead us"
    # shellcheck disable=SC2086
    KW_JUDGE_LEAD_US=$lead judged_parts "lead-$lead" gpu_rmsnorm_fwd ${params[gpu_rmsnorm_fwd]}
  done
fi
