#!/usr/bin/env bash
# Where does the runner's host time a set go? A seed judged under variants:
# as is; sandbox off; not pinned; no compile baseline; KW_RUNNER_PROFILE=1.
set -u
root=$(pwd); o=${OUT:-/tmp/out}; mkdir -p "$o"
[ -x /tmp/kw-gpu-build/app/cli/kernelwright-cli ] || { STEP=build bash tests/gpu/run_on_gpu.sh "$root/.debs" /tmp/n-build > "$o/build.out" 2>&1 || { tail -20 "$o/build.out"; exit 1; }; }
. tests/gpu/built_env.sh
P=resources/problems/gpu
pp=${PP:-"gpu_rmsnorm_fwd BLOCK_N=1024 LAUNCH=jit NUM_STAGES=1 NUM_WARPS=16 ROWS=2"}
set -- $pp; p=$1; shift; args=(); for kv in "$@"; do args+=(--param "$kv"); done
ev() { # TAG "ENV=.. ..." EXTRA_FLAGS...
  local tag=$1 envs=$2; shift 2
  env $envs timeout 90 "$cli" --db /tmp/s14b.db eval --problem $P/$p --seed triton "${args[@]}" --json --no-cache --time-budget 0.3 "$@" > "$o/eval-$tag.json" 2> "$o/eval-$tag.err"
  echo "== $tag"; python3 tests/gpu/judge_parts.py "$o/eval-$tag.json" | grep -E "shape|candidate|reference|torch.compile" | head -5; }
ev as_is "KW_X=1" --sandbox required
ev sandbox_off "KW_X=1" --sandbox off
ev no_pin "KW_JUDGE_PIN=0" --sandbox required
ev no_compile "KW_X=1" --sandbox required --no-compile-baseline
ev profiled "KW_RUNNER_PROFILE=1" --sandbox required --keep-job
job=$(grep -oE "/[^ ]*job[^ ]*" "$o/eval-profiled.err" | head -1); echo "job: $job"
for f in "$job"/build/runner-*.err; do echo "--- $f"; grep -c KW-RUNNER-SETS "$f"; grep KW-RUNNER-SETS "$f" | tail -8; awk '/KW-RUNNER-PROFILE/{n++} n==0{next} {print}' "$f" | tail -30; done
cd "$o" && tar czf /tmp/s14b.tgz --exclude=s14b.tgz . && mv /tmp/s14b.tgz "$o/"
