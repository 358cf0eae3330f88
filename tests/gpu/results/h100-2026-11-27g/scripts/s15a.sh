#!/usr/bin/env bash
# New seed strategies judged against the old on one machine.
set -u
root=$(pwd); o=${OUT:-/tmp/out}; mkdir -p "$o/r"
[ -x /tmp/kw-gpu-build/app/cli/kernelwright-cli ] || { STEP=build bash tests/gpu/run_on_gpu.sh "$root/.debs" /tmp/n-build > "$o/r/build.out" 2>&1 || { tail -20 "$o/r/build.out"; exit 1; }; }
. tests/gpu/built_env.sh
P=resources/problems/gpu
while read -r p rest; do
  [ -n "$p" ] || continue
  args=(); for kv in $rest; do args+=(--param "$kv"); done
  tag="$p-$(echo $rest | md5sum | cut -c1-4)"
  t0=$(date +%s)
  timeout 120 "$cli" --db /tmp/s15a.db eval --problem $P/$p --seed triton "${args[@]}" --json --no-cache --sandbox required --time-budget 0.3 --no-compile-baseline > "$o/r/$tag.json" 2> "$o/r/$tag.err"
  echo "== $p $rest ($(( $(date +%s) - t0 )) s)"
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d.get('status'), d.get('message','')[:600])" "$o/r/$tag.json" 2>&1 | head -5
  python3 tests/gpu/judge_parts.py "$o/r/$tag.json" 2>/dev/null | grep -E "shape|candidate  |reference  " | head -3
done <<LIST
${LIST:-}
LIST
cd "$o" && tar czf /tmp/00.tgz r && rm -rf r && mv /tmp/00.tgz "$o/"
