#!/usr/bin/env bash
# Where the runner's launching goes: bet fused under the judge, four ways.
set -u
root=$(pwd); o=${OUT:-/tmp/out}; mkdir -p "$o/r"
. tests/gpu/built_env.sh
P=resources/problems/gpu
p=${PROB:-gpu_batch_event_truncate}
for v in "profile KW_RUNNER_PROFILE=1" "sets KW_RUNNER_PROFILE=sets" "lead0 KW_JUDGE_LEAD_US=0" "nopin KW_JUDGE_PIN=0" "default X=1"; do
  set -- $v; tag=$1; shift
  env "$@" timeout 120 "$cli" --db /tmp/s15c.db eval --problem $P/$p --seed triton --json --no-cache --sandbox required --time-budget 0.3 --no-compile-baseline --keep-job > "$o/r/$tag.json" 2> "$o/r/$tag.err"
  echo "== $tag $*"
  python3 tests/gpu/judge_parts.py "$o/r/$tag.json" 2>/dev/null | grep -E "shape|candidate  " | head -2
  job=$(sed -n "s/^job dir kept: //p" "$o/r/$tag.err" | head -1); echo "job: $job"
  if [ -n "$job" ] && [ -d "$job" ]; then mkdir -p "$o/r/$tag-job"; cp "$job"/build/runner-*.err "$o/r/$tag-job/" 2>/dev/null; ls "$job" "$job/build" | head -30; fi
done
